// The Vercel AI SDK's openai.chat() in a tool loop against `chatcodec serve` (its OpenAI Chat
// front): generateText or streamText with one tool, up to three steps, as an app would write it.
//   node clients/vercel_ai_sdk_loop.mjs ORIGIN plain|stream
// Prints {"text": ..., "steps": N} on success; exits 1 with the error's message otherwise.
// Run by tests/serve/test_vercel_ai_sdk.py.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";

const [origin, mode] = process.argv.slice(2);
const openai = createOpenAI({ baseURL: `${origin}/v1`, apiKey: "k" });
const tools = {
  get_weather: tool({
    description: "The weather in a city.",
    inputSchema: jsonSchema({
      type: "object",
      properties: { location: { type: "string" } },
      required: ["location"],
    }),
    execute: async () => "sunny",
  }),
};
const settings = {
  model: openai.chat("m"),
  prompt: "Weather in Paris?",
  tools,
  stopWhen: stepCountIs(3),
  maxRetries: 0,
};

try {
  let text;
  let steps;
  if (mode === "stream") {
    let failure;
    const result = streamText({ ...settings, onError: ({ error }) => { failure = error; } });
    text = await result.text;
    steps = (await result.steps).length;
    if (failure !== undefined) throw failure;
  } else {
    const result = await generateText(settings);
    text = result.text;
    steps = result.steps.length;
  }
  console.log(JSON.stringify({ text, steps }));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
