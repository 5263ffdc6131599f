"""A request's history as a target format can hold it, over canonical data: the turn-level
rules several writers share, each format saying which it needs by its
:class:`~chatcodec._providers.contract.capabilities.Capabilities`.

- a tool call kept whole from another format (an opaque part holding a call id) cannot be
  sent, so it goes with its results (a result without its call is a 400 everywhere:
  Anthropic "unexpected `tool_use_id` found in `tool_result` blocks", Responses "No tool
  call found for function call output");
- ``freeform_calls=False``: a freeform call (``tool_use`` of ``kind: custom``) goes too,
  with its results: the format has no call of free text, and sending it as a function
  call would give the model a call of a tool it was never offered;
- ``results_follow_calls=True``: a message between a call and its results moves after
  the results (OpenAI Chat, Anthropic, Bedrock and Gemini require the results right after
  the call; Responses does not);
- ``developer_role=False``: a ``developer`` message is sent as ``system``, reported;
- ``empty_system=False``: an empty system (or developer) message, ``content: []`` (Bedrock's
  ``system: []``), is not sent. Sent as a message it is refused (OpenAI: "Invalid
  'messages[0].content': empty array. Expected an array with minimum length 1") or is an
  empty turn (Ollama ``content: ""``) or a ``Content`` of no parts Gemini refuses; a
  top-level prompt of Anthropic or Bedrock says it as ``system: []``. It is the one rewrite not
  reported: an empty prompt is no prompt, the target's default, and a value equal to the
  target's default is no loss (:mod:`chatcodec._losses`; ``system=[]`` is a common boto3
  default, which would warn on every conversion).

Each rewrite but the last is reported as a loss. Loss paths name the request's places
after a move or a drop too: the writer numbers the messages it is given, and the loss
recorder renumbers them (:class:`~chatcodec._losses.Renumbering`). Messages are canonical
message dicts, never changed in place: a rewrite gives a new list (and new messages where
their content changes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import pairwise, repeat
from operator import itemgetter, methodcaller
from typing import TYPE_CHECKING, Any, cast

from chatcodec._losses import LossRecorder, Renumbering
from chatcodec._narrow import DICT_GET
from chatcodec._providers.contract.capabilities import Capabilities

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import Reading

MOVED = "message between a tool call and its result"
"""What a loss names when a message is moved after the results of a call."""

_ID_KEYS = ("call_id", "id")
"""Where a provider's call block keeps the id its result names (OpenAI Chat ``id``,
Responses items ``call_id``), ``call_id`` first: a Responses item's ``id`` is the item's own
(``lsh_...``, ``fc_...``), which no result names, so a ``local_shell_call`` read by its ``id``
left its ``function_call_output`` sent as an orphan result."""

_ARGUMENT_KEYS = ("input", "args", "arguments")
"""Where a provider's call block keeps its arguments (Anthropic ``input``, LangChain and
Gemini ``args``, OpenAI ``arguments``: an object, or its JSON text)."""

Message = Mapping[str, Any]


def history_for(
    messages: list[Message],
    losses: LossRecorder,
    provider: str,
    capabilities: Capabilities,
    *,
    reading: Reading | None = None,
) -> list[Message]:
    """``messages`` as ``provider`` takes them (the list itself when nothing changes). When
    they change, ``losses`` numbers the messages of the losses found from here on (these
    rules' and the writer's) as the request does (:class:`~chatcodec._losses.Renumbering`);
    the codec clears it before the target's rules. ``reading``: the encode context's record of
    the reading; when its reader said, as it read this list, that it holds nothing these
    rules act on (:meth:`~chatcodec._providers.contract.context.Reading.plain`), it is not
    surveyed again. Every writer passes its context's."""
    if not messages:  # a direct path's top level (``chatcodec._direct``): its turns are written in its own pass
        losses.renumber(None)
        return messages
    name = capabilities.display_name
    plain = reading is not None and reading.plain(messages)
    empty, unsent, misordered = (False, False, False) if plain else _survey(messages, capabilities)
    if not (empty or unsent or misordered):  # most histories: no rule below changes them
        losses.renumber(None)
        if not capabilities.developer_role:
            report_developer_roles(messages, losses, name)
        return messages
    freeform = capabilities.freeform_calls
    request = messages
    copies: dict[int, tuple[Message, tuple[int, ...]]] = {}
    if empty:  # first: the rest never sees them
        messages = [message for message in messages if not empty_instruction(message)]
    if unsent:  # (the empty instructions taken out held no assistant part)
        _renumber(losses, request, messages, copies)
        messages = without_unsent_calls(messages, losses, provider, name, freeform=freeform, copies=copies)
    if capabilities.results_follow_calls:
        _renumber(losses, request, messages, copies)
        messages = results_after_calls(messages, losses, name)
    _renumber(losses, request, messages, copies)
    if not capabilities.developer_role:
        report_developer_roles(messages, losses, name)
    return messages


