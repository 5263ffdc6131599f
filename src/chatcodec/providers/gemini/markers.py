"""This provider's name, its kit, and the spelling markers it keeps in its bags.

Markers (keys starting with ``_``, never written to the wire, never reported as lost):

* ``_nulls`` / ``_absent``: the kit's (``null`` fields; defaults the payload left out);
* ``_snake`` (request and response bags): where the payload spelled a key in snake_case
  (the google-genai SDK and Vertex clients do, next to camelCase keys), as wire paths;
  the encoder writes those keys back that way, every other key in camelCase
  (:mod:`.spelling`);
* ``_synthesized_id`` (tool calls): the call id was made up on decoding, because Gemini
  calls carry none (:mod:`.call_ids`); it is not written back;
* ``_unsigned`` (tool calls): Gemini sent the call without a ``thoughtSignature``, so the
  signature rule (:mod:`.signatures`) does not report it;
* ``_no_args`` (tool calls) / ``_no_response`` (tool results): the call had no ``args``,
  the result no ``response``;
* ``_skip_signature`` (tool calls): the call carried Google's documented sentinel
  ``skip_thought_signature_validator`` instead of a signature (:mod:`.signatures`);
* ``_without_id`` (tool results): the result was paired with its call by position, not id;
* ``_schema_key`` (tools, response format): which wire key held the schema
  (``parameters`` or ``parametersJsonSchema``; ``responseSchema`` or
  ``responseJsonSchema``);
* ``_level_spelling`` (reasoning): how ``thinkingLevel`` was spelled (``"HIGH"``);
* ``_no_candidates`` (responses): a blocked prompt had no candidate; the canonical
  response holds one empty choice for it;
* ``_string`` (system message): ``systemInstruction`` was a bare string (a google-genai
  config dump), written back as one;
* ``_joined`` (user messages): the message shared its wire turn with the tool results
  before it.

Encoder options, in ``provider_options["gemini"]``: ``missing_signature`` (see
:mod:`.signatures`).
"""

from __future__ import annotations

from chatcodec.providers.kit import ProviderKit

PROVIDER = "gemini"
"""Registry name, and the key of this codec's provider-metadata bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations, bound to this provider (:mod:`chatcodec.providers.kit`)."""

SNAKE = "_snake"
SYNTHESIZED_ID = "_synthesized_id"
WITHOUT_ID = "_without_id"
SCHEMA_KEY = "_schema_key"
LEVEL_SPELLING = "_level_spelling"
NO_CANDIDATES = "_no_candidates"
JOINED = "_joined"
UNSIGNED = "_unsigned"
NO_ARGS = "_no_args"
NO_RESPONSE = "_no_response"
SKIPPED = "_skip_signature"
SKIP_SENTINEL = "skip_thought_signature_validator"
"""Google's documented value that tells Gemini to skip signature validation."""
STRING_SYSTEM = "_string"
