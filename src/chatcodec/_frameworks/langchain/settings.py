"""Sampling, reasoning and output-format settings: a stored LangChain history holds none
(they are the chat model's parameters), so each set one is a loss of kind ``setting``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks import unsent
from chatcodec._frameworks.langchain.tools import DISPLAY
from chatcodec.contract import DecodeContext, EncodeContext


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """A history has no settings to read."""
    del request, canonical, bag, context


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Each setting the request sets is reported: a history cannot keep it."""
    del wire, bag
    unsent.report_settings(request, context, DISPLAY)
