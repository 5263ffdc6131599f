// Records the Vercel AI SDK histories chatcodec's ai-sdk-model and ai-sdk-ui formats are
// tested on, with the AI SDK itself (the `ai` package js/package-lock.json pins):
//   node ai_sdk_record.mjs OUT_DIR
// A MockLanguageModelV3 (from `ai/test`) answers a tool loop as Claude and as Gemini would:
// signed reasoning, a tool call, a tool that fails, then text. generateText's
// `response.messages` after a user turn with an image is the ModelMessage[] history;
// streamText's UI message stream read by readUIMessageStream is the assistant UIMessage,
// and convertToModelMessages turns the UIMessage[] back into ModelMessage[].
// Run by hand when the pinned `ai` changes; tests/fixtures/ai_sdk/README.md says how.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  convertToModelMessages,
  createUIMessageStream,
  generateText,
  jsonSchema,
  readUIMessageStream,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
} from "ai";
import { MockLanguageModelV3 } from "ai/test";

const [out] = process.argv.slice(2);
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";
const usage = (input, output, reasoning, cacheRead) => ({
  inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 },
  outputTokens: { total: output, text: output - reasoning, reasoning },
});
const finish = (unified, raw) => ({ unified, raw });

// What each model says on each step: Claude-like (signed and redacted thinking) and Gemini-like
// (a thought signature on the call and on the reasoning).
const SCRIPTS = {
  anthropic: [
    [
      { type: "reasoning", text: "The user wants the weather; call the tool.", providerMetadata: { anthropic: { signature: "EqQBCkYIAxgCKkA" } } },
      { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: "RWRhY3RlZA==" } } },
      { type: "text", text: "Let me check." },
      { type: "tool-call", toolCallId: "toolu_01", toolName: "weather", input: '{"city":"Paris","days":2}' },
      { type: "tool-call", toolCallId: "toolu_02", toolName: "forecast", input: '{"city":"Paris"}' },
    ],
    [{ type: "text", text: "It is 18 C and sunny in Paris; the forecast service failed." }],
  ],
  google: [
    [
      { type: "reasoning", text: "Call the weather tool.", providerMetadata: { google: { thoughtSignature: "CiQBcsjafQ==" } } },
      { type: "tool-call", toolCallId: "call_g1", toolName: "weather", input: '{"city":"Rome"}', providerMetadata: { google: { thoughtSignature: "CiUBcsjafQ==" } } },
    ],
    [
      { type: "source", sourceType: "url", id: "src_1", url: "https://weather.test/rome", title: "Rome weather" },
      { type: "text", text: "Rome: 18 C and sunny." },
    ],
  ],
};
const FINISHES = [finish("tool-calls", "tool_use"), finish("stop", "end_turn")];

const tools = {
  weather: tool({
    description: "The weather in a city.",
    inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] }),
    execute: async ({ city }) => ({ city, celsius: 18, sky: "sunny" }),
  }),
  forecast: tool({
    description: "A forecast service that is down.",
    inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
    execute: async () => {
      throw new Error("forecast service unavailable");
    },
  }),
};

function model(provider) {
  let step = 0;
  const next = () => SCRIPTS[provider][step++];
  return new MockLanguageModelV3({
    provider,
    modelId: `${provider}-mock`,
    doGenerate: async () => {
      const index = step;
      return { content: next(), finishReason: FINISHES[index], usage: usage(40 + index * 30, 20, 8, 16), warnings: [] };
    },
    doStream: async () => {
      const index = step;
      const chunks = [{ type: "stream-start", warnings: [] }];
      next().forEach((part, n) => {
        const id = `p${n}`;
        const meta = part.providerMetadata ? { providerMetadata: part.providerMetadata } : {};
        if (part.type === "source") {
          chunks.push(part);
        } else if (part.type === "text" || part.type === "reasoning") {
          chunks.push({ type: `${part.type}-start`, id, ...meta });
          chunks.push({ type: `${part.type}-delta`, id, delta: part.text });
          chunks.push({ type: `${part.type}-end`, id, ...meta });
        } else {
          chunks.push(part);
        }
      });
      chunks.push({ type: "finish", finishReason: FINISHES[index], usage: usage(40 + index * 30, 20, 8, 16) });
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: null }) };
    },
  });
}

const question = (city) => [
  { type: "text", text: `What is the weather in ${city}? Here is the sky.` },
  { type: "image", image: PNG, mediaType: "image/png" },
];

const histories = [];
for (const provider of ["anthropic", "google"]) {
  const city = provider === "anthropic" ? "Paris" : "Rome";
  const prompt = [
    { role: "system", content: "Answer briefly.", providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } },
    { role: "user", content: question(city) },
  ];
  const result = await generateText({
    model: model(provider),
    messages: prompt,
    tools,
    stopWhen: stepCountIs(3),
    allowSystemInMessages: true,
  });
  histories.push({ messages: [...prompt, ...result.response.messages] });
}
writeFileSync(join(out, "model_messages.jsonl"), histories.map((h) => JSON.stringify(h)).join("\n") + "\n");

const uiHistories = [];
for (const provider of ["anthropic", "google"]) {
  const city = provider === "anthropic" ? "Paris" : "Rome";
  const user = {
    id: `user-${provider}`,
    role: "user",
    parts: [
      { type: "text", text: `What is the weather in ${city}? Here is the sky.` },
      { type: "file", mediaType: "image/png", filename: "sky.png", url: `data:image/png;base64,${PNG}` },
    ],
  };
  const system = { id: `system-${provider}`, role: "system", parts: [{ type: "text", text: "Answer briefly." }] };
  const result = streamText({
    model: model(provider),
    messages: await convertToModelMessages([system, user]),
    tools,
    stopWhen: stepCountIs(3),
    allowSystemInMessages: true,
  });
  let assistant;
  // an app's own data part beside the model's stream, as createUIMessageStream's writer sends one
  const stream = createUIMessageStream({
    generateId: () => `assistant-${provider}`,
    execute: ({ writer }) => {
      writer.write({ type: "start", messageId: `assistant-${provider}` });
      writer.write({ type: "data-weather", id: "w1", data: { city, status: "loading" } });
      writer.merge(
        result.toUIMessageStream({
          messageMetadata: ({ part }) =>
            part.type === "finish" ? { model: `${provider}-mock`, finishReason: part.finishReason } : undefined,
          sendSources: true,
          sendStart: false,
        }),
      );
    },
  });
  for await (const message of readUIMessageStream({ stream })) assistant = message;
  uiHistories.push({ messages: [system, user, assistant] });
}
writeFileSync(join(out, "ui_messages.jsonl"), uiHistories.map((h) => JSON.stringify(h)).join("\n") + "\n");

const converted = [];
for (const history of uiHistories) converted.push({ messages: await convertToModelMessages(history.messages) });
writeFileSync(join(out, "ui_converted_model_messages.jsonl"), converted.map((h) => JSON.stringify(h)).join("\n") + "\n");
