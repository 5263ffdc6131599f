"""``inferenceConfig.stopSequences`` for both Bedrock block bodies, read and written.

botocore's ``InferenceConfiguration.stopSequences`` is a list of non-empty strings (its
member ``NonEmptyString`` has ``min: 1``), and the Runtime refuses an empty one. Another
format's ``stop: [""]`` (OpenAI Chat takes it) is written without the empty entry, which
stops nothing, reported; a Bedrock body that sent one itself is the caller's error and goes
back as it came (the :data:`EMPTY_ENTRY` marker), so its own round trip stays exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.contract.context import EncodeContext

EMPTY_ENTRY = "_empty_stop_entry"
"""Marker: the body's own ``stopSequences`` held an empty string, written back as it came."""


def read_stop(stop: object, canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    """``stopSequences`` as canonical ``stop`` (an empty list as the ``_empty_stop`` marker)."""
    if isinstance(stop, list) and stop:
        canonical["stop"] = stop
        if "" in stop:
            bag[EMPTY_ENTRY] = True
    elif stop == []:
        bag["_empty_stop"] = True


def write_stop(
    request: Mapping[str, Any], config: dict[str, Any], bag: Mapping[str, Any], context: EncodeContext
) -> None:
    """Canonical ``stop`` as ``stopSequences``, without an empty entry another format sent."""
    stop = request.get("stop")
    if stop and "" in stop and not bag.get(EMPTY_ENTRY):
        context.losses.add(
            ("stop",), "empty stop sequence", "Bedrock takes no empty stop sequence; not sent", "setting"
        )
        stop = [entry for entry in stop if entry]
        if not stop:
            return
    if stop or bag.get("_empty_stop"):
        config["stopSequences"] = list(stop or ())
