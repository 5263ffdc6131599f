"""An assistant turn as agents send it, read on a short path: ``reasoning_content`` text,
``content`` text or ``null``, plain function ``tool_calls`` and an SDK dump's ``null``
fields, and nothing else. Most turns of an agent's history are this shape, so reading them
without the general reading's field-by-field walk (:func:`.assistant.decode_assistant`,
which gives every such turn the same canonical message) is most of a long request's
reading; a turn of any other shape is None here and read the general way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from chatcodec._providers.openai_chat.markers import EMPTY, PROVIDER
from chatcodec._providers.openai_chat.null_spelling import SPELLED_NULLS
from chatcodec._providers.openai_chat.plain_parts import plain_call, reasoning_content_thinking
from chatcodec.codec_kit import NULLS_MARKER

if TYPE_CHECKING:
    from chatcodec.contract import Reading

_PLAIN_KEYS = frozenset({"role", "content", "reasoning_content", "tool_calls"})
_PLAIN_OR_NULL_KEYS = (_PLAIN_KEYS | SPELLED_NULLS) - {"reasoning"}
"""A plain turn's keys and the dumps' nulls the closed front takes as ``null`` only: it takes
OpenRouter's ``reasoning`` as text too (a copy of ``reasoning_content`` or its own), so a turn
holding it, ``null`` or not, is read generally."""
_UNLISTED = ("(not listed)",)
"""What :func:`read_plain_turn` holds for a turn's nulls that a conversion's record lists
only if this format's writer follows (:func:`_listed`)."""


def read_plain_turn(
    message: Mapping[str, Any], closed: bool = False, noted: Reading | None = None, *, response: bool = False
) -> dict[str, Any] | None:
    """The canonical message of a plain agent turn, or None: ``reasoning_content`` text,
    ``content`` text or ``null`` (or none), plain function ``tool_calls``, the ``null``
    fields of an SDK dump (:mod:`.null_spelling`), and nothing else (no other ``null``
    where a key may be left out): what the general reading below gives it. ``closed``:
    the closed front's copy, whose values have the plain types and every call is plain (an
    ``id``, ``type: function`` and a function of exactly a ``name`` and argument text, or
    those and the SDK's ``index``, which only the general reading keeps), so none is looked
    at again (``response``: a response's message, whose empty text beside calls is a text part, as
    its stream accumulates it). The nulls are marked in the bag, for this format's writer: in
    ``noted``'s :attr:`~chatcodec.contract.Reading.own` when a conversion's record is given
    (another writer passes them over)."""
    if closed and (message.get("tool_calls", 0) is None or message.get("annotations") is not None):
        return None  # the SDK dump's "tool_calls": null or "annotations": [] (the front takes them): read generally
    nulls: Sequence[str] | None = None
    if not message.keys() <= _PLAIN_KEYS:
        nulls = _spelled_nulls(message, closed, listed=noted is None)
        if nulls is None:
            return None
    content = message.get("content")
    thought = message.get("reasoning_content")
    calls: Any = message.get("tool_calls")
    if (content is not None and type(content) is not str) or ("tool_calls" in message and not calls):
        return None  # text parts, "tool_calls" null or [] (a client's, the front takes them too): read generally
    if not closed and (  # the closed front took each as these: text, a list of calls
        ("reasoning_content" in message and type(thought) is not str)
        or ("tool_calls" in message and calls.__class__ is not list)
    ):  # per turn: type tests inline, not a TypeGuard's frame
        return None
    if nulls and thought is None and not calls and content is not None:
        return None  # a lone content string: a string content, by the general reading
    body: list[dict[str, Any]] = []
    if thought is not None:
        body.append(reasoning_content_thinking(thought))
    spelled = "absent" if "content" not in message else EMPTY if content == "" and calls and not response else None
    if content is not None and spelled is None:  # (an empty text beside calls says nothing: spelling)
        body.append({"type": "text", "text": content})
    if calls:
        parts = _plain_calls(calls, closed)
        if parts is None:
            return None
        body += parts
    canonical: dict[str, Any] = {"role": "assistant", "content": body}
    if nulls and noted is not None:  # listed only if this format's writer follows (another passes them over)
        noted.own.append((canonical, PROVIDER, _listed, (message, spelled)))
        nulls = None
    return _marked(canonical, nulls, spelled)


def _marked(canonical: dict[str, Any], nulls: Sequence[str] | None, spelled: str | None) -> dict[str, Any]:
    """``canonical`` with its turn's spelling in the bag: the SDK dump's ``nulls`` and a ``content``
    left out or empty beside calls (``spelled``: ``"absent"``, :data:`EMPTY`)."""
    if spelled is not None:
        canonical["provider_metadata"] = {
            PROVIDER: {"_content": spelled, NULLS_MARKER: nulls} if nulls else {"_content": spelled}
        }
    elif nulls:
        canonical["provider_metadata"] = {PROVIDER: {NULLS_MARKER: nulls}}
    return canonical


def name_null(_: object) -> dict[str, Any]:
    """The bag of a message whose only field beyond its own is an SDK dump's ``"name": null``."""
    return {NULLS_MARKER: ["name"]}


def _listed(turn: tuple[Mapping[str, Any], str | None]) -> dict[str, Any]:
    """A plain turn's bag (:func:`read_plain_turn`) for a turn and its ``content``'s spelling (:func:`_marked`)."""
    nulls = [key for key in turn[0] if key not in _PLAIN_KEYS]
    return {"_content": turn[1], NULLS_MARKER: nulls} if turn[1] else {NULLS_MARKER: nulls}


def _plain_calls(calls: list[Any], closed: bool) -> list[dict[str, Any]] | None:
    """The ``tool_use`` parts of a turn's calls when each is plain, else None (``closed``:
    the closed front's calls, each plain, read without a look)."""
    if closed:  # a loop: a comprehension's own frame cost more than its few calls
        parts: list[dict[str, Any]] = []
        for call in calls:
            function = call["function"]
            if len(call) != 3 or len(function) != 2:  # the SDK's accumulated index beside them, or its
                return None  # helpers' "parsed_arguments": null: the general reading keeps them
            name, arguments = function["name"], function["arguments"]
            parts.append({"type": "tool_use", "id": call["id"], "name": name, "arguments": arguments})
        return parts
    read = [plain_call(call) for call in calls]
    return None if None in read else cast("list[dict[str, Any]]", read)


def _spelled_nulls(message: Mapping[str, Any], closed: bool = False, *, listed: bool = True) -> Sequence[str] | None:
    """The keys beyond a plain turn's, in order, when each is an SDK dump's ``null``
    (:mod:`.null_spelling`); None when any is not. ``closed``: the closed front's copy,
    which takes each of these keys as ``null`` only (``common_shapes.SDK_NULLS``, ``name``);
    without ``listed`` (listed later, if at all), its keys are not listed: :data:`_UNLISTED`."""
    if not message.keys() <= _PLAIN_OR_NULL_KEYS:
        return None
    if closed and not listed:
        return _UNLISTED
    nulls: list[str] = []  # a loop, as for the calls above
    for key in message:
        if key not in _PLAIN_KEYS:
            nulls.append(key)
    if closed:
        return nulls
    for key in nulls:
        if message[key] is not None:
            return None
    return nulls
