"""Google's Interactions API (``POST /v1beta/interactions``), the steps schema: requests,
Interactions and their SSE streams <-> canonical data.

The API Google launches its newer models and agentic tools on: one ``input`` (a string, a
content, a content list, or a list of steps), one ``system_instruction`` string, and an
``Interaction`` whose ``steps`` are the model's turn and whose ``status`` says how it ended.
It shares the Gemini family's facts with the ``gemini`` folder (Google's error shape,
:mod:`chatcodec._providers.families.google`). ``previous_interaction_id`` names history
the server holds: it rides in the request bag, written back here and reported by every
other writer.

Registered as the built-in ``gemini-interactions``. Detection tells its bodies from OpenAI
Responses' (both have ``model``, ``input``, ``tools``, ``store``, ``background``) by its own
keys (``system_instruction``, ``generation_config``, ``previous_interaction_id``, an
answer's ``steps``...) and by the entries of an ``input`` list (steps and contents, where
Responses has items): its edge's ``detection``. ``chatcodec serve`` offers it as a front
(whose Interactions are the server's own: :mod:`.server`) and calls it upstream (its edge).

API documentation:

- Reference: https://ai.google.dev/api/interactions-api
- Streaming: https://ai.google.dev/gemini-api/docs/interactions/streaming
- Changelog: https://ai.google.dev/gemini-api/docs/changelog
- SDK types: google-genai 3.6.1, ``google.genai._gaos.types.interactions``

Modules (each a job of its own).

The contract's files as in ``_providers/_template``, each with the job its map gives:
``stream_framing``, ``markers``, ``capabilities``, ``edge``, ``wire``, ``request``,
``response``, ``messages``, ``parts``, ``tools``, ``settings``, ``finish_reason``, ``usage``,
``rules``, ``stream_decode``, ``stream_encode``.

This provider's own (what it shares with the ``gemini`` folder is in the Google family):

- ``server``: what a server answering the Interactions API itself owes its callers (its own
  Interaction ids, a kept interaction continued or read back), as ``openai_responses`` has.
"""
