"""OpenAI Chat Completions (``/v1/chat/completions``), registered as ``openai-chat``.

API documentation:

- Reference: https://platform.openai.com/docs/api-reference/chat/create
- Streaming (chunk objects): https://platform.openai.com/docs/api-reference/chat-streaming
- Changelog: https://platform.openai.com/docs/changelog
- SDK types (the tests' oracle): https://github.com/openai/openai-python/tree/main/src/openai/types/chat

The lingua franca of LLM APIs: OpenAI itself and the compatible servers (DeepSeek,
OpenRouter, Groq, Mistral, vLLM, z.ai) speak it, each adding its own reasoning field.
The codec reads all of them and writes each back the way it came; see ``reasoning.py``
for the reasoning fields and ``stream_calls.py`` for how tool-call fragments are keyed.

Modules (each a job of its own; the contract's files as in ``_providers/_template``):

- ``stream_framing``: how its server frames a stream (``FRAMING``, which its edge holds), read
  on a stream's first use without loading the edge.
- ``markers``: this provider's name, its kit, its encoder options and the spelling markers it
  keeps in its bags.
- ``capabilities``: what the wire can carry, as data (``CAPABILITIES``), read by the shared
  rules, strict mode and the laws.
- ``edge``: what the API says on HTTP (``EDGE``): routes, upstream, stream framing, error
  shapes, detection marks.
- ``batch_rows``: where Chat Completions bodies ride in batch files (OpenAI Batch rows), and
  the training dialects that hold this format's messages.
- ``wire``: the one description of the wire: its shapes, keys spelled as the API spells them.
- ``request``: the one reader and the one writer of request bodies, over canonical data.
- ``response``: the one reader and the one writer of response bodies, over canonical data.
- ``messages``: the wire's message list <-> canonical messages.
- ``origins``: where each canonical message came from in the request read, for a
  conversion's loss paths (:mod:`chatcodec._providers.kit.origins`).
- ``parts``: content blocks <-> canonical content parts.
- ``tools``: tool definitions and tool choice, both ways.
- ``settings``: sampling, reasoning and output-format settings, both ways.
- ``finish_reason``: the wire's finish word <-> the canonical finish reason.
- ``usage``: token counts <-> canonical usage.
- ``rules``: what the target accepts today, by API version and model family (``RULES``, with
  sources).
- ``structure``: what strict mode's structural rules read of a request (its turns, token limit,
  calls and results).
- ``dialect``: what the dialect readers (``chatcodec._dialects``) read of this shape outside a
  request body.
- ``stream_decode``: wire stream events -> the shared stream builder (the one stream path).
- ``stream_encode``: canonical stream events -> wire stream events.

This provider's own:

- ``logprobs``: a choice's ``logprobs`` (its text tokens) <-> the canonical choice's
  token log probabilities.
- ``assistant``: assistant messages (in requests and in responses), both ways.
- ``citations``: a response message's ``url_citation`` annotations <-> its text's canonical
  citations (moved by the texts joined before each).
- ``cache_control``: ``cache_control`` written into messages: the OpenRouter / litellm
  convention.
- ``common_shapes``: the common request shapes as one closed pydantic-core schema: the front of
  the reader.
- ``functions``: the deprecated function-calling shapes, and arguments given as a JSON object.
- ``null_spelling``: the ``null`` message fields of an OpenAI SDK dump, kept as spelling.
- ``reasoning``: the compatible servers' three reasoning fields and reasoning content part, both
  ways.
- ``request_fields``: the top-level fields of a request, read into canonical data.
- ``server_media``: media parts whose writing depends on the server the body goes to.
- ``server_tools``: Anthropic server-tool blocks inside assistant messages, as litellm writes
  them.
- ``servers``: the OpenAI-compatible servers (DeepSeek, OpenRouter, Groq, Mistral, vLLM, ...) a
  body can be written for, as data.
- ``stream_calls``: what a stream spreads over chunks: tool-call fragments, custom calls, each
  chunk's ``logprobs``.
- ``stream_choice``: what the stream decoder keeps for each choice while it streams.
- ``stream_chunk``: the common ``chat.completion.chunk`` shapes as one closed pydantic-core
  schema (the decoder's front).
- ``stream_indexes``: the ``index`` of each list entry in a streamed delta, as the SDK's stream
  helpers merge them.
- ``stream_thinking``: the deltas a thinking part makes in a written stream, and which field they
  go to.
- ``thought_signatures``: Gemini's thought signature on a compatible tool call <->
  ``thoughtSignature``.
- ``tool_calls``: one tool call <-> one canonical ``tool_use`` part.
- ``wire_validators``: the wire shapes' pydantic validators, built on first need (errors name
  the wire path and rule).
"""
