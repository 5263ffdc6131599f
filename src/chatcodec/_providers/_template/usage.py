"""The wire's token counts <-> canonical usage (:class:`~chatcodec.Usage`).

One role, two functions, the same signatures in every folder
(``roles.UsageFunctions``): ``decode_usage`` maps one value and takes no context;
``encode_usage`` reports what the wire has no count for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers._template.markers import KIT
from chatcodec.contract import EncodeContext, Steps, leftovers, wire_fields

COUNTS = ("input_tokens", "output_tokens")
"""The counts the wire and the canonical usage spell alike."""


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical usage dict of a wire ``usage`` object (unknown counts in its bag)."""
    canonical = {key: wire[key] for key in COUNTS if key in wire}
    return KIT.attach(canonical, leftovers(wire, COUNTS))


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """The wire ``usage`` for canonical usage; a count the wire cannot say is a loss."""
    wire = wire_fields(KIT.claim(context.losses, usage.get("provider_metadata"), at))
    wire.update({key: usage[key] for key in COUNTS if key in usage})
    for key in ("cache_read_tokens", "cache_write_tokens", "reasoning_tokens"):
        if usage.get(key):  # a count of 0 says nothing: no loss
            context.losses.add((*at, key), key, "Template Chat reports no such count", "metadata")
    return wire
