"""A written body fitted to the server it goes to: what the server does not take is
dropped, or moved where the server keeps it, each change reported (a ``rule`` loss).

The writer writes one ``openai-chat`` body; this pass reads the chosen :class:`Server`
and edits the body, in this order:

- top-level fields: the server's documented fields (or the SDK's), less what it refuses,
  plus its extensions; a refused field with a home elsewhere is moved there (Mistral's
  ``random_seed``, DeepSeek's ``max_tokens``);
- ``reasoning_effort``: a value it does not take becomes the nearest one it does;
- each message: reasoning fields moved to the one the server takes back (text moved between
  ``reasoning_content`` and ``reasoning`` is no loss: the same text where it reads it), or dropped;
  fields the SDK's message kind and the server's extensions do not hold dropped; content
  parts of types it does not take dropped; cache markers moved between OpenAI's
  ``prompt_cache_breakpoint`` and the gateways' ``cache_control``;
- each tool call: Gemini's ``extra_content.google.thought_signature`` only for Gemini's
  endpoint; other fields as for messages; each tool definition likewise;
- the server's own rules (:attr:`Server.rules`).

With no server named (the default, OpenAI), only what the writer *placed* for some server
is taken back (a Gemini signature): what an ``openai-chat`` reading kept is written back as
it came, so a body read and written again is the same body.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from functools import cache
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, cast

from chatcodec._providers.families.openai.cache_breakpoint import (
    decode_prompt_cache_breakpoint,
    encode_prompt_cache_breakpoint,
)
from chatcodec._providers.openai_chat.servers.server import Server, ServerCall
from chatcodec.codec_kit import as_dict, as_list, decode_cache_control, encode_cache_control, sdk_fields

if TYPE_CHECKING:
    from collections.abc import Callable

    from chatcodec.contract import Steps

PACKAGE = "chatcodec._providers.openai_chat"
REQUEST_KINDS = ("CompletionCreateParamsNonStreaming", "CompletionCreateParamsStreaming")
MESSAGE_KINDS = {
    "system": "ChatCompletionSystemMessageParam",
    "developer": "ChatCompletionDeveloperMessageParam",
    "user": "ChatCompletionUserMessageParam",
    "assistant": "ChatCompletionAssistantMessageParam",
    "tool": "ChatCompletionToolMessageParam",
    "function": "ChatCompletionFunctionMessageParam",
}
PART_KINDS = {
    "text": "ChatCompletionContentPartTextParam",
    "image_url": "ChatCompletionContentPartImageParam",
    "input_audio": "ChatCompletionContentPartInputAudioParam",
    "file": "File",
    "refusal": "ChatCompletionContentPartRefusalParam",
}
CALL_KIND = "ChatCompletionMessageFunctionToolCallParam"
TOOL_KIND = "ChatCompletionFunctionToolParam"
ALWAYS = frozenset({"model", "messages"})

REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_details")
TEXT_REASONING_FIELDS = frozenset({"reasoning_content", "reasoning"})
"""The reasoning fields holding plain text: reasoning moved from one to the other is the same
text where the server reads it, so the move is no loss (a harness sending back the field its
last answer came in, ``reasoning_content``, to vLLM, which reads ``reasoning``, lost nothing on
every request; the same reasoning read from an Anthropic body is written there with no report)."""
EFFORT_ORDER = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
"""The canonical efforts, least first (``settings.EFFORTS``)."""
BREAKPOINT, CACHE_CONTROL = "prompt_cache_breakpoint", "cache_control"

_GET = cast("Callable[[Any, str], Any]", dict[str, Any].get)
"""``dict.get`` unbound: ``map`` looks a key up in each dict in C (a non-dict raises TypeError)."""
_HOLDS = cast("Callable[[Any, str], bool]", dict[str, Any].__contains__)
"""``dict.__contains__`` unbound, for ``map`` as :data:`_GET` is."""


@cache
def request_fields(server: Server) -> frozenset[str]:
    """The top-level fields ``server`` takes."""
    base = server.fields if server.fields is not None else sdk_fields(PACKAGE, REQUEST_KINDS)
    added = frozenset(name for kind in REQUEST_KINDS for name in server.extension_fields(kind))
    refused = frozenset(refusal.field for refusal in server.refuses)
    return ((base | added) - refused) | ALWAYS


@cache
def object_fields(server: Server, kind: str) -> frozenset[str]:
    """The fields ``server`` takes on an object of ``kind`` (a message, part, call or
    tool): the SDK's and its extensions, less the message fields it refuses
    (``messages[].name``) and OpenAI's cache breakpoint where it takes another marker."""
    taken = sdk_fields(PACKAGE, (kind,)) | server.extension_fields(kind)
    if kind in _MESSAGE_KIND_NAMES:
        prefix = "messages[]."
        taken -= {refusal.field.removeprefix(prefix) for refusal in server.refuses if refusal.field.startswith(prefix)}
    if kind in _PART_KIND_NAMES and server.cache_marker != BREAKPOINT:
        taken -= {BREAKPOINT}
    return taken