def _survey(messages: Sequence[Message], capabilities: Capabilities) -> tuple[bool, bool, bool]:
    """What :func:`history_for`'s rules act on, in one pass: a message with ``content: []``
    (for a target without empty system messages), an assistant part the target cannot send
    (an opaque part, or a custom call where the target has no freeform calls: the kinds
    :func:`without_unsent_calls` may drop), and an assistant with a tool call followed by a
    role other than ``tool`` or ``assistant`` (for a target whose results follow their calls:
    :func:`results_after_calls`, which moves nothing else: an assistant of text followed by
    the user, every exchange of a chat, needs no second walk). A pass per rule, each a
    ``map`` look per message, cost more."""
    check_empty = not capabilities.empty_system
    custom = not capabilities.freeform_calls
    ordered = capabilities.results_follow_calls
    empty = unsent = misordered = False
    previous: Message | None = None
    for message in messages:
        role = message["role"]
        content: Any = message.get("content")
        if role == "assistant":
            if not unsent and content.__class__ is list:
                for part in content:
                    if part["type"] == "opaque" or (custom and part.get("kind") == "custom"):
                        unsent = True
                        break
        elif (
            role != "tool"
            and ordered
            and previous is not None
            and previous["role"] == "assistant"
            and not misordered
            and _holds_a_call(previous)  # looked at only where a chat's user follows an assistant
        ):
            misordered = True
        if check_empty and content == []:
            empty = True
        previous = message
    return empty, unsent, misordered


def _holds_a_call(message: Message) -> bool:
    """Whether an assistant message holds a tool call (whose results must come next)."""
    content: Any = message.get("content")
    return content.__class__ is list and "tool_use" in map(_TYPE, content)


def _renumber(
    losses: LossRecorder,
    request: Sequence[Message],
    messages: Sequence[Message],
    copies: Mapping[int, tuple[Message, tuple[int, ...]]],
) -> None:
    """Have ``losses`` number ``messages`` (rewritten from ``request``) as ``request`` does.
    A message is found by identity: the rules never change one in place, and a message
    some of whose parts were dropped is a copy :func:`without_unsent_calls` lists in
    ``copies`` with its original and the positions it kept."""
    if messages is request:
        losses.renumber(None)
        return
    index_of = {id(message): index for index, message in enumerate(request)}
    numbers: list[int] = []
    parts: dict[int, tuple[int, ...]] = {}
    for sent, message in enumerate(messages):
        copied = copies.get(id(message))
        original = message
        if copied is not None:
            original, parts[sent] = copied
        numbers.append(index_of.get(id(original), sent))
    losses.renumber(Renumbering(tuple(numbers), parts))


def holds_empty_content(messages: Sequence[Message]) -> bool:
    """Whether a message has ``content: []`` (what an empty system message has): looked
    for in C, as most histories hold none."""
    try:
        return [] in map(DICT_GET, messages, repeat("content"))  # a method descriptor: no lookup by name
    except TypeError:  # a message that is no dict
        return [] in map(_CONTENT, messages)


_INSTRUCTION_ROLES = frozenset({"system", "developer"})


def empty_instruction(message: Message) -> bool:
    """A system or developer message with no parts and nothing else said (no name, cache
    marker or bag, each of which the writer reports or carries): an empty prompt."""
    return (
        message["role"] in _INSTRUCTION_ROLES
        and message.get("content") == []
        and message.get("name") is None  # a name, even "", is said: the writer carries or reports it
        and message.get("cache_control") is None
        and not message.get("provider_metadata")  # an empty bag carries nothing
    )


_ROLE = itemgetter("role")
_TYPE = itemgetter("type")
_CONTENT = methodcaller("get", "content")
_AFTER_CALLS = ("tool", "assistant")
"""The roles that may follow an assistant's calls where its results must come next."""


def report_developer_roles(messages: Sequence[Message], losses: LossRecorder, target: str) -> None:
    """A loss for each ``developer`` message, which ``target`` sends as system."""
    if "developer" not in map(_ROLE, messages):  # most histories hold none: looked for in C
        return
    for index, message in enumerate(messages):
        if message["role"] == "developer":
            losses.add(("messages", index, "role"), "developer role", f"{target} has no developer role; sent as system")


