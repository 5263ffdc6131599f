"""The one description of what a pydantic-ai history holds, and its validator.

Each stored message is checked as pydantic-ai's discriminated union reads it: ``kind``
``"request"`` or ``"response"``, a list of ``parts`` each told apart by ``part_kind``, and for
the parts chatcodec maps, the fields it reads (a user prompt's ``content`` a string or a list,
a call's ``tool_name``...). An entry pydantic-ai would not load is refused at its own path
(``$.messages[3].parts[1]``) as a :class:`~chatcodec.ValidationError`, before anything is read.
Everything else inside a message stays open, kept as it is. The validator is built on first
use, so importing the codec loads no pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired

from typing_extensions import TypedDict

from chatcodec.contract import as_dict, validate_with, wire_shape

if TYPE_CHECKING:
    from pydantic import TypeAdapter

_ADAPTERS: list[TypeAdapter[Any]] = []

_REQUIRED: dict[str, tuple[tuple[str, type | tuple[type, ...]], ...]] = {
    "system-prompt": (("content", str),),
    "user-prompt": (("content", (str, list)),),
    "tool-return": (("tool_name", str),),
    "retry-prompt": (("content", (str, list)),),
    "text": (("content", str),),
    "thinking": (("content", str),),
    "tool-call": (("tool_name", str),),
}
"""The fields each mapped part must hold, with their types."""


def _part(part: dict[str, Any]) -> dict[str, Any]:
    kind = part.get("part_kind")
    if not isinstance(kind, str):
        raise ValueError("a part without a part_kind: pydantic-ai tells its parts apart by it")
    for key, kinds in _REQUIRED.get(kind, ()):
        if not isinstance(part.get(key), kinds):
            raise ValueError(f"a {kind} part's {key} must be {_names(kinds)}")
    return part


def _names(kinds: type | tuple[type, ...]) -> str:
    words = {str: "a string", list: "a list"}
    return " or ".join(words.get(kind, kind.__name__) for kind in (kinds if isinstance(kinds, tuple) else (kinds,)))


def validated_history(payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked as ``{"messages": [...]}`` whose every message pydantic-ai can load."""
    if not _ADAPTERS:
        from typing import Annotated, Literal

        from pydantic import AfterValidator, Field, TypeAdapter

        part = Annotated[dict[str, Any], AfterValidator(_part)]
        # the functional form: its types are values, not text a local scope would have to resolve
        request = wire_shape(TypedDict("Request", {"kind": Literal["request"], "parts": list[part]}))
        response = wire_shape(TypedDict("Response", {"kind": Literal["response"], "parts": list[part]}))
        message = Annotated[request | response, Field(discriminator="kind")]
        checked = wire_shape(TypedDict("History", {"messages": list[message], "model": NotRequired[str]}))
        _ADAPTERS.append(TypeAdapter(checked))
    checked = as_dict(validate_with(_ADAPTERS[0], payload, title))
    assert checked is not None
    return checked
