"""The one-pass conversion path (issue 25): validate once in Rust, decode to canonical
dicts, encode from them, with no canonical model built on the way.

A provider offers a side of it in its ``one_pass.py``: ``decode_request(payload)`` (a
dict, or JSON text or bytes, to a canonical request dict) and ``encode_request(request,
losses)`` (a canonical request dict to the wire). Each side handles its format's common
shapes and returns ``None`` for anything else, so a pair of providers converts in one
pass when both sides have one, through the canonical dicts (N codecs, 2N mappings, as on
the general path). Whenever either side declines, or raises, the general path runs from
the start: output, losses and errors are the general path's, and the conformance suite
checks that the two paths agree (``tests/conformance/test_one_pass.py``).

Provider modules are imported by name on first use, as the registry imports codecs.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Protocol, cast

from chatcodec.losses import LossRecorder

_MODULES: dict[str, str] = {
    "openai-chat": "chatcodec.providers.openai_chat.one_pass",
    "anthropic": "chatcodec.providers.anthropic.one_pass",
}
"""The providers with a one-pass side, and the module that holds it."""


class _Decoder(Protocol):
    def decode_request(self, payload: object, /) -> dict[str, Any] | None: ...


class _Encoder(Protocol):
    def encode_request(self, request: dict[str, Any], losses: LossRecorder, /) -> dict[str, Any] | None: ...


_loaded: dict[str, ModuleType] = {}


def _side(provider: str, function: str) -> ModuleType | None:
    name = _MODULES.get(provider)
    if name is None:
        return None
    module = _loaded.get(provider)
    if module is None:
        module = _loaded[provider] = importlib.import_module(name)
    return module if hasattr(module, function) else None


def has_one_pass(source: str, target: str) -> bool:
    """Whether ``source`` -> ``target`` requests can convert in one pass."""
    return _side(source, "decode_request") is not None and _side(target, "encode_request") is not None


def convert_request(payload: object, source: str, target: str) -> tuple[dict[str, Any], LossRecorder] | None:
    """The ``target`` request for a ``source`` request and the losses recorded, or
    ``None`` when the general path must convert it."""
    decoder = _side(source, "decode_request")
    encoder = _side(target, "encode_request")
    if decoder is None or encoder is None:
        return None
    recorder = LossRecorder()
    try:
        canonical = cast(_Decoder, decoder).decode_request(payload)
        encoded = None if canonical is None else cast(_Encoder, encoder).encode_request(canonical, recorder)
    except Exception:  # any refusal, an error included, is the general path's to report
        return None
    return None if encoded is None else (encoded, recorder)