# --- results right after their call ------------------------------------------------------


def _parts(message: Message) -> list[Mapping[str, Any]]:
    content: object = message.get("content")
    return cast("list[Mapping[str, Any]]", content) if isinstance(content, list) else []


def _call_ids(message: Message) -> set[str]:
    if message["role"] != "assistant":
        return set()
    return {part["id"] for part in _parts(message) if part["type"] == "tool_use"}


def _answers(messages: Sequence[Message], position: int, calls: set[str]) -> bool:
    if position >= len(messages) or messages[position]["role"] != "tool":
        return False
    return any(result.get("tool_use_id") in calls for result in _parts(messages[position]))


def results_after_calls(messages: list[Message], losses: LossRecorder, target: str) -> list[Message]:
    """``messages`` with every message standing between an assistant's tool calls and the
    tool message answering them moved after that tool message (and the tool messages
    right after it); the list itself when nothing moves."""
    if not any(first == "assistant" and then not in _AFTER_CALLS for first, then in {*pairwise(map(_ROLE, messages))}):
        return messages  # no assistant is followed by another role (most histories): the pairs are made in C
    moved: list[Message] | None = None
    index = 0
    while index < len(messages):
        between = index + 1
        if messages[index]["role"] != "assistant":  # only an assistant's calls have results to wait for
            index = between
            continue
        while between < len(messages) and messages[between]["role"] not in _AFTER_CALLS:
            between += 1
        if between == index + 1:  # nothing stands after it (the calls are not looked at: most messages)
            index += 1
            continue
        calls = _call_ids(messages[index])
        if not calls or not _answers(messages, between, calls):
            index += 1
            continue
        end = between
        while end < len(messages) and messages[end]["role"] == "tool":
            end += 1
        why = f"{target} needs the results right after the call; moved after them"
        for position in range(index + 1, between):
            losses.add(("messages", position), MOVED, why)
        moved = list(messages) if moved is None else moved
        moved[index + 1 : end] = [*messages[between:end], *messages[index + 1 : between]]
        index = end
    return messages if moved is None else moved


# --- calls the target cannot send, with their results ------------------------------------


def _call_id(part: Mapping[str, Any]) -> str | None:
    data: Mapping[str, Any] = part.get("data") or {}
    return next((data[key] for key in _ID_KEYS if isinstance(data.get(key), str)), None)


CUSTOM_CALL = "custom tool call"
"""How a loss names a freeform call the target cannot send."""


Unsent = dict[str, list[tuple[str, tuple[int, int]]]]
"""Calls the target cannot send, by id: (what each is, its place). A list, as two calls may
share an id (``""`` from a server that gives none): each is dropped, not only the last."""


Places = set[tuple[int, int]]
"""Parts by (message index, part index)."""


def _foreign_calls(messages: Sequence[Message], target: str, *, freeform: bool) -> tuple[Unsent, Places, Places]:
    """Calls the target cannot send (:data:`Unsent`): opaque parts of another
    provider holding a call id and (``freeform`` false) custom calls; and the places of
    the opaque ones that repeat a ``tool_use`` of their own message (LangChain's
    ``AIMessage`` holds an Anthropic ``tool_use`` block in ``content`` and the same call in
    ``tool_calls``): that call is sent, once, as the ``tool_use``, and each of those whose
    arguments differ from the call's is in the third set (its arguments are not sent)."""
    calls: Unsent = {}
    repeated: Places = set()
    differing: Places = set()
    for index, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        parts = _parts(message)
        sent: dict[str, str] | None = None
        for position, part in enumerate(parts):
            if not freeform and part.get("kind") == "custom":
                calls.setdefault(part["id"], []).append((CUSTOM_CALL, (index, position)))
                continue
            if part["type"] != "opaque" or part.get("provider") == target:
                continue
            call_id = _call_id(part)
            if call_id is None:
                continue
            if sent is None:
                sent = {part["id"]: part.get("arguments") or "" for part in parts if part["type"] == "tool_use"}
            if call_id in sent:
                repeated.add((index, position))
                if not _same_arguments(part.get("data") or {}, sent[call_id]):
                    differing.add((index, position))
            else:
                calls.setdefault(call_id, []).append((f"{part.get('provider')} tool call", (index, position)))
    return calls, repeated, differing


def _same_arguments(data: Mapping[str, Any], arguments: str) -> bool:
    """Whether a call block's arguments (an object or its JSON text; none given says nothing
    else) are the canonical call's ``arguments`` text, as JSON values."""
    key = next((key for key in _ARGUMENT_KEYS if key in data), None)
    if key is None:
        return True
    return _json_value(data[key]) == _json_value(arguments or "{}")


