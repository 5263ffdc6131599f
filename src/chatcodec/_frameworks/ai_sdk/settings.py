"""Sampling, reasoning and output settings: an AI SDK history holds none (they are
``generateText``'s call settings), so each set one is a loss of kind ``setting``; so are the
request fields a stored history has no place for (:mod:`chatcodec._frameworks.unsent`, as
every framework format reports them; log probability settings are reported by the codec,
as for every format without them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks import unsent
from chatcodec._frameworks.ai_sdk.tools import DISPLAY
from chatcodec.contract import DecodeContext, EncodeContext


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """A history has no settings to read."""
    del request, canonical, bag, context


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Each setting and request field the request sets is reported: a history cannot keep it."""
    del wire, bag
    unsent.report_settings(request, context, DISPLAY)
    unsent.report_request_fields(request, context, DISPLAY)
