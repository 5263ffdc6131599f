"""The ``otel-genai`` format's name, its kit, its encoder options, the span attributes it reads
and writes, and the markers it keeps.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata["otel-genai"]``),
never written out. All are pure spelling (another format drops them without a report):

- ``_output`` on a message read from ``gen_ai.output.messages`` (written back there);
- ``_inline`` on a first system message read from ``gen_ai.input.messages`` (a span without
  ``gen_ai.system_instructions``: written back inline, not as the instructions);
- ``_cache_write`` in a usage's bag: its cache writes came as ``gen_ai.usage.cache_write.input_tokens``;
- ``_text`` in a request's bag: the message attributes given as JSON text (in a response's,
  ``true`` when its output messages were), written back as text;
- ``_role`` on a tool message whose results came in a message of another role (pydantic-ai
  sends them as ``user``), ``_continues`` on the message holding the rest of that message's parts;
- ``_no_parts`` on a message whose ``parts`` were empty (read as empty text);
- ``_thinking`` on reasoning spelled ``thinking`` (pydantic-ai), ``_result`` on a tool result
  whose value came as ``result`` (pydantic-ai, after the conventions' draft), ``_json`` on one
  whose value was JSON, not text, ``_no_id`` on a call or result without an id, ``_text_arguments``
  on a call whose ``arguments`` were JSON text, ``_null_arguments`` on one whose ``arguments``
  were ``null``;
- ``_no_parameters`` / ``_null_parameters`` on a tool whose definition had no ``parameters``
  (or ``null``);
- ``_modality`` / ``_no_modality`` on media whose ``modality`` is not the one written by default,
  ``_spelt`` on media read from a pydantic-ai part (``binary``, ``image-url``...).
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "otel-genai"
"""Registry name, and the key of this format's ``provider_metadata`` bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this format."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""Taken as every encoder takes them (a trace has no target rules to skip), so `convert --storage` works."""

INPUT = "gen_ai.input.messages"
OUTPUT = "gen_ai.output.messages"
SYSTEM = "gen_ai.system_instructions"
REQUEST_MODEL = "gen_ai.request.model"
RESPONSE_MODEL = "gen_ai.response.model"
RESPONSE_ID = "gen_ai.response.id"
FINISH_REASONS = "gen_ai.response.finish_reasons"
TOOLS = "gen_ai.tool.definitions"
"""The span attributes of the conventions' inference span this format maps
(https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/)."""

USAGE = {
    "gen_ai.usage.input_tokens": "input_tokens",
    "gen_ai.usage.output_tokens": "output_tokens",
    "gen_ai.usage.cache_read.input_tokens": "cache_read_tokens",
    "gen_ai.usage.cache_creation.input_tokens": "cache_write_tokens",
    "gen_ai.usage.reasoning.output_tokens": "reasoning_tokens",
}
"""The span's token counts and the canonical usage field each is (the conventions'
``input_tokens`` holds the cached tokens, as the canonical one does); the other spellings and
the per-modality counts are :mod:`.usage`'s."""

MESSAGE_ATTRIBUTES = (SYSTEM, INPUT, OUTPUT)
"""The attributes holding message JSON: as JSON text (what span attributes hold today) or as
the parsed value (the conventions' structured form, what this format writes)."""
