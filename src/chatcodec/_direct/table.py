"""Which pairs of formats have a direct path (:mod:`chatcodec._direct`), and the switch that
turns them off so the canonical path, their oracle, converts alone (the differential tests)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossRecorder

DirectPath = Callable[[dict[str, Any], "LossRecorder", "Codec"], "dict[str, Any] | None"]
"""A pair's conversion of a dict body: the target's body, its losses in the recorder, or
None when the body is not of a shape it admits (the canonical path converts it then)."""

DIRECT_PATHS: dict[tuple[str, str], str] = {
    ("openai-chat", "anthropic"): "chatcodec._direct.openai_chat_to_anthropic",
    ("anthropic", "openai-chat"): "chatcodec._direct.anthropic_to_openai_chat",
    ("openai-responses", "openai-chat"): "chatcodec._direct.openai_responses_to_openai_chat",
    ("openai-chat", "openai-responses"): "chatcodec._direct.openai_chat_to_openai_responses",
}
"""A module per pair (its ``convert``), imported on first use."""

_loaded: dict[tuple[str, str], DirectPath] = {}
_off: list[bool] = []


def direct_path(source: str, target: str) -> DirectPath | None:
    """The direct path from ``source`` to ``target``, None when the pair has none (or they are off)."""
    found = _loaded.get((source, target))
    if found is not None:
        return None if _off else found
    module = DIRECT_PATHS.get((source, target))
    if module is None or _off:
        return None
    convert: DirectPath = importlib.import_module(module).convert
    _loaded[source, target] = convert
    return convert


@contextmanager
def canonical_only() -> Generator[None]:
    """Every conversion inside converts by the canonical path alone: the direct paths' oracle."""
    _off.append(True)
    try:
        yield
    finally:
        _off.pop()
