// A small program written against the types json-schema-to-typescript generates from
// chatcodec's schemas (generated/<kind>.ts): it builds a conversation and a request under
// `tsc --strict` and prints them as JSON, which the Python test validates with chatcodec.
import type { AssistantMessage, Messages, TextPart, ToolUsePart, UserMessage } from "./generated/messages.js";
import type { ChatRequest } from "./generated/request.js";

const call: ToolUsePart = { type: "tool_use", id: "call_1", name: "get_weather", arguments: '{"city": "Paris"}' };

const messages: Messages = [
  { role: "system", content: "You are terse." },
  {
    role: "user",
    content: [
      { type: "text", text: "What is the weather in Paris?", cache_control: { type: "ephemeral" } },
      { type: "image", source: { type: "url", url: "https://example.com/paris.png" }, detail: "low" },
      { type: "video", source: { type: "url", url: "https://example.com/paris.mp4" }, start_offset: 10, fps: 2 },
    ],
  },
  { role: "assistant", content: [{ type: "thinking", text: "Ask the weather tool.", signature: "c2ln" }, call] },
  { role: "tool", content: [{ type: "tool_result", tool_use_id: call.id, content: "18 C, clear" }] },
  {
    role: "assistant",
    content: [
      {
        type: "text",
        text: "18 C and clear (meteo.fr).",
        citations: [{ type: "url_citation", url: "https://meteo.fr/paris", title: "Paris", start_index: 15, end_index: 25 }],
      },
    ],
  },
];

// @ts-expect-error: a content part needs its `type` tag, as chatcodec requires.
const untagged: UserMessage = { role: "user", content: [{ text: "hi" }] };
// @ts-expect-error: a video is something a user gives, not an assistant part.
const watched: AssistantMessage = { role: "assistant", content: [{ type: "video", source: { type: "file", file_id: "f" } }] };
// @ts-expect-error: a citation's span is given by its indices, as chatcodec requires.
const unspanned: TextPart = { type: "text", text: "x", citations: [{ type: "url_citation", url: "u", title: "t" }] };
// @ts-expect-error: a tool result belongs in a tool message, not a system message.
const misplaced: Messages = [{ role: "system", content: [{ type: "tool_result", tool_use_id: "call_1" }] }];

/** The tool calls of an assistant turn, narrowed by the `type` tag. */
function toolCalls(message: AssistantMessage): ToolUsePart[] {
  if (typeof message.content !== "object") {
    return [];
  }
  return message.content.filter((part): part is ToolUsePart => part.type === "tool_use");
}

const request: ChatRequest = {
  model: "gpt-4o",
  messages,
  tools: [{ name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
  tool_choice: { type: "tool", name: "get_weather" },
  max_tokens: 256,
};

const assistant = messages[2];
const calls = assistant.role === "assistant" ? toolCalls(assistant) : [];
console.log(JSON.stringify({ messages, request, calls, unused: [untagged, misplaced, watched, unspanned].length }));
