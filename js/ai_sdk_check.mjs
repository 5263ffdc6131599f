// Checks histories with the Vercel AI SDK's own schemas (the `ai` package js/package-lock.json
// pins): a ModelMessage[] with `modelMessageSchema` (each message), a UIMessage[] with
// `safeValidateUIMessages`, which also converts it with `convertToModelMessages` (the
// converted messages checked again with `modelMessageSchema`).
//   node ai_sdk_check.mjs BATCH.json   (a JSON array of {"kind": "model" | "ui", "messages": [...]})
// Prints one verdict per item: {"valid": bool, "errors": [...], "converted"?: ModelMessage[]}.
// Run by tests/test_ai_sdk_format.py.
import { readFileSync } from "node:fs";
import { convertToModelMessages, modelMessageSchema, safeValidateUIMessages } from "ai";

const [batchFile] = process.argv.slice(2);
const batch = JSON.parse(readFileSync(batchFile, "utf8"));

function modelErrors(messages) {
  if (!Array.isArray(messages)) return ["not an array"];
  const errors = [];
  messages.forEach((message, index) => {
    const parsed = modelMessageSchema.safeParse(message);
    if (!parsed.success) errors.push(`[${index}] ${JSON.stringify(parsed.error.issues)}`);
  });
  return errors;
}

const verdicts = [];
for (const { kind, messages } of batch) {
  if (kind === "model") {
    const errors = modelErrors(messages);
    verdicts.push({ valid: errors.length === 0, errors });
    continue;
  }
  const result = await safeValidateUIMessages({ messages });
  if (!result.success) {
    verdicts.push({ valid: false, errors: [String(result.error?.message ?? result.error)] });
    continue;
  }
  try {
    const converted = await convertToModelMessages(result.data);
    const errors = modelErrors(converted);
    verdicts.push({ valid: errors.length === 0, errors, converted });
  } catch (error) {
    verdicts.push({ valid: false, errors: [`convertToModelMessages: ${error.message}`] });
  }
}
process.stdout.write(JSON.stringify(verdicts));
