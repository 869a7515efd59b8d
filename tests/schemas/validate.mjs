// Usage: node validate.mjs SCHEMA FILE...
// SCHEMA is a path to a JSON Schema (draft 2020-12 or draft-07), or "sarif" for the SARIF 2.1.0 schema shipped by
// @microsoft/sarif-multitool. A FILE ending in .jsonl is validated line by line. Prints one JSON line:
// {"valid": bool, "errors": ["file:line: path message", ...]} and exits 0 when valid, 1 when not, 2 on bad usage.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import Ajv from "ajv";
import addFormats from "ajv-formats";

const [schemaArg, ...files] = process.argv.slice(2);
if (!schemaArg || files.length === 0) {
  console.error("usage: node validate.mjs SCHEMA|sarif FILE...");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const schemaPath = schemaArg === "sarif"
  ? join(dirname(require.resolve("@microsoft/sarif-multitool-linux/package.json")), "sarif-2.1.0.json")
  : schemaArg;
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const draft2020 = String(schema.$schema ?? "").includes("2020-12");
const ajv = draft2020 ? new Ajv2020({ allErrors: true, strict: false }) : new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
// tplab's schemas refer to each other by file name (summary.json's scenarios hold load.schema.json's object): add the
// schema's siblings, by their $id, before compiling it.
if (schemaArg !== "sarif") {
  for (const name of readdirSync(dirname(schemaPath)).filter(n => n.endsWith(".schema.json"))) {
    const sibling = JSON.parse(readFileSync(join(dirname(schemaPath), name), "utf8"));
    if (sibling.$id && sibling.$id !== schema.$id && String(sibling.$schema ?? "") === String(schema.$schema ?? "")) {
      ajv.addSchema(sibling);
    }
  }
}
const validate = ajv.compile(schema);

const errors = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const documents = file.endsWith(".jsonl")
    ? text.split("\n").map((line, i) => [i + 1, line]).filter(([, line]) => line.trim().length > 0)
    : [[1, text]];
  for (const [line, body] of documents) {
    let value;
    try {
      value = JSON.parse(body);
    } catch (e) {
      errors.push(`${file}:${line}: not JSON: ${e.message}`);
      continue;
    }
    if (!validate(value)) {
      for (const error of validate.errors ?? []) {
        errors.push(`${file}:${line}: ${error.instancePath || "/"} ${error.message} ${JSON.stringify(error.params)}`);
      }
    }
  }
}
console.log(JSON.stringify({ valid: errors.length === 0, errors }));
process.exit(errors.length === 0 ? 0 : 1);
