"""What a replayed Responses item's bag gives when the Responses -> OpenAI Chat direct pass
writes it (:mod:`.openai_responses_to_openai_chat`): an item as a model's output is replayed
(the Agents SDK's calls with their ``id`` and ``status``, a typed ``message`` of one
``output_text``) or as the API lists input items (a call output with its ``id`` and
``status``) keeps its fields in the reader's bag, which the Chat writer reports at the
item's part. What is reported depends on the item's keys alone while no value is null, so it
is read once per shape of item (the reader's ``decode_item`` or ``decode_output``, the writer's
``report_foreign``) and repeated at each item's place. The items the reader keeps whole (a hosted
tool's call, an ``item_reference``) are admitted here by their fields (:func:`kept_whole`), as
are the replayed shapes of a model's message and reasoning (:func:`output_message`,
:func:`replayed_reasoning`); a turn holding url citations has them reported first
(:func:`report_citations`). The pass's own walk and writing stay in its module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from chatcodec._losses import LossRecorder
from chatcodec._providers.kit.citations import report_message_citations
from chatcodec._providers.kit.provider_kit import forgotten_with_kits
from chatcodec._providers.openai_responses.carried_reasoning import is_sealed
from chatcodec._providers.openai_responses.item_reading import decode_item
from chatcodec._providers.openai_responses.markers import PROVIDER
from chatcodec._providers.openai_responses.messages import decode_output
from chatcodec._providers.openai_responses.parts import RESULT_KINDS, decode_parts

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._direct.canonical_messages import CanonicalMessages
    from chatcodec._losses import LossKind
    from chatcodec._providers.contract.context import EncodeContext
    from chatcodec.contract import Steps


class UnadmittedError(Exception):
    """A rule answered outside the shapes the pass writes: the canonical path converts the body."""


Reported = tuple[tuple[str, str, "LossKind"], ...]
"""The losses (what, why, kind) an item's bag gives at its part's place."""

Report: TypeAlias = "Callable[[LossRecorder, Any, Steps], object]"
"""The Chat writer's report of a bag (its kit's ``report_foreign``), passed by the pair's pass:
this module reads the Responses side and asks the writer only through what it is given."""

CALLS: dict[tuple[str, ...], Reported] = forgotten_with_kits({})
OUTPUTS: dict[tuple[str, ...], Reported] = forgotten_with_kits({})
_TEXTS: dict[tuple[tuple[str, ...], tuple[str, ...]], Reported | None] = forgotten_with_kits({})
"""What a replayed item's bag gives, by the item's keys (and its part's, for a message): the
Responses reader's ``decode_item`` (``split_fields``' bag, the fields no canonical field
takes) and the Chat writer's ``report_foreign``, asked once per shape of item. A bag holds
each unmapped field under its own key, so what is reported of it depends on the keys alone
while no value is null (a null is a marker: such an item is read each time), and on the writer
kit's declarations (forgotten when a kit is made). Bounded: the
admitted keys are a few (:func:`admitted`; a part's, :data:`TEXT_PART_KEYS`)."""
TEXT_PART_KEYS = frozenset({"type", "text", "annotations", "logprobs"})
"""The keys of an ``output_text`` part whose message's shape is kept (its ``annotations`` and
``logprobs`` empty, admitted: :func:`output_message`; empty ``logprobs`` are the reader's spelling
marker, the same for every such part)."""


def read_call(item: dict[str, Any], report: Report) -> Reported:
    """What a replayed function call item's bag gives, read (kept in :data:`CALLS` when no
    value is null: :func:`write_messages` looks there first; ``report``: the Chat writer's, :data:`Report`)."""
    reported = _reported(decode_item(item)[0], report)
    if reported is None:  # a loss at another place than the part's: the canonical path's
        raise UnadmittedError
    if None not in item.values():
        CALLS[tuple(item)] = reported
    return reported


def read_output(item: dict[str, Any], report: Report) -> Reported:
    """What a call output item's bag gives (its ``id`` and ``status``, as the API lists input
    items and SDKs replay them), read by the reader's ``decode_output`` (the output of a call of
    the input: no marker) and reported by the Chat writer's ``report_foreign``, as its
    ``_encode_result`` reports a result's bag before its content (kept in :data:`OUTPUTS`
    when no value is null: :func:`write_messages` looks there first)."""
    reported = _reported(decode_output(item, (item["call_id"],)), report)
    if reported is None:  # a loss at another place than the result's: the canonical path's
        raise UnadmittedError
    if None not in item.values():
        OUTPUTS[tuple(item)] = reported
    return reported


def replayed_text(item: dict[str, Any], report: Report) -> tuple[str, Reported] | None:
    """A message item's one text (a typed item's one part, or an item's text beside its phase,
    id or status: :func:`said_message`) as the reader reads it (a text part holding the item's
    fields in its bag, which the Chat writer reports and writes as a text) and what its bag gives
    (None: a message of another shape)."""
    content = item["content"]
    if type(content) is str:  # (the reader's part is that text, its bag marked as read from a string)
        first: dict[str, Any] = _STRING
    elif len(content) != 1:
        return None
    else:
        first = content[0]
    shape = None
    if first.keys() <= TEXT_PART_KEYS and None not in item.values() and None not in first.values():
        shape = (tuple(item), tuple(first))
        known = _TEXTS.get(shape, _UNSEEN)
        if known is None:
            return None
        if known is not _UNSEEN:  # the reader's text part's text
            return (content if first is _STRING else first["text"]), known
    read = decode_item(item)
    part = read[0]
    found = _reported(part, report) if len(read) == 1 and _foreign_text(part) else None
    if shape is not None:
        _TEXTS[shape] = found
    return None if found is None else (part["text"], found)


_UNSEEN: Any = object()
"""A shape not read yet (:func:`replayed_text`)."""
_STRING: dict[str, Any] = {}
"""The part a string content stands for in a shape's key (:func:`replayed_text`): none (never changed)."""

PLAIN_CALL = 4
"""A function call item's keys with nothing for a bag: type, call_id, name and arguments."""
_FOREIGN_TEXT = 3
"""A text part's keys when the reader kept the item's fields on it: type, text and its bag."""


def _foreign_text(part: dict[str, Any]) -> bool:
    """Whether ``part`` is a text part with the Responses reader's bag alone on it (which the
    Chat writer reports whole and writes nothing of)."""
    metadata = part.get("provider_metadata")
    if part["type"] != "text" or len(part) != _FOREIGN_TEXT or metadata is None:
        return False
    return len(metadata) == 1 and PROVIDER in metadata


_FIELDS = {
    "web_search_call": frozenset({"type", "id", "status", "action"}),
    "local_shell_call": frozenset({"type", "id", "call_id", "status", "action"}),
    "item_reference": frozenset({"type", "id"}),
    "local_shell_call_output": frozenset({"type", "id", "call_id", "output", "status"}),
}
"""The items the reader keeps whole (opaque parts) admitted, by type: their fields. A hosted
tool's call as a model wrote it (the SDK's ``ResponseFunctionWebSearch``, the Agents SDK's
``WebSearchTool`` history; its ``LocalShellCall``), kept in its turn, which the Chat writer
drops with a loss; an item of the caller's (the SDK's ``ItemReference`` and
``LocalShellCallOutput``, which a client may name by ``call_id`` as it names other outputs),
kept in a user message of such items."""
HOSTED = ("web_search_call", "local_shell_call")
ITEMS_KEPT_WHOLE = (*HOSTED, "item_reference", "local_shell_call_output")
"""Tuples: an item's ``type`` may be any value before the front (a list is no key of a set)."""


def kept_whole(item: dict[str, Any], kind: str, ids: set[str]) -> bool:
    """Whether ``item`` of a type kept whole holds its fields alone and an id, noted in
    ``ids``: its ``call_id``, else its ``id`` (the id the history rules read a kept call by,
    :func:`unanswered`). Its turn or message is written from its canonical message."""
    if not item.keys() <= _FIELDS[kind]:
        return False
    call_id = item.get("call_id")
    if type(call_id) is not str:
        call_id = item.get("id")
        if type(call_id) is not str:
            return False
    ids.add(call_id)
    return True


def unanswered(hosted: set[str], items: list[dict[str, Any]]) -> bool:
    """Whether no call or call output of ``items`` names an id of an item kept whole: the
    shared history rules drop such a call with its results (a kept call answered), or
    without a loss (one repeating a call of its turn), which the canonical path does."""
    return not any(item.get("call_id") in hosted and item.get("type") not in ITEMS_KEPT_WHOLE for item in items)


def dropped_call(item: dict[str, Any], encode_assistant: Callable[..., object]) -> Reported:
    """What the Chat writer reports of a hosted call the reader keeps whole in its turn (an
    opaque part OpenAI Chat cannot carry), at its part's place: read once (the reader's
    ``decode_item``, the writer's ``encode_assistant`` of a turn of that part alone), the same
    for every such part (the writer names the part's provider, not what it holds; forgotten when
    a kit is made). ``encode_assistant``: the Chat writer's, passed by the pair's pass."""
    known = _DROPPED.get(None)
    if known is not None:
        return known
    capture = _Capture(_HERE)
    encode_assistant({"role": "assistant", "content": decode_item(item)}, None, capture, _HERE[:2])
    if capture.elsewhere or not capture.found:  # (any other answer: the canonical path's)
        raise UnadmittedError
    _DROPPED[None] = found = tuple(capture.found)
    return found


_DROPPED: dict[None, Reported] = forgotten_with_kits({})
"""What :func:`dropped_call` read (at most one entry)."""


_MESSAGE_KEYS = frozenset({"type", "role", "content", "id", "status", "phase"})


def output_message(item: dict[str, Any]) -> bool | None:
    """Whether an assistant's typed message item of output texts and refusals, as a model wrote
    it, holds annotations (url citations after a web search: the front checks their values; the
    reader reads each part as a text or refusal part); None for any other item (another role's
    typed item is the canonical path's)."""
    content = item.get("content")
    if item.get("role") != "assistant" or not item.keys() <= _MESSAGE_KEYS or content.__class__ is not list:
        return None
    if not content:
        return None
    annotated = False
    for part in content:
        kind = part.get("type") if part.__class__ is dict else None
        if kind != "output_text" and kind != "refusal":  # noqa: PLR1714 - no tuple built
            return None
        if not part.keys() <= _OUTPUT_PART_KEYS:  # a field of no part's: kept whole, the model's to check
            return None
        logprobs = part.get("logprobs", _NONE)
        if logprobs.__class__ is not list or logprobs:  # tokens: the canonical path's, whose model checks them
            return None
        annotations = part.get("annotations")
        if annotations:
            if annotations.__class__ is not list:
                return None
            annotated = True
    return annotated


_NONE: list[Any] = []
"""An absent ``logprobs`` as :func:`output_message` looks at it (never changed)."""
_OUTPUT_PART_KEYS = frozenset({"type", "text", "annotations", "refusal", "logprobs"})
"""The fields of an output text or refusal part as a model wrote it: ``logprobs`` only as the API
answers a request that asked for none (``[]``, which the Agents SDK replays on every message: the
reader's spelling marker, so a one-text turn is written by :func:`replayed_text` as without it);
tokens and any other field kept whole in the reader's bag are the canonical path's, whose model
checks their values."""


def said_message(item: dict[str, Any]) -> bool:
    """Whether an assistant's message item is a text with the fields a replayed answer holds
    beside it (its ``phase``, which Codex models ask back, and which the SDK's easy input message
    takes since 2026; an ``id`` and ``status``; typed or not): the reader reads the text as the
    message's string content and those fields as its bag, which the Chat writer reports
    (the turn is written from its canonical message). False for any other item."""
    return item.get("role") == "assistant" and type(item.get("content")) is str and item.keys() <= _MESSAGE_KEYS


def one_text(content: list[dict[str, Any]]) -> bool:
    """Whether an output message's parts are one ``output_text`` of a text, empty annotations
    and empty ``logprobs`` (:func:`output_message` proved them empty) alone: the pass's
    ``write_messages`` writes its turn itself (:func:`replayed_text`)."""
    return len(content) == 1 and content[0].get("type") == "output_text" and content[0].keys() <= TEXT_PART_KEYS


def plain_reasoning(item: dict[str, Any]) -> bool:
    """A reasoning item of summary texts, its id and its encrypted content, none sealed by
    chatcodec (:mod:`~chatcodec._providers.openai_responses.carried_reasoning`: a call's
    bags ride in it, which the reader puts back on the calls)."""
    if not item.keys() <= _REASONING_KEYS or "summary" not in item or is_sealed(item.get("encrypted_content")):
        return False
    summary = item["summary"]
    if summary.__class__ is not list:
        return False
    for entry in summary:
        if entry.__class__ is not dict or len(entry) != 2 or entry.get("type") != "summary_text":
            return False
    return True


_REASONING_KEYS = frozenset({"type", "id", "summary", "encrypted_content"})
_REPLAYED_REASONING_KEYS = _REASONING_KEYS | {"content", "status"}


def replayed_reasoning(item: dict[str, Any]) -> bool:
    """A reasoning item as a model's output is replayed: its reasoning texts (``content``)
    and ``status`` beside the plain shape's fields, none sealed by chatcodec (the front
    checks the values; the reader reads each entry as a thinking part)."""
    content = item.get("content")
    if not item.keys() <= _REPLAYED_REASONING_KEYS or "summary" not in item or item["summary"].__class__ is not list:
        return False
    return (content is None or content.__class__ is list) and not is_sealed(item.get("encrypted_content"))


def report_citations(
    turns: list[int], read: CanonicalMessages, leading: int, recorder: LossRecorder, writer: Codec
) -> None:
    """The url citations of ``turns`` (their canonical messages, after the ``leading`` ones),
    reported before anything is written, as the writer's codec reports a request's
    (``report_message_citations``: OpenAI Chat has no place for them in a request)."""
    capabilities: Any = getattr(writer, "capabilities", None)
    if capabilities is None or "request" in capabilities.citations:
        raise UnadmittedError  # a writer that writes them, or says nothing of them: the canonical path's
    for turn in turns:
        at = turn + leading
        report_message_citations(read[at], recorder, ("messages", at), capabilities.display_name, " in a request")


class _Capture(LossRecorder):
    """A recorder that keeps the losses reported at one place (:func:`_reported`)."""

    __slots__ = ("at", "elsewhere", "found")

    def __init__(self, at: Steps) -> None:
        super().__init__()
        self.at = at
        self.found: list[tuple[str, str, LossKind]] = []
        self.elsewhere = False

    def add(self, path: str | Steps, what: str, why: str, kind: LossKind = "content") -> None:
        self.elsewhere = self.elsewhere or path != self.at
        self.found.append((what, why, kind))


def _reported(part: dict[str, Any], report: Report) -> Reported | None:
    """What the Chat writer reports of ``part``'s bag by its ``report`` (None: a loss at another
    place than the part's)."""
    capture = _Capture(_HERE)
    report(capture, part.get("provider_metadata"), _HERE)
    return None if capture.elsewhere else tuple(capture.found)


_HERE = ("messages", 0, "content", 0)
"""The place a shape's losses are read at (each is recorded again at its item's part)."""


WriteResult: TypeAlias = "Callable[[list[dict[str, Any]], list[dict[str, Any]], EncodeContext, Steps], Any]"
"""The Chat writer's ``result_content`` (a call output's canonical parts, the media moved out, the
context, the result's place), passed by the pair's pass."""
TEXT_OUTPUTS: dict[tuple[tuple[str, ...], ...], bool] = forgotten_with_kits({})
"""Whether a call output of text parts alone (an agent's tool answering ``input_text`` parts, as
the SDK lists them) is, read by the reader's ``decode_parts`` and written by the Chat writer's
``result_content``, each part's text as a Chat text part, with no loss and nothing moved; by the
parts' shape (each its keys and whether its text is empty: what the rules read of it), proved on
the first output of the shape (:func:`written_output`). Bounded: forgotten whole past
:data:`_MAX_OUTPUTS`."""
_MAX_OUTPUTS = 64


def written_output(
    output: list[Any], moved: list[dict[str, Any]], context: EncodeContext, at: Steps, write: WriteResult
) -> Any:
    """A call output of parts as the Chat writer writes it (``write``, its ``result_content``, on the
    reader's ``decode_parts``); an output of text parts of a proved shape (:data:`TEXT_OUTPUTS`) is
    its texts as the writing of the shape gave them, neither rule asked."""
    shape = _text_shape(output)
    if shape is not None and TEXT_OUTPUTS.get(shape):
        return [{"type": "text", "text": part["text"]} for part in output]
    losses = context.losses
    count, before = losses.count(), len(moved)
    written = write(decode_parts(output, RESULT_KINDS), moved, context, at)
    if shape is not None:
        if len(TEXT_OUTPUTS) >= _MAX_OUTPUTS:
            TEXT_OUTPUTS.clear()
        same = written == [{"type": "text", "text": part["text"]} for part in output]
        TEXT_OUTPUTS[shape] = same and losses.count() == count and len(moved) == before
    return written


def _text_shape(output: list[Any]) -> tuple[tuple[str, ...], ...] | None:
    """The shape of an output of ``input_text`` parts of their type and text alone (:data:`TEXT_OUTPUTS`'s
    key); None for any other."""
    shape: list[tuple[str, ...]] = []
    for part in output:
        if len(part) != 2 or part.get("type") != "input_text" or type(text := part.get("text")) is not str:
            return None
        shape.append(("input_text", "") if not text else ("input_text",))
    return tuple(shape)
