"""A request's tools looked up before its reader's closed front takes the body (the OpenAI
Chat and Responses readers: both key the memory by their wire's own tools): tools whose
reading that front took before (the memory of tool readings,
:mod:`~chatcodec._providers.kit.remembered_tools`, keyed by the caller's own list) are not
checked again node by node. An agent, a dataset's rows and a gateway's tenant send the same
tools with every request, and a front checks a tool's JSON Schema value by value, as much
as a long message.

A reading is remembered only of tools a front took (the reader remembers it ``whole`` only
then), the key's ``marshal`` text proves the caller's value the same, and the recalled
schemas are new copies; a body the front refuses for another field is refused as before:
the reader's full wire validation reads it or names why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from chatcodec._narrow import is_list

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import Reading
    from chatcodec._providers.kit.closed_schema import LazyValidator

Recalled = tuple[list[dict[str, Any]] | None, bytes]
"""The tools' reading found (then no text), or None and the text a new reading is
remembered under (``DecodeContext.tools_recalled``)."""


def front_copy(
    payload: object,
    reading: Reading | None,
    key: object,
    nested: str | None,
    *,
    front: LazyValidator,
) -> tuple[dict[str, Any] | None, Recalled | None]:
    """``front``'s copy of ``payload`` (None: refused) and what was recalled of its ``tools``
    read by ``key`` (``nested``: as :func:`~chatcodec._providers.kit.remembered_tools.recall`),
    None when not looked up: no conversion's ``reading``, no dict, the copy a JSON read took,
    or no list of tools. Tools found are left unchecked: ``front`` validates the body with an
    empty list in their place and the copy holds the caller's list there, as it was given.
    The same validator serves both: a second one with ``tools`` taking any value was built
    when a process first recalled tools, a one-time cost no first use counted
    (``docs/performance.md``, "Levers in the code")."""
    if reading is None or type(payload) is not dict:  # a type test inline: every request
        return front.validate(payload), None
    body = cast("dict[str, Any]", payload)
    if front.holds(body):
        return front.validate(body), None
    tools = body.get("tools")
    if not is_list(tools) or not tools:
        return front.validate(body), None
    start = len(reading.own)
    found, text = reading.recall_tools(tools, key, nested, unchecked=True)
    if found is None:
        copy = front.validate(body)
        return copy, None if text is None or copy is None else (None, text)
    copy = front.validate({**body, "tools": []})  # the same validator, the tools' place kept
    if copy is None:
        del reading.own[start:]  # the recalled reading's markers: the full validation reads anew
        return None, None
    copy["tools"] = tools
    return copy, (found, b"")
