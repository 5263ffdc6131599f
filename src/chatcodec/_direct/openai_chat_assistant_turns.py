"""Which assistant turns of an OpenAI Chat history the direct paths take, and how (:mod:`.openai_chat_source`'s
walk asks them): a plain turn the reader reads as its parts (:func:`plain_turn`), a turn as OpenRouter
answers it (:func:`openrouter_turn`), a plain turn but for what a client adds (:func:`dialect_turn`),
and what the writing of a general turn depends on beyond its parts (:func:`general_shape`), which both
OpenAI Chat pairs prove once a shape. Every check proves what the closed front
(:data:`~chatcodec._providers.openai_chat.common_shapes.COMMON_MESSAGES`) would check of these shapes,
on the messages as given (``tests/test_direct_admission.py`` holds the two together).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_chat.admitted_parts import ephemeral, plain_texts
from chatcodec._providers.openai_chat.null_spelling import SPELLED_EMPTY, SPELLED_NULLS

PLAIN, SIGNED = 1, 1 | 4
""":func:`plain_turn`'s and :func:`_calls`' answers beside 0 (no): plain; plain but for Gemini's
thought signature on a call, which a pair's pass reads by the reader's own call reading and writes
by the writer's call rule (its bag carried or reported). The turns a pass writes as plain hold the
:data:`PLAIN` bit (``answer & PLAIN``: one operation in the walk)."""


def plain_turn(message: Mapping[str, Any]) -> int:  # noqa: C901, PLR0912 - its checks inline (a call a turn cost more)
    """Whether an assistant turn is one the reader reads as a plain turn (:data:`PLAIN`; 0: not;
    :data:`SIGNED`: but for Gemini's signature on a call, a plain turn whose signed calls a pass reads
    one by one): text (or none),
    reasoning text (``reasoning_content``; or ``reasoning``, newer vLLM's and Groq's spelling, when it is the
    turn's one reasoning field: the reader reads either as one thinking part), litellm's signed
    ``thinking_blocks`` (Claude's ``thinking`` block, its text and ``signature``, as the front takes them,
    beside the ``reasoning_content`` litellm writes with them: their text joined, which the reader reads as a
    copy of them; a pair's pass reads their parts by the reader's own reading of a turn's reasoning fields),
    calls (:func:`_calls`), and an SDK dump's fields (:data:`SPELLED_NULLS`) only as ``null``. Its own fields
    are counted as they are asked about, so the keys beyond them are the SDK dump's when as many of those
    are present and ``null`` (:func:`_nulls`): no walk over its keys or values, which cost
    more a turn than the look-ups of the few fields a turn holds. A turn of calls may leave its
    ``content`` out (the SDK's ``ChatCompletionAssistantMessageParam`` does not require it): the
    reader reads it as ``null``. A turn of text alone with an SDK dump's nulls (``"tool_calls":
    null`` among them: the final answer of a task, as the OpenAI SDK's ``model_dump()`` keeps it)
    or with ``"tool_calls": []`` (clients that always send the list; the reader keeps it as pure
    spelling, which another format drops unreported) is one too: the reader reads its text as a
    string content where a pair's pass writes a text part, which both writers write as that
    string (``tests/test_direct_unbenched_shapes.py``). Its
    text may come as text parts (the SDK's ``ChatCompletionAssistantMessageParam`` allows them:
    :func:`~chatcodec._providers.openai_chat.admitted_parts.plain_texts`), which the reader reads
    generally as those parts, with a pure spelling marker only (``_content``): a pass writes each
    as a plain turn's text, and an empty ``content`` beside calls, which it reads as spelling. A
    participant's ``name`` (a text: multi-agent clients name each agent's turns) is its own field too:
    a pass writes the writer's report of it (``report_name``, the Anthropic writer's; Responses'
    ``report_turn_fields``) before the turn's parts, as the writers report it before their blocks."""
    try:  # (free where nothing is raised: a look or a method call a turn cost more)
        content = message["content"]
        own = 2  # its role and content
    except KeyError:
        content, own = None, 1
    calls = message.get("tool_calls")  # (an SDK dump's null there: one of its nulls, below)
    if (
        content is not None
        and (  # blank (an empty text beside calls is spelling: the reader reads no text part)
            content.__class__ is not str or (not content and not calls) or content.isspace()
        )
        and (content.__class__ is not list or not plain_texts(content))  # text parts (the SDK allows them)
    ):
        return 0
    extra = len(message) - own if calls is None else len(message) - own - 1
    if extra:  # beyond its role, content and calls (most turns hold nothing more: none of these asked)
        if "name" in message and (name := message["name"]) is not None:  # (an SDK dump's null: one of its nulls)
            if name.__class__ is not str or not name:  # (an empty one: the front refuses it)
                return 0
            extra -= 1
        if "reasoning_content" in message and (reasoning := message["reasoning_content"]) is not None:
            # (a server's dump's null: one of its nulls, below; a look and a subscript, no ``get`` call)
            if reasoning.__class__ is not str:
                return 0
            extra -= 1
            if "thinking_blocks" in message:  # litellm's signed thinking, sent back
                if not _signed(message["thinking_blocks"], reasoning):
                    return 0
                extra -= 1
        elif "thinking_blocks" in message:  # (never without the text that copies them)
            return 0
        elif "reasoning" in message and (reasoning := message["reasoning"]) is not None:
            if reasoning.__class__ is not str:  # newer vLLM's and Groq's field for the same text
                return 0
            extra -= 1
        if (
            extra
            and not (  # litellm's dump's two (function_call, provider_specific_fields) asked inline
                extra == 2
                and message.get("function_call", 0) is None
                and message.get("provider_specific_fields", 0) is None
            )
            and not _nulls(message, extra)
        ):
            return 0
    if calls is None or (calls.__class__ is list and not calls):  # (a client's ``[]`` on a text: spelling)
        return PLAIN if content is not None else 0
    return _calls(calls)


def _signed(blocks: Any, reasoning: str) -> bool:
    """Whether litellm's ``thinking_blocks`` are Claude's ``thinking`` blocks, each a text and a
    ``signature`` (as the front takes them) or a text alone (a block litellm built with no signature:
    the reader reads it as an unsigned thinking part, which a writer drops or carries by its own
    rule), or its ``redacted_thinking`` blocks (their ``data``, not empty), whose texts joined are
    the turn's ``reasoning``
    (which the reader reads as their copy: another text is the canonical path's). Kept apart from
    :func:`plain_turn`: CPython readies a function's code once a process at a cost in proportion
    to its size, on a first request's turns, and most turns hold no such blocks."""
    if blocks.__class__ is not list or not blocks:
        return False
    joined = ""  # their text, joined as the blocks are proved (one pass, no list built)
    for block in blocks:  # (a block of three keys missing one: the KeyError of a required key)
        if block.__class__ is not dict:
            return False
        if len(block) == 2:  # Claude's redacted thinking, as litellm sends it back: its data, no text
            if "data" in block:
                if block["type"] != "redacted_thinking" or block["data"].__class__ is not str or not block["data"]:
                    return False
                continue
        elif len(block) != 3 or block["signature"].__class__ is not str:  # (two keys: unsigned, a text alone)
            return False
        kind, thinking = block["type"], block["thinking"]
        if kind != "thinking" or kind.__class__ is not str or thinking.__class__ is not str:
            return False
        joined += thinking
    return reasoning == joined


_OPENAI_NULLS = ("refusal", "function_call", "annotations", "audio")
"""The fields of the OpenAI SDK's ``ChatCompletionMessage.model_dump()`` on every assistant turn,
asked first (:func:`_nulls`)."""
_OPENAI_COUNT = len(_OPENAI_NULLS)
_HELPED_COUNT = _OPENAI_COUNT + 1
"""The SDK's four and the ``"parsed": null`` of the message its ``parse`` and ``stream`` helpers build."""
_NULL_ORDER = (*_OPENAI_NULLS, *sorted(SPELLED_NULLS.difference(_OPENAI_NULLS)))
""":data:`SPELLED_NULLS`, the OpenAI SDK's dump's first (litellm's two, ``function_call`` and
``provider_specific_fields``, are asked inline: :func:`plain_turn`)."""


_EMPTY_NOT_OWN = SPELLED_EMPTY - {"tool_calls"}
"""The keys whose ``[]`` :func:`_nulls` counts: ``"tool_calls": []`` is a turn's own field, counted
by :func:`plain_turn` (as a list of calls), never a second time here."""
_OWN_OR_NULL = frozenset({"role", "content", "reasoning_content", "thinking_blocks", "tool_calls", *SPELLED_NULLS})
"""A plain turn's own fields and the SDK dumps' (:func:`_nulls`)."""


def _nulls(message: Mapping[str, Any], extra: int) -> bool:
    """Whether the ``extra`` keys of an assistant turn beyond its own fields are an SDK dump's
    (:data:`SPELLED_NULLS`), each ``null`` (or ``[]`` where that is spelling too,
    :data:`SPELLED_EMPTY`: OpenAI's ``"annotations": []``): as many of those present so (a key
    present is counted once, and none is a turn's own field: ``tool_calls`` is counted only
    ``null``). The OpenAI SDK's four (its dump of every answer) are read first, by subscript
    (free where no key is missing); else each key is looked for, then read (a ``get`` with its
    default is a method call, the dearer of the two)."""
    if extra == _OPENAI_COUNT or (extra == _HELPED_COUNT and message.get("parsed", 0) is None):
        try:
            annotations = message["annotations"]
            if (
                message["refusal"] is None
                and message["function_call"] is None
                and message["audio"] is None
                and (annotations is None or (annotations.__class__ is list and not annotations))
            ):
                return True  # (the helpers' message's "parsed": null asked first)
        except KeyError:
            pass
    if not message.keys() <= _OWN_OR_NULL:  # a key no dump's null is (OpenRouter's details): no look a key
        return False
    for key in _NULL_ORDER:
        if key in message:
            value = message[key]
            if value is None or (value.__class__ is list and not value and key in _EMPTY_NOT_OWN):
                extra -= 1
                if not extra:
                    return True
    return False


_REASONED_KEYS = frozenset({"role", "content", "refusal", "reasoning", "reasoning_details", "tool_calls"})
"""An assistant turn as OpenRouter answers it, sent back whole (:func:`openrouter_turn`)."""
_DETAIL_TEXTS = frozenset({"type", "text", "summary", "data", "signature", "format", "id"})
"""The text fields of a ``reasoning_details`` entry (the wire's ``ReasoningDetail``, with its ``index``)."""


def general_turn(message: Mapping[str, Any]) -> bool:
    """Whether an assistant turn holds what a pair's pass does not write itself: OpenRouter's
    ``reasoning_details`` (or its ``reasoning`` text where a plain turn does not take it), an empty
    ``content`` with no call. Such a turn (:func:`openrouter_turn` proved it) is read by the
    reader's own ``decode_assistant`` and written by the writer's own rule for a canonical
    assistant message: its reasoning details' fields, an empty text are those rules'."""
    return "reasoning_details" in message or "reasoning" in message or message.get("content") == ""


def dialect_turn(message: Mapping[str, Any]) -> bool:
    """Whether an assistant turn is a plain turn (:func:`plain_turn`) but for what clients add
    to it: a gateway's cache marker on the message (:func:`ephemeral`), ``"tool_calls": []``
    beside those (a turn of text with it alone is a plain turn), the participant's ``name`` (a text:
    multi-agent clients name each agent's turns, as a user's). The reader reads such a
    turn generally (``decode_assistant``): a pair's pass writes it by the writer's own rule for
    a canonical assistant message, as :func:`general_turn`'s. Asked only of a turn that is not
    plain: the view of it built here costs what one such turn costs."""
    view = dict(message)
    if "cache_control" in view and not ephemeral(view.pop("cache_control")):
        return False
    if view.get("tool_calls", 0) == []:
        del view["tool_calls"]
    if "name" in view:
        name = view.pop("name")
        if name.__class__ is not str or not name:  # (an SDK dump's null: the plain turn's; an empty one the front's)
            return False
    return plain_turn(view) in _GENERAL_CALLS


def _signed_call(call: dict[str, Any]) -> bool:
    """Whether a call carries Gemini's thought signature as its OpenAI compatibility sends it
    (``"extra_content": {"google": {"thought_signature": text}}``, which an agent on Gemini sends
    back on every call) and nothing else beside its fields: the reader keeps the signature in the
    call's bag (``thought_signatures``), for a writer to carry or report."""
    extra: Any = call.get("extra_content")
    if extra.__class__ is not dict or len(extra) != 1:
        return False
    google: Any = extra.get("google")
    return google.__class__ is dict and len(google) == 1 and google.get("thought_signature").__class__ is str


def general_shape(message: Mapping[str, Any]) -> tuple[Any, ...]:
    """What the writing of a :func:`general_turn` depends on beyond its parts: its fields (a
    ``null`` refusal, which the reader keeps as spelling in the turn's bag) and whether all or
    none of its calls carry the SDK's ``index`` or its helpers' ``parsed_arguments`` (which it
    keeps in each call's bag). A pair that proved its writer writes a turn of one shape as its
    parts writes later ones so."""
    calls: Any = message.get("tool_calls") or ()
    indexed = parsed = 0
    for call in calls:  # a loop: a generator's frame per turn cost more than its few calls
        if "index" in call:
            indexed += 1
        if len(call["function"]) != 2:  # (two fields, or the helpers' null beside them: the walk proved)
            parsed += 1
    count = len(calls)
    return (*message, indexed == count, indexed == 0, parsed == count, parsed == 0)


def openrouter_turn(message: Mapping[str, Any]) -> bool:
    """A :func:`general_turn` of the shapes the full front takes as they are: text (or ``""``,
    or ``null``) ``content``, ``"refusal": null``, ``reasoning`` text, ``reasoning_details``
    entries of text fields and an ``index``, calls of :func:`_calls`' shape with an ``index``
    or without, at least one of reasoning and calls (a lone text is a plain turn's). Asked of a
    turn that is not a plain one (:func:`plain_turn`), it is a :func:`general_turn` when it holds
    these shapes: a plain turn takes every one of them with none of OpenRouter's details, an empty
    text with no call, or a reasoning text beside what it does not take (``tests/test_direct_admission.py``
    holds the three together)."""
    if not message.keys() <= _REASONED_KEYS or message.get("refusal", None) is not None:
        return False
    content = message["content"]
    if content is not None and (content.__class__ is not str or (content and content.isspace())):
        return False
    if "reasoning" in message and message["reasoning"].__class__ is not str:
        return False
    if "reasoning_details" in message and not _details(message["reasoning_details"]):
        return False
    if "tool_calls" in message:  # (a signed call's turn: a general turn writes its calls as plain parts)
        return _calls(message["tool_calls"]) in _GENERAL_CALLS
    return "reasoning" in message or "reasoning_details" in message


_GENERAL_CALLS = (PLAIN,)
"""The calls a general turn may hold (:func:`openrouter_turn`, :func:`dialect_turn`)."""


def _details(details: Any) -> bool:
    """OpenRouter's ``reasoning_details``: entries of text fields (:data:`_DETAIL_TEXTS`) and an ``index``."""
    if details.__class__ is not list or not details:
        return False
    for detail in details:
        if detail.__class__ is not dict or not detail:
            return False
        for key, value in detail.items():
            if key == "index":
                if value.__class__ is not int:
                    return False
            elif key not in _DETAIL_TEXTS or value.__class__ is not str:
                return False
    return True


def _calls(calls: Any) -> int:  # noqa: C901, PLR0912 - one loop, its checks inline
    """Whether ``calls`` are function calls of the closed front's one shape: an id,
    ``"function"`` (or no ``type``, its one value, which the full wire shapes take and the reader
    keeps as a pure marker), a name and an argument text, or those with what the OpenAI SDK's
    ``stream`` and ``parse`` helpers leave on one (its ``model_dump()`` of the message they build,
    which an agent appends to its history): the ``index`` its stream accumulation keeps, an
    integer, and its ``ParsedFunction``'s ``"parsed_arguments": null``, as the front takes them
    (the reader keeps both as pure markers of the call, which the pairs' writers drop unreported:
    a pass writes the call as without them): :data:`PLAIN`; :data:`SIGNED` for Gemini's signature
    on a call; 0 for any other."""
    if calls.__class__ is not list or not calls:
        return 0
    helped = signed = False
    for call in calls:
        if call.__class__ is not dict:
            return 0
        function = call["function"]
        if function.__class__ is not dict:
            return 0
        size = len(call)
        if size != 3:  # (inline, as the next: a call each of OpenRouter's and the helpers' turns)
            if size == 2:  # no ``type`` (its one value; clients that leave it out): the reader reads it so and keeps
                pass  # a pure marker, which another format drops unreported (no ``id``: its subscript's KeyError)
            elif size != 4:
                return 0
            elif call.get("index").__class__ is int:
                helped = True
            elif _signed_call(call):
                signed = True
            else:
                return 0
        if len(function) != 2:
            if len(function) != 3 or function.get("parsed_arguments", 0) is not None:
                return 0
            helped = True
        if (
            (size != 2 and call["type"] != "function")  # the front takes an equal str subclass too: the same
            or call["id"].__class__ is not str
            or function["name"].__class__ is not str
            or function["arguments"].__class__ is not str
        ):
            return 0
    if signed:  # (beside the helpers' marks: the canonical path's)
        return 0 if helped else SIGNED
    return PLAIN
