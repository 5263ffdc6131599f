"""A span's token counts (``gen_ai.usage.*``) <-> canonical usage.

The conventions' registry (open-telemetry/semantic-conventions-genai ``model/gen-ai/registry.yaml``)
counts a call's tokens as ``gen_ai.usage.input_tokens`` and ``output_tokens`` (the input total
holding the cached tokens, the output total the reasoning tokens, as the canonical counts do),
``cache_read.input_tokens``, ``cache_creation.input_tokens`` (``cache_write.input_tokens`` in the
OpenTelemetry GenAI utilities and the later drafts: read too, and written back as it came) and
``reasoning.output_tokens``: each is a canonical count (:data:`.markers.USAGE`).

The same registry breaks the totals down by modality (``gen_ai.usage.text.input_tokens``,
``image``, ``audio``, ``video``; ``text.output_tokens``, ``audio``; the drafts' ``image`` output
and ``{text,image,audio}.cache_read.input_tokens``). Canonical usage has no field for a
modality's share, so these ride in the usage's bag under their attribute names: written back by
this format, reported by any other (at ``$.usage.provider_metadata``), never dropped. So does any
other ``gen_ai.usage.*`` attribute an emitter writes (``total_tokens``, a cost).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.otel_genai.markers import KIT, USAGE
from chatcodec._frameworks.otel_genai.wire import TITLE
from chatcodec.codec_kit import rule_error, wire_fields
from chatcodec.contract import EncodeContext

PREFIX = "gen_ai.usage."
"""Every token-count attribute's prefix: what a reader of usage takes from a span."""

CACHE_WRITE = "gen_ai.usage.cache_write.input_tokens"
"""The other spelling of ``gen_ai.usage.cache_creation.input_tokens``."""

_SPELT = "_cache_write"
"""The marker on a usage whose cache writes came as :data:`CACHE_WRITE` (pure spelling)."""

MODALITY_COUNTS = frozenset(
    {
        *(f"{PREFIX}{modality}.input_tokens" for modality in ("text", "image", "audio", "video", "document")),
        *(f"{PREFIX}{modality}.output_tokens" for modality in ("text", "image", "audio", "video")),
        *(f"{PREFIX}{modality}.cache_read.input_tokens" for modality in ("text", "image", "audio")),
    }
)
"""The per-modality counts: no canonical field, kept in the usage's bag, each checked as a count."""


def read_usage(attributes: Mapping[str, Any]) -> dict[str, Any] | None:
    """The span's ``gen_ai.usage.*`` attributes as canonical usage (None: it has none); a count
    that is no whole number of 0 or more is refused at its attribute."""
    usage: dict[str, Any] = {}
    bag: dict[str, Any] = {}
    for key, value in attributes.items():
        if not key.startswith(PREFIX) or value is None:
            continue
        field = USAGE.get(key) or ("cache_write_tokens" if key == CACHE_WRITE else None)
        if (field is not None or key in MODALITY_COUNTS) and (type(value) is not int or value < 0):
            raise rule_error(TITLE, (key,), "token_count", "a token count is a whole number, 0 or more", value)
        if field is None or field in usage:  # no canonical field, or the second spelling of one
            bag[key] = value
            continue
        usage[field] = value
        if key == CACHE_WRITE:
            bag[_SPELT] = True
    return KIT.attach(usage, bag) if usage or bag else None


def write_usage(usage: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
    """Canonical usage as the span's ``gen_ai.usage.*`` attributes (its bag's counts with them);
    another format's usage data is reported at ``usage``."""
    bag = KIT.claim(context.losses, usage.get("provider_metadata"), ("usage",))
    attributes: dict[str, Any] = {}
    for key, field in USAGE.items():
        if usage.get(field) is not None:
            spelt = field == "cache_write_tokens" and bag.get(_SPELT)
            attributes[CACHE_WRITE if spelt else key] = usage[field]
    for key, value in wire_fields(bag).items():
        attributes.setdefault(key, value)
    return attributes
