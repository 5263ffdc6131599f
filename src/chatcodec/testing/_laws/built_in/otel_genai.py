"""The OpenTelemetry GenAI messages' law facts: the names that say the format. A span's answer
has places for its id, model and token counts (``gen_ai.response.*``, ``gen_ai.usage.*``), so
nothing of an answer is stated as unplaced but its creation time."""

from __future__ import annotations

from functools import partial

from chatcodec.testing._laws.derived_entry import derived_entry

entry = partial(
    derived_entry,
    "otel-genai",
    names_in_prose=("opentelemetry", "otel", "genai"),
    unplaced_response_fields=("created",),
)
"""The facts the codec gives, for ``chatcodec check-codec otel-genai``."""
