// Checks the token ids make_fixtures.py computed for expected.json's text
// with Hugging Face's JavaScript tokenizers (an implementation independent of
// both make_fixtures.py and the C++):
//
//     cd /tmp && npm install @huggingface/tokenizers@0.2.0
//     NODE_PATH=/tmp/node_modules node tests/data/families/check_tokenizers.mjs
//
// Prints one line per folder and exits 1 when any id differs.
import { createRequire } from "module";
import fs from "fs";
import path from "path";

const require = createRequire(path.join(process.env.NODE_PATH || process.cwd(), "x.js"));
const { Tokenizer } = require("@huggingface/tokenizers");
const here = path.dirname(new URL(import.meta.url).pathname);
const expected = JSON.parse(fs.readFileSync(path.join(here, "expected.json"), "utf8"));
let differ = 0;
for (const c of Object.values(expected.cases)) {
  for (const folder of Object.keys(c.folders)) {
    const read = (file) => JSON.parse(fs.readFileSync(path.join(here, folder, file), "utf8"));
    const tokenizer = new Tokenizer(read("tokenizer.json"), read("tokenizer_config.json"));
    const ids = tokenizer.encode(expected.text).ids;
    const same = JSON.stringify(ids) === JSON.stringify(c.token_ids);
    differ += same ? 0 : 1;
    console.log(`${folder}: ${same ? "same" : "DIFFERENT"} ${JSON.stringify(ids)}`);
  }
}
process.exit(differ ? 1 : 0);
