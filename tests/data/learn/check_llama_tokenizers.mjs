// Checks the token ids hf_llama_reference.py computed with Hugging Face's
// JavaScript tokenizers (an implementation independent of both the script and
// the C++), reading each folder's tokenizer.json and tokenizer_config.json:
//
//     cd /tmp && npm install @huggingface/tokenizers@0.2.0
//     NODE_PATH=/tmp/node_modules node tests/data/learn/check_llama_tokenizers.mjs
//
// Prints one line per text and exits 1 when any id differs.
import { createRequire } from "module";
import fs from "fs";
import path from "path";

const require = createRequire(path.join(process.env.NODE_PATH || process.cwd(), "x.js"));
const { Tokenizer } = require("@huggingface/tokenizers");
const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.join(here, "..", "..", "..");
const reference = JSON.parse(fs.readFileSync(path.join(here, "hf_llama_reference.json"), "utf8"));
let differ = 0;
for (const [name, model] of Object.entries(reference.models)) {
  const read = (file) => JSON.parse(fs.readFileSync(path.join(root, model.folder, file), "utf8"));
  const tokenizer = new Tokenizer(read("tokenizer.json"), read("tokenizer_config.json"));
  for (const text of model.texts) {
    const ids = tokenizer.encode(text.text).ids;
    const same = JSON.stringify(ids) === JSON.stringify(text.ids);
    differ += same ? 0 : 1;
    console.log(`${name}: ${same ? "same" : "DIFFERENT"} ${JSON.stringify(ids)} ${JSON.stringify(text.text)}`);
  }
}
process.exit(differ ? 1 : 0);
