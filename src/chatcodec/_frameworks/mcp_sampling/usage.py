"""Token counts: a ``CreateMessageResult`` has none. The response writer reports a usage it
cannot place; these two role functions exist because the codec contract names the role."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.contract import EncodeContext, Steps


def decode_usage(wire: Mapping[str, Any]) -> dict[str, Any]:
    return dict(wire)


def encode_usage(usage: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    del context, at
    return dict(usage)
