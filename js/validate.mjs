// Validate a batch of documents against chatcodec's JSON Schemas with ajv, as a user would:
// `new Ajv2020()` with default (strict) settings. One process for the whole batch.
//
//   node validate.mjs <schemas-dir> <batch.json>
//
// batch.json: [{"kind": "messages", "document": ...}, ...]. Prints one JSON array of
// {"valid": bool, "errors": [...]} in batch order. Exits 1 when a schema does not compile
// or ajv logs any warning (strict mode reports some problems only as warnings).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

const [schemasDir, batchPath] = process.argv.slice(2);
const warnings = [];
const logger = { log: () => {}, warn: (...args) => warnings.push(args.join(" ")), error: (...args) => warnings.push(args.join(" ")) };
const ajv = new Ajv2020({ logger });

const validators = new Map();
function validatorFor(kind) {
  if (!validators.has(kind)) {
    const schema = JSON.parse(readFileSync(join(schemasDir, `${kind}.schema.json`), "utf8"));
    validators.set(kind, ajv.compile(schema));
  }
  return validators.get(kind);
}

const batch = JSON.parse(readFileSync(batchPath, "utf8"));
const verdicts = batch.map(({ kind, document }) => {
  const validate = validatorFor(kind);
  const valid = validate(document);
  return { valid, errors: valid ? [] : validate.errors.map((error) => `${error.instancePath} ${error.message}`) };
});
if (warnings.length > 0) {
  console.error(`ajv warnings:\n${warnings.join("\n")}`);
  process.exit(1);
}
process.stdout.write(JSON.stringify(verdicts));
