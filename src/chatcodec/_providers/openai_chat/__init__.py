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

Modules (each a job of its own).

The contract's files as in ``_providers/_template``, each with the job its map gives:
``stream_framing``, ``markers``, ``capabilities``, ``edge``, ``wire``, ``request``,
``response``, ``messages``, ``origins``, ``parts``, ``tools``, ``settings``, ``finish_reason``,
``usage``, ``rules``, ``structure``, ``dialect``, ``stream_decode``, ``stream_encode``.

The contract's files this folder says more of:

- ``batch_rows``: where Chat Completions bodies ride in batch files (OpenAI Batch rows), and
  the training dialects that hold this format's messages.

This provider's own:

- ``logprobs``: a choice's ``logprobs`` (its text tokens) <-> the canonical choice's
  token log probabilities.
- ``assistant``: assistant messages (in requests and in responses), both ways.
- ``plain_turn``: an agent's plain assistant turn, read on a short path.
- ``plain_parts``: a plain call and a reasoning string read in one step, by this codec and by
  the dialect readers alike (which import it alone, building no codec).
- ``citations``: a response message's ``url_citation`` annotations <-> its text's canonical
  citations (moved by the texts joined before each).
- ``cache_control``: ``cache_control`` written into messages: the OpenRouter / litellm
  convention.
- ``common_shapes``: the common request shapes as one closed pydantic-core schema: the front of
  the reader.
- ``admitted_parts``: the content parts (and a client's user message) the direct paths from this
  format admit, proved as the front checks them without a copy built.
- ``functions``: the deprecated function-calling shapes, and arguments given as a JSON object.
- ``null_spelling``: the ``null`` message fields of an OpenAI SDK dump, kept as spelling.
- ``reasoning``: the compatible servers' three reasoning fields and reasoning content part, both
  ways.
- ``passed_through``: vLLM's ``top_k`` and litellm's ``thinking`` <-> canonical ``top_k`` and ``reasoning``.
- ``reasoning_object``: OpenRouter's ``reasoning`` setting object <-> canonical ``reasoning``.
- ``request_fields``: the top-level fields of a request, read into canonical data.
- ``top_level_reading``: the usual request's tools and a client's settings beside it, read for a
  direct path's top level by this reader's front and decoders.
- ``sampled_ids``: the token ids vLLM and SGLang put on an answer when asked, taken out for a
  gateway that records them.
- ``server_media``: media parts whose writing depends on the server the body goes to.
- ``server_options``: the names of the internal options the servers set for the writer, apart
  from the servers' records (which a reader never loads).
- ``server_tools``: Anthropic server-tool blocks inside assistant messages, as litellm writes
  them.
- ``servers``: the OpenAI-compatible servers (DeepSeek, OpenRouter, Groq, Mistral, vLLM, ...) a
  body can be written for, as data.
- ``stream_calls``: what a stream spreads over chunks: tool-call fragments, custom calls, a text
  chunk's ``logprobs`` (the other chunks' are joined by ``logprobs.join_logprobs``).
- ``stream_choice``: what the stream decoder keeps for each choice while it streams.
- ``stream_chunk``: the common ``chat.completion.chunk`` shapes as one closed pydantic-core
  schema (the decoder's front).
- ``stream_indexes``: the ``index`` of each list entry in a streamed delta, as the SDK's stream
  helpers merge them.
- ``stream_keys``: the chunk ``object`` and the delta's content fields, which the encoder and
  the decoder share (written out, so the encoder imports neither the decoder nor the wire).
- ``stream_thinking``: the deltas a thinking part makes in a written stream, and which field they
  go to.
- ``thought_signatures``: Gemini's thought signature on a compatible tool call <->
  ``thoughtSignature``.
- ``tool_calls``: one tool call <-> one canonical ``tool_use`` part.
- ``wire_validators``: the wire shapes' pydantic validators, built on first need (errors name
  the wire path and rule).
"""
