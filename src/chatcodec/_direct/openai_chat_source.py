"""The OpenAI Chat side of its direct paths (:mod:`chatcodec._direct`): which bodies they
take, proved as the closed front would check them, the conversion around a pair's one pass
(the top level read and written by the canonical reader and writer themselves, the losses
traced to the input from where the admission found each message and its own fields, no
canonical message read: this format's ``AdmittedOrigins``).

Every pair from OpenAI Chat admits the same shapes (what its reader reads as plain: a
leading system prompt of text or text parts, user text, images and documents (OpenAI's ``file``
part), assistant text, reasoning and function calls (their ``type`` given or left out), a final
assistant turn of text (a prefill), litellm's ``thinking_blocks`` (signed, redacted or of a text alone) with
the ``reasoning_content`` that copies them, tool results of text or text parts, images (a
screenshot tool's) and documents, and the tool's ``name`` litellm's clients send, an SDK dump's
``null`` fields (litellm's ``provider_specific_fields`` too), the ``{"type": "ephemeral"}`` cache
marker gateways document on a part, a user message or a tool message), so the walk that decides
it has one home here; each pair's module holds only its own pass. The usual request's top level
is read here too (its tools, ranges and a client's settings: the folder's ``top_level_reading``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._conversion import read_request_data, write_request_data
from chatcodec._direct.openai_chat_assistant_turns import PLAIN, dialect_turn, openrouter_turn, plain_turn
from chatcodec._providers.contract.target_rules import outside_own_ranges
from chatcodec._providers.kit.provider_kit import forgotten_with_kits
from chatcodec._providers.kit.remembered_tools import NO_REPORT, remember_written_whole, written_whole
from chatcodec._providers.openai_chat.admitted_parts import (
    dialect_user,
    ephemeral,
    text_parts,
    user_content,
)
from chatcodec._providers.openai_chat.assistant import decode_assistant
from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST
from chatcodec._providers.openai_chat.markers import KIT as SOURCE_KIT
from chatcodec._providers.openai_chat.messages import decode_plain, decode_tool_result, result_fields
from chatcodec._providers.openai_chat.origins import AdmittedOrigins
from chatcodec._providers.openai_chat.reasoning_object import read_reasoning_object
from chatcodec._providers.openai_chat.rules import RULES as SOURCE_RULES
from chatcodec._providers.openai_chat.settings import EFFORTS
from chatcodec._providers.openai_chat.tools import FRONT_KEY
from chatcodec._providers.openai_chat.top_level_reading import (
    SETTINGS,
    VARYING,
    front_tools,
    other_value,
    read_settings,
    settings_shape,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossKind, LossRecorder
    from chatcodec._providers.contract.context import Reading
    from chatcodec._providers.kit.remembered_tools import Marks, Report
    from chatcodec.contract import Steps

__all__ = [
    "EFFORTS",
    "SETTINGS",
    "VARYING",
    "front_tools",
    "other_value",
    "read_reasoning_object",
    "read_settings",
    "settings_shape",
]  # to the usual request's

SOURCE = "openai-chat"


INSTRUCTION_ROLES = ("system", "developer")
"""The roles of a leading system prompt (OpenAI's newer models take it as ``developer``)."""


class UnadmittedError(Exception):
    """A rule answered outside the shapes this path writes: the canonical path converts the body."""


Admission = tuple[list[dict[str, Any]], list[int], set[int]]
"""An admitted body's messages as given, where each canonical message starts in them, and the
positions of those the walk found beyond the shapes a pair's pass writes itself (:func:`admitted`)."""


def admit(payload: dict[str, Any]) -> Admission | None:
    """``payload``'s messages as given, where each canonical message starts in them and which
    of them are read generally (:func:`admitted`), or None for a body of any other shape. The
    walk proves every rule the closed front holds these shapes to, so the messages are what
    the front's copy would hold (the same values; its keys in the wire shapes' order): no
    copy is built to be walked again."""
    messages: Any = payload.get("messages")
    found = admitted(messages) if messages.__class__ is list else None
    if found is not None and COMMON_REQUEST.holds(payload):  # the copy the JSON front took (chatcodec convert's
        COMMON_REQUEST.release()  # lines): this is the read it was taken for, as the reader's own look releases it
    return None if found is None else (messages, *found)


def write_directly(
    payload: dict[str, Any],
    recorder: LossRecorder,
    target: str,
    writer: Codec,
    *,
    noted: Reading,
    admission: Admission,
) -> dict[str, Any] | None:
    """``payload`` written for ``target`` by its ``writer`` with the turns its direct path wrote (``noted``, the
    pair's reading, carries them), its losses in ``recorder``: the top level read and
    written by the canonical reader and writer, on the body without its messages; None
    when anything on the way refused or raised (the canonical path converts it then)."""
    try:
        canonical = read_request_data({**payload, "messages": []}, SOURCE, noted=noted)
        recorder.trace(admitted_origins(payload, admission[1], admission[2]).place)
        return write_request_data(canonical, target, recorder, noted=noted, writer=writer)
    except Exception:  # whatever a rule raised (or UnadmittedError): the canonical path raises it, in its own words
        return None


def admitted_origins(payload: dict[str, Any], starts: list[int], general: set[int]) -> AdmittedOrigins:
    """The loss places of an admitted body (its messages start at ``starts``): an assistant turn
    the walk found general (its position in ``general``:
    :func:`~.openai_chat_assistant_turns.general_turn`), which a pair's pass reads by the reader's
    ``decode_assistant``, placed from that reading."""
    return AdmittedOrigins(payload, starts, decode_assistant, general)


def read_result(message: dict[str, Any], noted: Reading) -> dict[str, Any]:
    """The canonical result part of an admitted tool message beyond a call id and a text
    (text parts, a cache marker: :func:`_starts`), read by the reader's own
    ``decode_tool_result`` (``noted``: the conversion's reading, as on the canonical path).
    It is given copies of the parts (:func:`_copied`)."""
    return decode_tool_result(_copied(message), noted)


def read_user(message: dict[str, Any], noted: Reading, *, split: bool = True) -> dict[str, Any]:
    """The canonical message of an admitted user message with a cache marker (what agents on
    the OpenAI SDK send through a gateway on their last message), read by the reader's own
    ``decode_plain`` (``noted``: the conversion's reading; ``split``: ``decode_parts``'), as
    :func:`read_result` reads a result: from copies of its parts."""
    return decode_plain(_copied(message), noted, split=split)


def _copied(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with copies of its parts, the values the front's copy would hold (the walk
    proved them): the reader takes a plain text part over, and the caller's own objects
    never reach the output (the reader changes no object it is given)."""
    content = message["content"]
    return message if type(content) is str else {**message, "content": [dict(part) for part in content]}


def admitted(messages: list[Any]) -> tuple[list[int], set[int]] | None:
    """Where each canonical message of ``messages`` starts (a run of tool messages is one),
    when they hold only the shapes a pair's pass writes and nothing the shared history
    rules act on (the reader's ``plain_history``): a leading system prompt of text (or text parts), then
    user, assistant and tool messages (and a system or developer message after one of them: a harness's reminder,
    which a pair writes by its writer's rule for a system turn, its position among the general ones),
    each call's turn followed by results (a final assistant turn, a prefill, of none), no blank
    text. None for any other.
    Beside the starts, the positions of the messages a pair's pass reads by the reader's own
    reading, as the walk found them (so the pass and the loss places never ask again): an
    assistant turn of :func:`~.openai_chat_assistant_turns.general_turn`'s, a tool result beyond a
    call id and a text (with an SDK dump's ``"name": null`` or without: :func:`_starts`).

    Asked of the body as given, with no copy built: a body handed back costs this walk, not
    a validation the canonical path then does again. It proves each value the closed front
    (:data:`~chatcodec._providers.openai_chat.common_shapes.COMMON_MESSAGES`) would check in
    these shapes: exact types (``type(...) is``, never a subclass), required keys (a key
    missing from an object proved a ``dict``: the ``KeyError`` of its subscript), no key
    outside them, ``null`` where the front takes only ``null``. It refuses whatever the front
    refuses (and may refuse more: the canonical path then converts it);
    ``tests/test_direct_admission.py`` holds the two together."""
    if not messages:
        return None
    try:
        return _starts(messages)
    except KeyError:  # a required key missing
        return None


def _starts(messages: list[Any]) -> tuple[list[int], set[int]] | None:  # noqa: C901, PLR0912, PLR0915 - one loop
    """:func:`admitted`'s walk. A tool message is proved here: a call id and a text (an SDK dump's
    ``"name": null`` beside them or not), or beyond that (a general one, its position kept) a
    text, text parts or text and image parts (a screenshot tool's:
    :func:`~chatcodec._providers.openai_chat.admitted_parts.user_content`, which takes every list of text parts a
    system prompt's :func:`~chatcodec._providers.openai_chat.admitted_parts.text_parts` takes, as the front takes
    them), with an SDK dump's ``"name": null`` or the tool's name (litellm's clients send it:
    the reader keeps it as data, :class:`NamedResults`) and a gateway's cache marker
    (:func:`~chatcodec._providers.openai_chat.admitted_parts.ephemeral`)."""
    starts: list[int] = []
    start = starts.append
    general: set[int] = set()
    called = results = False
    for position, message in enumerate(messages):
        if message.__class__ is not dict:
            return None
        role = message["role"]
        if role == "tool":  # most messages of an agent's history: a call id and a text, checked inline
            size = len(message)  # (with an SDK dump's ``"name": null`` too)
            content = message["content"]
            if message["tool_call_id"].__class__ is not str:
                return None
            if content.__class__ is not str or (size != 3 and (size != 4 or message.get("name", 0) is not None)):
                # beyond them (inline: a call a result cost more): the tool's name or a null, a cache marker
                if "name" in message:
                    name = message["name"]
                    if name is not None and name.__class__ is not str:
                        return None
                    size -= 1
                if "cache_control" in message:
                    if not ephemeral(message["cache_control"]):
                        return None
                    size -= 1
                if size != 3 or (content.__class__ is not str and not user_content(content)):
                    return None
                general.add(position)
            if not results:
                start(position)
                results = True
            called = False
            continue
        if called:
            return None
        results = False
        start(position)
        if role == "assistant":
            plain = plain_turn(message)
            if plain & PLAIN:  # plain or signed (a plain turn is never a general one: asked second)
                called = False  # (a client's "tool_calls": [] holds none: a truth test, no ``bool`` call)
                if message.get("tool_calls"):
                    called = True
            else:  # (a reasoned turn that is not a plain one is a general one: the plain turn took every other)
                if not plain and not openrouter_turn(message) and not dialect_turn(message):
                    return None
                general.add(position)
                called = bool(message.get("tool_calls"))  # (a client's "tool_calls": [] holds none)
        elif role == "user":
            if not _user(message):
                if not dialect_user(message):
                    return None
                general.add(position)
        elif role in INSTRUCTION_ROLES and position and messages[position - 1]["role"] not in INSTRUCTION_ROLES:
            if not _system(message):  # mid-session (one after the first joins it: the reader's), a harness's
                return None  # system or developer message (Codex's, for newer models)
            general.add(position)  # a pair's: its writer's rule for a system turn, a target rule's move
        elif role not in INSTRUCTION_ROLES or not _system(message) or (position and not _leading(messages, position)):
            return None
    if called:  # a final turn of calls with no results (the history rules' to answer)
        return None
    return starts, general


def _leading(messages: list[Any], position: int) -> bool:
    """Whether a system message at ``position`` continues a prompt of system messages from the
    first (LangChain's and AutoGen's several ``SystemMessage`` s, each a canonical message the
    reader keeps apart): a pair writes them by its writer's own system rule. Asked of a system
    message after an instruction only (the walk's other system messages are mid-session turns)."""
    if messages[position]["role"] != "system":
        return False
    for earlier in messages[:position]:  # noqa: SIM110 - a loop: a generator's frame cost more
        if earlier["role"] != "system":
            return False
    return True


def _system(message: Mapping[str, Any]) -> bool:
    """A system prompt's text (with an SDK dump's ``"name": null`` or without), or its text
    parts alone (:func:`~chatcodec._providers.openai_chat.admitted_parts.text_parts`: the reader reads those as the
    message it is); or either, not blank, with a gateway's cache marker on the message
    (:func:`~chatcodec._providers.openai_chat.admitted_parts.ephemeral`), as a user message takes
    one (:func:`_user`)."""
    content = message["content"]
    size = len(message)
    if "cache_control" in message:
        if not ephemeral(message["cache_control"]) or (content.__class__ is str and (not content or content.isspace())):
            return False
        size -= 1
        return (size == 2 or (size == 3 and message.get("name", 0) is None)) and text_parts(content)
    if content.__class__ is str:  # (the closed front takes ``name`` as ``null`` only)
        return size == 2 or (size == 3 and message.get("name", 0) is None)
    return size == 2 and text_parts(content)


class NamedResults:
    """A request's tool results with the tool's name (litellm's clients send it), each reported
    by the writer's own rule for the name and then written as the pair writes the result without it.

    The reader keeps the name as data in the result part's bag (``decode_tool_result``'s
    ``result_fields``), and a writer's first act on a result part is to claim that bag (its
    kit's ``claim``: its own provider's fields kept, another provider's reported); nothing else
    of the result depends on it (``tests/test_direct_proved_shapes.py`` holds the two writings
    equal). So a named result is the reader's bag of it claimed by the writer's kit at the
    result's place (``claim``), then the result without its name, with no general reading.

    The report depends on that bag alone, so it is asked once and repeated at each later named
    result: for every name when no text of it holds the name it was asked for (the value, which
    alone differs from name to name, is not in what it says), and then for every request of the
    process too (:data:`_SHARED_REPORTS`); else once a request for that name."""

    __slots__ = ("_claim", "_reports", "_shared")

    def __init__(self, claim: Callable[[LossRecorder, Mapping[str, Any] | None, Steps], object]) -> None:
        self._claim = claim
        self._reports: dict[str, list[tuple[Steps, str, str, LossKind]]] = {}
        self._shared: list[tuple[Steps, str, str, LossKind]] | None = None

    def reported(self, message: dict[str, Any], at: Steps, losses: LossRecorder) -> bool:
        """Whether ``message`` (an admitted tool message, its result at ``at``) carries the
        tool's name (not an SDK dump's ``null``) and it is reported in ``losses``, so that the
        pair writes the result as if it had none (:func:`without_name`, when it reads the
        result); False for one without, and for one the pair writes by the reader's and
        writer's own rules, name and all (a cache marker on the message, which the reader
        takes out of the same bag), nothing reported."""
        name = message.get("name")
        if name is None or "cache_control" in message or type(name) is not str:
            return False
        report = self._shared
        if report is None:
            report = self._reports.get(name)
            if (
                report is None
            ):  # the process's report, kept for the request's later results (no look-up by the kit's claim)
                report = self._shared = _SHARED_REPORTS.get(self._claim)
        if report is None:
            count = losses.count()
            self._claim(losses, SOURCE_KIT.attach({}, result_fields(message)).get("provider_metadata"), at)
            report = losses.below(count, at)
            if report is not None:  # (a report is always below its place: kept unless a rule changes that)
                self._reports[name] = report
                if not any(name in rest or name in what or name in why for rest, what, why, _ in report):
                    self._shared = _SHARED_REPORTS[self._claim] = report
        else:
            losses.repeat(report, at)
        return True


_SHARED_REPORTS: dict[object, list[tuple[Steps, str, str, LossKind]]] = forgotten_with_kits({})
"""A writer kit's report of a named result when no text of it holds the name (the bag is a
``name`` and nothing else: :func:`_starts` admits no other field), by the kit's ``claim``: the
same for every request of the process, so asked once a process, not once a request. It holds
one report a writer; forgotten when a kit is made (its declarations decide the report)."""


def without_name(message: dict[str, Any]) -> dict[str, Any]:
    """A tool message whose name :class:`NamedResults` reported, without it: what the reader
    reads when the pair reads the result (text parts and images, a cache marker on a part)."""
    without = dict(message)
    del without["name"]
    return without


def _user(message: Mapping[str, Any]) -> bool:
    """A user message of text or parts (:func:`~chatcodec._providers.openai_chat.admitted_parts.user_content`), with
    an SDK dump's ``"name": null`` (the closed front takes ``name`` as ``null`` only) and a
    gateway's cache marker on the message (:func:`~chatcodec._providers.openai_chat.admitted_parts.ephemeral`) or
    without."""
    size = len(message)
    if "cache_control" in message:
        if not ephemeral(message["cache_control"]):
            return False
        size -= 1
    return (size == 2 or (size == 3 and message.get("name", 0) is None)) and user_content(message["content"])


def tools_written_whole(
    tools: list[dict[str, Any]], writer: object
) -> tuple[list[dict[str, Any]] | None, bytes | None, Report, Marks]:
    """The caller's ``tools`` as a direct top level's ``writer`` wrote them before, beside their
    reading by the reader's tools key (``remembered_tools.written_whole``), their ``marshal`` text,
    the losses that writing recorded and what it noted beside them."""
    return written_whole(tools, FRONT_KEY, writer)


def remember_tools_written(
    text: bytes, writer: object, wire: list[dict[str, Any]], losses: LossRecorder, count: int, *, marks: Marks = ()
) -> None:
    """Remember ``wire``, the tools of ``text`` as ``writer`` wrote them, the losses it recorded
    in ``losses`` past the first ``count`` when each is at a place in the body (none renumbered:
    ``below``) and what it noted beside them (``marks``), beside their reading by the reader's
    tools key (:func:`~chatcodec._providers.kit.remembered_tools.remember_written_whole`)."""
    report = NO_REPORT if losses.count() == count else losses.below(count, ())
    remember_written_whole(text, FRONT_KEY, writer, wire, report, marks=marks)


def in_own_ranges(payload: dict[str, Any]) -> bool:
    """Whether ``payload`` sets no sampling value outside OpenAI's ranges (the reader marks it the caller's)."""
    return not outside_own_ranges(SOURCE_RULES, payload)