_MESSAGE_KIND_NAMES = frozenset(MESSAGE_KINDS.values())
_PART_KIND_NAMES = frozenset(PART_KINDS.values())


def holds_placed(body: dict[str, Any]) -> bool:
    """Whether ``body`` may hold what the writer placed for some server (a call's
    ``extra_content``): all :func:`fit_request` changes for the default server. Most bodies hold
    no such call, looked for in C over every call of every message; a value of another shape
    (not a dict) may, and is looked at one by one."""
    messages: Any = body.get("messages")
    try:
        calls_lists = filter(None, map(_GET, messages, repeat("tool_calls")))
        return any(map(_HOLDS, chain.from_iterable(calls_lists), repeat("extra_content")))
    except TypeError:
        return True


def fit_request(body: dict[str, Any], call: ServerCall, *, named: bool) -> None:
    """Edit ``body`` to what ``call.server`` takes (see the module docstring); with
    ``named`` false (the default server) only the signatures placed for Gemini are taken back."""
    if not named:
        if not holds_placed(body):
            return
        messages: Any = body.get("messages")
        # the look written inline (no TypeGuard or cast call per message)
        for index, message in enumerate(messages if messages.__class__ is list else ()):
            calls: Any = message.get("tool_calls") if message.__class__ is dict else None
            for item in calls if calls.__class__ is list else ():
                if item.__class__ is dict and "extra_content" in item:
                    break
            else:
                continue
            for position, tool_call in enumerate(calls):
                _drop_signature(tool_call, ("messages", index, "tool_calls", position), call)
        return
    _fit_fields(body, call)
    _fit_effort(body, call)
    for index, message in enumerate(as_list(body.get("messages")) or ()):
        fields = as_dict(message)
        if fields is not None:
            _fit_message(fields, ("messages", index), call)
    for index, tool in enumerate(as_list(body.get("tools")) or ()):
        fields = as_dict(tool)
        if fields is not None and fields.get("type") == "function":
            _fit_object(fields, TOOL_KIND, ("tools", index), call)
    call.apply(call.server.rules)


def _fit_fields(body: dict[str, Any], call: ServerCall) -> None:
    call.rule = "fields"
    server = call.server
    accepted = request_fields(server)
    refusals = {refusal.field: refusal for refusal in server.refuses}
    for key in [key for key in body if key not in accepted]:
        value = body.pop(key)
        refusal = refusals.get(key)
        if refusal is not None and refusal.instead is not None and refusal.instead not in body:
            body[refusal.instead] = value
            call.report((key,), key, f"sent as {refusal.instead} ({refusal.source})")
        elif refusal is not None:
            call.report((key,), key, f"not sent: refused or ignored ({refusal.source})")
        else:
            call.report((key,), key, f"not sent: not a field it documents ({server.docs})")


def _fit_effort(body: dict[str, Any], call: ServerCall) -> None:
    call.rule = "reasoning_effort"
    efforts = call.server.efforts
    effort = body.get("reasoning_effort")
    if effort is None or efforts is None or effort in efforts:
        return
    nearest = nearest_effort(effort, efforts)
    what = f"reasoning_effort {effort!r}"
    if nearest is None:
        del body["reasoning_effort"]
        call.report(("reasoning_effort",), what, f"not sent: it takes {', '.join(efforts)}")
    else:
        body["reasoning_effort"] = nearest
        call.report(("reasoning_effort",), what, f"sent as {nearest!r}, the nearest it takes")


