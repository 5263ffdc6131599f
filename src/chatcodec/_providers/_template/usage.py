"""The wire's token counts <-> canonical usage (:class:`~chatcodec.Usage`).

One role, two functions, the same signatures in every folder
(``roles.UsageFunctions``): ``decode_usage`` maps one value and takes no context;
``encode_usage`` reports what the wire has no count for.

A count the wire derives from others (``total_tokens``, the plain sum of input and output)
has no canonical field: the reader leaves it out when it is the plain sum and keeps it in
the bag only when the wire said something else, and the writer derives it again. Kept
always, it would ride in the bag and be reported as a loss by every other format's writer,
a false loss the laws name (OpenAI Chat's ``total_tokens`` and Bedrock's ``totalTokens``
are read so).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers._template.markers import KIT
from chatcodec.codec_kit import absent_keys, leftovers, mark_absent, wire_fields
from chatcodec.contract import EncodeContext, Steps

COUNTS = ("input_tokens", "output_tokens")
"""The counts the wire and the canonical usage spell alike."""
TOTAL = "total_tokens"
"""The wire's derived count: input plus output."""


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical usage dict of a wire ``usage`` object (unknown counts in its bag; the
    total only when it is not the plain sum)."""
    canonical = {key: wire[key] for key in COUNTS if key in wire}
    derived = len(canonical) == len(COUNTS) and wire.get(TOTAL) == sum(canonical.values())
    bag = leftovers(wire, (*COUNTS, TOTAL) if derived else COUNTS)
    mark_absent(bag, wire, TOTAL)  # a body without it gets none written back
    return KIT.attach(canonical, bag)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """The wire ``usage`` for canonical usage; a count the wire cannot say is a loss."""
    bag = KIT.claim(context.losses, usage.get("provider_metadata"), at)
    wire = wire_fields(bag)
    wire.update({key: usage[key] for key in COUNTS if key in usage})
    if TOTAL not in wire and TOTAL not in absent_keys(bag) and all(key in wire for key in COUNTS):
        wire[TOTAL] = wire["input_tokens"] + wire["output_tokens"]  # derived, as the wire does
    for key in ("cache_read_tokens", "cache_write_tokens", "reasoning_tokens"):
        if usage.get(key):  # a count of 0 says nothing: no loss
            context.losses.add((*at, key), key, "Template Chat reports no such count", "metadata")
    return wire
