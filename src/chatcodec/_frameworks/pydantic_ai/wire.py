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

from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from chatcodec.codec_kit import as_dict, constrained, tagged, union_tag, validate_with, wire_shape

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, TypeAdapter
    from pydantic_core import CoreSchema

_ADAPTERS: list[TypeAdapter[Any]] = []

_REQUIRED: dict[str, tuple[tuple[str, tuple[type, ...]], ...]] = {
    "system-prompt": (("content", (str,)),),
    "user-prompt": (("content", (str, list)),),
    "tool-return": (("tool_name", (str,)),),
    "retry-prompt": (("content", (str, list)),),
    "text": (("content", (str,)),),
    "thinking": (("content", (str,)),),
    "tool-call": (("tool_name", (str,)),),
}
"""The fields each mapped part must hold, with their types."""

_OPTIONAL: dict[str, tuple[tuple[str, tuple[type, ...]], ...]] = {
    "tool-return": (("tool_call_id", (str,)),),
    "retry-prompt": (("tool_call_id", (str,)), ("tool_name", (str,))),
    "text": (("id", (str,)),),
    "thinking": (("id", (str,)), ("signature", (str,)), ("provider_name", (str,))),
    "tool-call": (("tool_call_id", (str,)), ("args", (str, dict))),
    "builtin-tool-call": (("tool_call_id", (str,)), ("tool_name", (str,))),
    "builtin-tool-return": (("tool_call_id", (str,)), ("tool_name", (str,))),
}
"""The fields a mapped part may hold (absent or ``None`` when not), with their types
(pydantic-ai-slim 2.68's ``ToolCallPart.tool_call_id: str``, ``args: str | dict | None``...):
an id of another type would reach canonical data, whose model refuses it elsewhere."""

_WORDS: dict[type, str] = {str: "a string", list: "a list", dict: "an object"}


def _part(part: dict[str, Any]) -> dict[str, Any]:
    kind = part.get("part_kind")
    if not isinstance(kind, str):
        raise ValueError("a part without a part_kind: pydantic-ai tells its parts apart by it")
    for key, kinds in _REQUIRED.get(kind, ()):
        if not isinstance(part.get(key), kinds):
            raise ValueError(f"a {kind} part's {key} must be " + " or ".join(_WORDS[each] for each in kinds))
    for key, kinds in _OPTIONAL.get(kind, ()):
        if part.get(key) is not None and not isinstance(part[key], kinds):
            raise ValueError(f"a {kind} part's {key} must be " + " or ".join(_WORDS[each] for each in kinds))
    return part


class _PartCheck:
    """The check of one part, as pydantic metadata built when the schema is (no pydantic at import)."""

    def __get_pydantic_core_schema__(self, source: type[Any], handler: GetCoreSchemaHandler) -> CoreSchema:
        from pydantic_core import core_schema

        return core_schema.no_info_after_validator_function(_part, handler(source))


_Part = Annotated[dict[str, Any], _PartCheck()]


Count = Annotated[int, constrained(ge=0)]


@wire_shape
class _Usage(TypedDict):
    """``RequestUsage``'s counts the reader reads: whole numbers, 0 or more."""

    input_tokens: NotRequired[Count | None]
    output_tokens: NotRequired[Count | None]
    cache_read_tokens: NotRequired[Count | None]
    cache_write_tokens: NotRequired[Count | None]
    output_reasoning_tokens: NotRequired[Count | None]


@wire_shape
class _Request(TypedDict):
    kind: Literal["request"]
    parts: list[_Part]
    instructions: NotRequired[str | None]


@wire_shape
class _Response(TypedDict):
    kind: Literal["response"]
    parts: list[_Part]
    usage: NotRequired[_Usage | None]
    model_name: NotRequired[str | None]
    provider_name: NotRequired[str | None]
    provider_response_id: NotRequired[str | None]
    finish_reason: NotRequired[str | None]


_KIND = tagged(("request", "response"), "kind")
"""A message goes to its shape by ``kind``, as ``ModelMessage``'s discriminator sends it."""


@wire_shape
class _History(TypedDict):
    messages: list[
        Annotated[Annotated[_Request, union_tag("request")] | Annotated[_Response, union_tag("response")], _KIND]
    ]
    model: NotRequired[str]


def validated_history(payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked as ``{"messages": [...]}`` whose every message pydantic-ai can load."""
    return _validated(0, payload, title)


def validated_response(payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked as one ``ModelResponse`` pydantic-ai can load."""
    return _validated(1, payload, title)


def _validated(which: int, payload: object, title: str) -> dict[str, Any]:
    if not _ADAPTERS:
        from pydantic import TypeAdapter

        _ADAPTERS.extend((TypeAdapter(_History), TypeAdapter(_Response)))
    checked = as_dict(validate_with(_ADAPTERS[which], payload, title))
    assert checked is not None
    return checked
