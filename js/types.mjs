// Generate TypeScript types from chatcodec's JSON Schemas with json-schema-to-typescript,
// default options: one module per schema, written to <out-dir>/<kind>.ts.
//
//   node types.mjs <schemas-dir> <out-dir>
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "json-schema-to-typescript";

const [schemasDir, outDir] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
for (const kind of ["messages", "request", "response", "stream-event"]) {
  const schema = JSON.parse(readFileSync(join(schemasDir, `${kind}.schema.json`), "utf8"));
  const types = await compile(schema, schema.title, { bannerComment: "" });
  writeFileSync(join(outDir, `${kind}.ts`), types);
}
