"""The Google Gemini codec (registry name ``"gemini"``): the REST JSON of
``generateContent`` / ``streamGenerateContent`` (Gemini API and Vertex AI).

API documentation:

- Reference: https://ai.google.dev/api/generate-content
- Streaming (``streamGenerateContent``, ``alt=sse``):
  https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
- Vertex AI: https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.endpoints/generateContent
- Changelog: https://ai.google.dev/gemini-api/docs/changelog ; Gemini 3 and thought
  signatures: https://ai.google.dev/gemini-api/docs/gemini-3 ,
  https://ai.google.dev/gemini-api/docs/thought-signatures
- SDK types (the tests' oracle): https://github.com/googleapis/python-genai/blob/main/google/genai/types.py

Load it through the registry (``chatcodec.get_codec("gemini")``) or the top-level
functions.

Modules (each a job of its own; the contract's files as in ``_providers/_template``):

- ``stream_framing``: how its server frames a stream (``FRAMING``, which its edge holds), read
  on a stream's first use without loading the edge.
- ``markers``: this provider's name, its kit, its encoder options and the spelling markers it
  keeps in its bags.
- ``capabilities``: what the wire can carry, as data (``CAPABILITIES``), read by the shared
  rules, strict mode and the laws.
- ``edge``: what the API says on HTTP (``EDGE``): routes, upstream, stream framing, error
  shapes, detection marks.
- ``batch_rows``: where Gemini bodies ride in batch files (the Gemini API's batch mode,
  Vertex AI batch prediction).
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
- ``stream_decode``: wire stream events -> the shared stream builder (the one stream path).
- ``stream_encode``: canonical stream events -> wire stream events.

This provider's own:

- ``call_ids``: ids for function calls, which carry none on Gemini's wire.
- ``logprobs``: a candidate's ``logprobsResult`` <-> the choice's token log probabilities.
- ``media``: ``inlineData`` / ``fileData`` <-> canonical image, audio, video and document parts
  (in content and in tool results).
- ``partial_args``: Vertex AI's streamed function-call arguments (``partialArgs``).
- ``results``: ``functionResponse`` parts <-> canonical tool results.
- ``signatures``: the thought-signature rule of Gemini 3 function calling.
- ``spelling``: the two spellings of every key: camelCase (REST) and snake_case (SDK dumps,
  Vertex).
- ``tool_names``: Gemini's tool-name rule, for the kit's one rewrite.
- ``video``: ``videoMetadata`` <-> a canonical video part's clip.
"""
