"""This provider's name, its kit, and the spelling markers it keeps in its bags.

Markers are keys starting with exactly one ``_``, never written to the wire.

Pure spelling (every server that takes one spelling takes the other with the same
meaning; another provider drops them without a report):

* ``_integers`` (requests): the ``generationConfig`` sampling numbers spelled as JSON integers
  (``topP: 1``), which canonical holds as floats (``_providers/kit/integer_spelling.py``);
* ``_finish_reason`` (candidates): a ``finishReason`` this codec does not know, written
  back by this codec only (the canonical finish reason carries the word; ``finish_reason.py``);
* ``_nulls`` / ``_absent``: the kit's (``null`` fields; defaults the payload left out);
* ``_snake`` (request and response bags): where the payload spelled a key in snake_case
  (the google-genai SDK and Vertex clients do, next to camelCase keys), as wire paths;
  the encoder writes those keys back that way, every other key in camelCase
  (:mod:`.spelling`);
* ``_synthesized_id`` (tool calls): the call id was made up on decoding, because Gemini
  calls carry none (:mod:`.call_ids`); it is not written back (without it the id is
  sent, as for every call from another provider);
* ``_empty_id`` (tool calls and results): the wire ``id`` was ``""``, read as no id (a
  made-up id for a call, pairing by position for a result); written back as ``""``;
* ``_unsigned`` (tool calls): Gemini sent the call without a ``thoughtSignature``, so the
  signature rule (:mod:`.signatures`) does not report it (without it, it does);
* ``_no_args`` (tool calls) / ``_no_response`` (tool results): the call had no ``args``,
  the result no ``response``;
* ``_no_mime_type`` (media): a ``fileData`` part had no ``mimeType`` (``parts.py``);
* ``_skip_signature`` (tool calls): the call carried Google's documented sentinel
  ``skip_thought_signature_validator`` instead of a signature (:mod:`.signatures`);
* ``_without_id`` (tool results): the result was paired with its call by position, not id;
* ``_level_spelling`` (reasoning): how ``thinkingLevel`` was spelled (``"HIGH"``);
* ``_no_thoughts`` (reasoning): thinking was on (a budget, dynamic) without
  ``includeThoughts``; the encoder, which asks for thoughts whenever thinking is on, does
  not add it (:mod:`.settings`);
* ``_no_candidates`` (responses): a blocked prompt had no candidate; the canonical
  response holds one empty choice for it;
* ``_cited_grounding`` (candidates): the candidate's ``groundingMetadata`` was read into its
  texts' url citations, and the bag keeps only what has no canonical place (without it a
  kept ``groundingMetadata`` is the wire's, whole; :mod:`.grounding`); ``_grounding_keys``:
  how that metadata ordered its keys when not as the writer does (a recording re-serialised
  with sorted keys), so the round trip gives the same bytes;
* ``_string`` (system message): ``systemInstruction`` was a bare string (a google-genai
  config dump), written back as one;
* ``_joined`` (user messages): the message shared its wire turn with the tool results
  before it;
* ``_model_in_body`` (requests): the body named its ``model`` (an SDK dump); the API takes
  the model in the URL, so only such a body gets it back (:mod:`.request`);
* ``_tools_layout`` (requests): how the Tool objects grouped the declarations, read back by
  the tools writer unless the ``tools_layout`` option is given (:mod:`.tools`);
* ``_include_thoughts`` (requests): the ``include_thoughts`` option's old spelling (a
  server whose caller asked for thoughts shows another provider's reasoning as thought
  parts), read with a ``DeprecationWarning`` (:mod:`chatcodec._option_table`);
* ``_generation_config`` (requests): a ``generationConfig`` was sent whose every field
  has a canonical home, even an empty one (:mod:`.settings`);
* ``_schema_key`` (tools): which wire key held the schema: ``parameters`` (Google's
  OpenAPI subset: upper-case ``type``, ``nullable``) rather than ``parametersJsonSchema``
  (JSON Schema), or none; ``_response_schema_key`` (requests): the output schema came as
  ``responseSchema`` rather than ``responseJsonSchema``. Every other writer rewrites an
  OpenAPI-subset schema as JSON Schema (``_providers/families/google/openapi_schema.py``, reported as
  a ``schema`` loss), which Gemini reads under the JSON Schema key with the same meaning.

Carry meaning (declared in :data:`KIT`: another provider that drops one reports a loss):
none.

Encoder options (:data:`OPTIONS`), by argument (``options=``) or, in a stored request, in
``provider_options["gemini"]``: ``missing_signature`` (see :mod:`.signatures`) and
``tools_layout`` (:mod:`.tools`), with the target rules' ``api_version`` and ``skip_rules``.
"""

from __future__ import annotations

from chatcodec.codec_kit import RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "gemini"
"""Registry name, and the key of this codec's provider-metadata bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations, bound to this provider (:mod:`chatcodec._providers.kit`)."""

NO_CACHE_MARKER = "Gemini caches whole prompts (cachedContent)"
"""Why a ``cache_control`` anywhere in a request is a loss: Gemini has no per-block marker."""

INCLUDE_THOUGHTS = "include_thoughts"
"""The option of a server whose caller asked for thoughts (``thinkingConfig.includeThoughts``):
reasoning from another provider is shown in the answer as thought parts."""

OPTIONS = OptionTable.of(
    "missing_signature",
    "tools_layout",
    INCLUDE_THOUGHTS,
    *RULE_OPTIONS,
    stored=("missing_signature",),
    legacy=(INCLUDE_THOUGHTS, *RULE_OPTIONS),
)
"""This encoder's options (typed for callers as :class:`chatcodec.options.GeminiOptions`):
what to do with a call Gemini 3 wants signed that has no signature (see ``signatures.py``;
a stored request may set it in ``provider_options[PROVIDER]``), how the ``Tool`` objects were grouped when a
payload was read, and ``include_thoughts`` (an answer shows another provider's reasoning). The codec reads them into
:attr:`~chatcodec._providers.contract.context.EncodeContext.options`."""

SNAKE = "_snake"
SYNTHESIZED_ID = "_synthesized_id"
EMPTY_ID = "_empty_id"
WITHOUT_ID = "_without_id"
SCHEMA_KEY = "_schema_key"
LEVEL_SPELLING = "_level_spelling"
NO_THOUGHTS = "_no_thoughts"
NO_CANDIDATES = "_no_candidates"
JOINED = "_joined"
UNSIGNED = "_unsigned"
NO_ARGS = "_no_args"
NO_RESPONSE = "_no_response"
NO_MIME_TYPE = "_no_mime_type"
SKIPPED = "_skip_signature"
SKIP_SENTINEL = "skip_thought_signature_validator"
"""Google's documented value that tells Gemini to skip signature validation."""
STRING_SYSTEM = "_string"
