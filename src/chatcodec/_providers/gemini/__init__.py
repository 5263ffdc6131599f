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

Modules (each a job of its own).

The contract's files as in ``_providers/_template``, each with the job its map gives:
``stream_framing``, ``markers``, ``capabilities``, ``edge``, ``wire``, ``request``,
``response``, ``messages``, ``origins``, ``parts``, ``tools``, ``settings``, ``finish_reason``,
``usage``, ``rules``, ``structure``, ``stream_decode``, ``stream_encode``.

The contract's files this folder says more of:

- ``batch_rows``: where Gemini bodies ride in batch files (the Gemini API's batch mode,
  Vertex AI batch prediction).

This provider's own:

- ``call_ids``: ids for function calls, which carry none on Gemini's wire.
- ``grounding``: a candidate's ``groundingMetadata`` supports <-> its text parts' url citations.
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
