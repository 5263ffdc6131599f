"""Custom (freeform) tool definitions between OpenAI's two wires.

A custom tool takes free text, optionally held to a grammar, instead of a JSON object.
Chat Completions nests it, ``{"type": "custom", "custom": {"name", "description", "format"}}``
with a grammar as ``{"type": "grammar", "grammar": {"definition", "syntax"}}``
(openai 3.54 ``ChatCompletionCustomToolParam``); Responses lays it flat, ``{"type": "custom",
"name", "description", "format"}`` with a grammar as ``{"type": "grammar", "definition",
"syntax"}`` (``CustomToolParam``, ``CustomToolInputFormat``). Each reader keeps its own
custom tools whole among the provider tools; the other wire's writer respells them here, so
the calls to a custom tool (which both wires carry) never name a tool no longer defined. A
field one wire has and the other lacks (Responses' ``defer_loading``, ``allowed_callers``)
is reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec.codec_kit import as_dict

if TYPE_CHECKING:
    from chatcodec.contract import LossRecorder, Steps

_FIELDS = ("name", "description", "format")
"""What a custom tool is on both wires."""


def chat_tool_from_responses(tool: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    """Chat's spelling of a Responses custom tool (None: ``tool`` is no custom tool)."""
    if tool.get("type") != "custom" or not isinstance(tool.get("name"), str):
        return None
    custom = {key: tool[key] for key in _FIELDS if key in tool}
    fmt = as_dict(tool.get("format"))
    if fmt is not None and fmt.get("type") == "grammar":
        grammar = {key: fmt[key] for key in ("definition", "syntax") if key in fmt}
        custom["format"] = {"type": "grammar", "grammar": grammar}
    _report_rest(tool, ("type", *_FIELDS), "Chat Completions", losses, at)
    return {"type": "custom", "custom": custom}


def responses_tool_from_chat(tool: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    """Responses' spelling of a Chat custom tool (None: ``tool`` is no custom tool)."""
    custom = as_dict(tool.get("custom"))
    if tool.get("type") != "custom" or custom is None or not isinstance(custom.get("name"), str):
        return None
    flat: dict[str, Any] = {"type": "custom", **{key: custom[key] for key in _FIELDS if key in custom}}
    fmt = as_dict(custom.get("format"))
    grammar = as_dict(fmt.get("grammar")) if fmt is not None and fmt.get("type") == "grammar" else None
    if grammar is not None:
        flat["format"] = {
            "type": "grammar",
            **{key: grammar[key] for key in ("definition", "syntax") if key in grammar},
        }
    _report_rest(tool, ("type", "custom"), "Responses", losses, at)
    _report_rest(custom, _FIELDS, "Responses", losses, (*at, "custom"))
    return flat


def _report_rest(fields: Mapping[str, Any], known: tuple[str, ...], wire: str, losses: LossRecorder, at: Steps) -> None:
    for key in fields:
        if key not in known:
            losses.add((*at, key), f"custom tool {key}", f"{wire} custom tools have no such field", "setting")