def _json_value(value: object) -> object:
    """A JSON text's value (the text itself when it is no JSON); any other value as it is."""
    if not isinstance(value, str):
        return value
    try:
        parsed: object = json.loads(value)
    except ValueError:
        return value
    return parsed


def without_unsent_calls(
    messages: list[Message],
    losses: LossRecorder,
    target: str,
    name: str,
    *,
    freeform: bool = True,
    copies: dict[int, tuple[Message, tuple[int, ...]]] | None = None,
) -> list[Message]:
    """``messages`` without another provider's opaque calls that tool results answer, and
    without those results, one loss per call at the call's path naming its results; a
    message left empty goes too. An opaque call repeating a ``tool_use`` of its message
    goes without a loss (the call is sent) when its arguments are the call's, else with one.
    Unless ``freeform``, custom calls go too, answered or not. The list itself when there
    are none. ``copies`` receives, for each message some of whose parts go, its copy's
    ``id`` -> (the message, the positions kept)."""
    calls, dropped, differing = _foreign_calls(messages, target, freeform=freeform)
    for index, position in sorted(differing):
        call: Mapping[str, Any] = _parts(messages[index])[position]
        losses.add(
            ("messages", index, "content", position),
            f"{call.get('provider')} tool call {_call_id(call)!r} arguments",
            "repeats a tool call of its message with other arguments: the tool call is sent, these are not",
        )
    if not freeform:
        dropped |= _unanswered_custom_calls(messages, calls, losses, name)
    if not calls:
        return _without(messages, dropped, copies) if dropped else messages
    results: dict[str, list[tuple[int, int]]] = {}
    for index, message in enumerate(messages):
        if message["role"] != "tool":
            continue
        for position, result in enumerate(_parts(message)):
            result_id: str = result.get("tool_use_id", "")
            unsent = calls.get(result_id)
            if unsent and unsent[0][1][0] < index:  # after the first such call
                results.setdefault(result_id, []).append((index, position))
    if not results:
        return _without(messages, dropped, copies) if dropped else messages
    for call_id, unsent in calls.items():
        for what, at in unsent:
            answered = [place for place in results.get(call_id, ()) if place[0] > at[0]]
            if not answered:
                continue
            listed = ", ".join(
                losses.request_path(("messages", index, "content", position)) for index, position in answered
            )
            losses.add(
                ("messages", at[0], "content", at[1]),
                f"{what} {call_id!r} and its tool result ({listed})",
                f"{name} cannot carry this call, and refuses a tool result whose call is not sent; both dropped",
            )
            dropped |= {at, *answered}
    return _without(messages, dropped, copies)


def _unanswered_custom_calls(
    messages: Sequence[Message],
    calls: Unsent,
    losses: LossRecorder,
    name: str,
) -> set[tuple[int, int]]:
    """The places of the custom calls no later tool result answers, each reported (an
    answered one is reported with its results); they leave ``calls``."""
    last_answer: dict[str, int] = {}  # call id -> the last tool message answering it
    for index, message in enumerate(messages):
        if message["role"] == "tool":
            last_answer.update((result.get("tool_use_id", ""), index) for result in _parts(message))
    places: set[tuple[int, int]] = set()
    for call_id, unsent in list(calls.items()):
        kept: list[tuple[str, tuple[int, int]]] = []
        for what, at in unsent:
            if what == CUSTOM_CALL and last_answer.get(call_id, -1) < at[0]:
                losses.add(
                    ("messages", at[0], "content", at[1]),
                    f"{what} {call_id!r}",
                    f"{name} has no freeform tool calls; dropped",
                )
                places.add(at)
            else:
                kept.append((what, at))
        if kept:
            calls[call_id] = kept
        else:
            del calls[call_id]
    return places


def _without(
    messages: list[Message],
    dropped: set[tuple[int, int]],
    copies: dict[int, tuple[Message, tuple[int, ...]]] | None,
) -> list[Message]:
    kept: list[Message] = []
    for index, message in enumerate(messages):
        parts = _parts(message)
        if not any((index, position) in dropped for position in range(len(parts))):
            kept.append(message)
            continue
        positions = tuple(position for position in range(len(parts)) if (index, position) not in dropped)
        if positions:
            copy = {**message, "content": [parts[position] for position in positions]}
            if copies is not None:
                copies[id(copy)] = (message, positions)
            kept.append(copy)
    return kept