def nearest_effort(effort: object, efforts: tuple[str, ...]) -> str | None:
    """The effort of ``efforts`` nearest ``effort`` (the higher on a tie); None for
    ``"none"`` (no reasoning is not the least reasoning) or a value outside the scale."""
    if effort not in EFFORT_ORDER or effort == "none":
        return None
    wanted = EFFORT_ORDER.index(str(effort))
    ranked = [(abs(EFFORT_ORDER.index(value) - wanted), -EFFORT_ORDER.index(value), value) for value in efforts]
    ranked = [entry for entry in ranked if entry[2] != "none"]
    return min(ranked)[2] if ranked else None


def _fit_message(message: dict[str, Any], at: Steps, call: ServerCall) -> None:
    role = message.get("role")
    kind = MESSAGE_KINDS.get(role) if isinstance(role, str) else None
    if kind is None:
        return
    if role == "assistant":
        _fit_reasoning(message, at, call)
        for position, tool_call in enumerate(as_list(message.get("tool_calls")) or ()):
            fields = as_dict(tool_call)
            if fields is not None and fields.get("type", "function") == "function":
                if not call.server.signatures:
                    _drop_signature(fields, (*at, "tool_calls", position), call)
                _fit_object(fields, CALL_KIND, (*at, "tool_calls", position), call)
    _fit_object(message, kind, at, call, keep=REASONING_FIELDS)
    content = as_list(message.get("content"))
    if content is not None:
        _fit_parts(message, content, at, call)


def _fit_object(fields: dict[str, Any], kind: str, at: Steps, call: ServerCall, keep: tuple[str, ...] = ()) -> None:
    call.rule = "fields"
    accepted = object_fields(call.server, kind)
    for key in [key for key in fields if key not in accepted and key not in keep]:
        del fields[key]
        call.report((*at, key), key, f"not sent: {call.server.title} takes no {key} here ({call.server.docs})")


def _fit_parts(message: dict[str, Any], content: list[Any], at: Steps, call: ServerCall) -> None:
    server = call.server
    taken, source = server.parts_for(call.model)
    kept: list[Any] = []
    changed = False
    for index, part in enumerate(content):
        fields = as_dict(part)
        kind = fields.get("type") if fields is not None else None
        where = (*at, "content", index)
        if fields is None or not isinstance(kind, str):
            kept.append(part)
            continue
        if kind == "file" and not _file_taken(fields, server, taken):
            text = _file_text(fields)
            call.rule = "parts"
            if text is None:
                call.report(where, "file part", f"not sent: {server.title} takes no file of its type")
                continue
            call.report(where, "text file", f"sent as the text it holds: {server.title} takes no such file")
            fields, kind, changed = {"type": "text", "text": text}, "text", True
        elif kind not in taken and kind not in ("text", "refusal"):
            call.rule = "parts"
            call.report(where, f"{kind} part", f"not sent: it takes {', '.join(sorted(taken))} ({source})")
            continue
        _fit_cache_marker(fields, where, call)
        if kind in PART_KINDS and not (kind == "file" and "file" not in fields):  # DeepSeek's flat file part: its own
            _fit_object(fields, PART_KINDS[kind], where, call)
        kept.append(fields)
    if changed or len(kept) < len(content):
        message["content"] = kept or ""


def _file_type(part: dict[str, Any]) -> str | None:
    """The MIME type of a ``file`` part's data URL, or None (a file by id, no data URL)."""
    file = as_dict(part.get("file")) or {}
    data = file.get("file_data")
    if not isinstance(data, str) or not data.startswith("data:"):
        return None
    return data[5:].partition(";")[0].partition(",")[0].lower() or None


def _file_taken(part: dict[str, Any], server: Server, taken: frozenset[str]) -> bool:
    """Whether ``server`` takes this ``file`` part: it takes file parts for the model
    (``taken``), and its type when it names the types it takes (a file by id is not checked)."""
    if "file" not in taken:
        return False
    kind = _file_type(part)
    return server.file_types is None or kind is None or kind in server.file_types


