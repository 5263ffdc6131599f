"""The conventions' request settings on an inference span <-> a request's sampling settings.

``gen_ai.request.max_tokens``, ``temperature``, ``top_p``, ``top_k``, ``frequency_penalty``,
``presence_penalty``, ``seed`` and ``stop_sequences``
(https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/) are the canonical settings
of the same names (``stop_sequences`` is ``stop``), so a replayed call samples as it did. A
value of another type is refused at its attribute; the request's other settings (a reasoning
configuration, a response format) have no attribute and are reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.otel_genai.wire import TITLE
from chatcodec.codec_kit import as_list, rule_error

SETTINGS = {
    "gen_ai.request.max_tokens": "max_tokens",
    "gen_ai.request.temperature": "temperature",
    "gen_ai.request.top_p": "top_p",
    "gen_ai.request.top_k": "top_k",
    "gen_ai.request.frequency_penalty": "frequency_penalty",
    "gen_ai.request.presence_penalty": "presence_penalty",
    "gen_ai.request.seed": "seed",
    "gen_ai.request.stop_sequences": "stop",
}
"""Each attribute and the canonical setting it is."""

WRITTEN = frozenset(SETTINGS.values())
"""The canonical settings a span has an attribute for."""

_WHOLE = frozenset({"max_tokens", "top_k", "seed"})


def read_settings(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """The span's request settings as canonical request fields."""
    settings: dict[str, Any] = {}
    for key, field in SETTINGS.items():
        value: object = attributes.get(key)
        if value is None:
            continue
        if field == "stop":
            listed = as_list(value)
            if listed is None or not all(isinstance(item, str) for item in listed):
                raise rule_error(TITLE, (key,), "stop_sequences", "the stop sequences are a list of strings", value)
        elif field in _WHOLE:
            if type(value) is not int or (field == "max_tokens" and value < 1):
                why = "a whole number" + (", 1 or more" if field == "max_tokens" else "")
                raise rule_error(TITLE, (key,), field, why, value)
        elif type(value) not in (int, float):
            raise rule_error(TITLE, (key,), field, "a number", value)
        settings[field] = value
    return settings


def write_settings(request: Mapping[str, Any]) -> dict[str, Any]:
    """The request's sampling settings as the span's attributes."""
    return {key: request[field] for key, field in SETTINGS.items() if request.get(field) not in (None, [])}