def _file_text(part: dict[str, Any]) -> str | None:
    """The text a ``text/*`` file part's base64 data URL holds (UTF-8), else None."""
    kind = _file_type(part)
    data = str((as_dict(part.get("file")) or {}).get("file_data", ""))
    head, comma, payload = data.partition(",")
    if kind is None or not kind.startswith("text/") or not comma or not head.endswith(";base64"):
        return None
    try:
        return base64.b64decode(payload, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def _fit_cache_marker(part: dict[str, Any], at: Steps, call: ServerCall) -> None:
    """OpenAI's ``prompt_cache_breakpoint`` and the gateways' ``cache_control`` are one
    marker: moved to the spelling the server takes (dropped by the field check when it
    takes neither)."""
    target = call.server.cache_marker
    found = BREAKPOINT if BREAKPOINT in part else CACHE_CONTROL if CACHE_CONTROL in part else None
    if found is None or target is None or found == target or target in part:
        return
    marker = decode_prompt_cache_breakpoint(part[found]) if found == BREAKPOINT else decode_cache_control(part[found])
    if marker is None:  # another shape: not the marker, dropped by the field check
        return
    call.rule = "cache_marker"
    if target == CACHE_CONTROL:
        part[CACHE_CONTROL] = encode_cache_control(marker)
    else:
        part[BREAKPOINT] = encode_prompt_cache_breakpoint(marker, call.losses, at)
    del part[found]
    call.report((*at, found), "cache breakpoint", f"sent as {target}")


def _fit_reasoning(message: dict[str, Any], at: Steps, call: ServerCall) -> None:
    """Reasoning sent back goes in the one field the server reads, or nowhere."""
    call.rule = "reasoning_field"
    target = call.server.reasoning_field
    for field in [field for field in REASONING_FIELDS if field in message and field != target]:
        value = message.pop(field)
        what = f"reasoning in {field}"
        if target is None:
            call.report((*at, field), what, f"not sent: it takes no reasoning back ({call.server.reasoning_source})")
        elif target in message:
            call.report((*at, field), what, f"not sent: {target} holds the reasoning it takes back")
        elif isinstance(value, str) and target in TEXT_REASONING_FIELDS:
            message[target] = value  # the same text where the server reads it: a respelling, nothing lost
        else:
            message[target] = moved_reasoning(value, target)
            change = f"sent as {target} ({call.server.reasoning_source})"
            if field == "reasoning_details" and _signed(value):
                change += "; the signatures and encrypted entries are not"
            call.report((*at, field), what, change)


def moved_reasoning(value: object, target: str) -> object:
    """Reasoning of one field's shape in another's: text for the string fields, one
    ``reasoning.text`` entry for ``reasoning_details``."""
    if target != "reasoning_details":
        if isinstance(value, str):
            return value
        entries = [as_dict(entry) or {} for entry in as_list(value) or ()]
        texts = (entry.get("summary" if entry.get("type") == "reasoning.summary" else "text") for entry in entries)
        return "".join(text for text in texts if isinstance(text, str))
    return [{"type": "reasoning.text", "text": value if isinstance(value, str) else "", "index": 0}]


def _signed(details: object) -> bool:
    entries = [as_dict(entry) or {} for entry in as_list(details) or ()]
    return any("signature" in entry or entry.get("type") == "reasoning.encrypted" for entry in entries)


def _drop_signature(tool_call: object, at: Steps, call: ServerCall) -> None:
    """Gemini's thought signature on a tool call, taken out (and ``extra_content`` when
    nothing else is left in it): only Gemini's endpoint reads it, OpenAI refuses the field."""
    fields = as_dict(tool_call)
    extra = as_dict(fields.get("extra_content")) if fields is not None else None
    google = as_dict(extra.get("google")) if extra is not None else None
    if fields is None or extra is None or google is None or "thought_signature" not in google:
        return
    rest_google = {key: value for key, value in google.items() if key != "thought_signature"}
    rest: Mapping[str, Any] = (
        {**extra, "google": rest_google}
        if rest_google
        else {key: value for key, value in extra.items() if key != "google"}
    )
    if rest:
        fields["extra_content"] = dict(rest)
    else:
        del fields["extra_content"]
    call.rule = "thought_signatures"
    why = "not sent: only Gemini's OpenAI-compatible endpoint reads extra_content.google.thought_signature"
    call.report((*at, "extra_content"), "Gemini thought signature", why)
