"""The one-pass writing of a Gemini ``generateContent`` request from canonical dicts (issue 25).

It writes what :func:`~chatcodec.providers.gemini.request.encode_request` writes, with the
same losses in the same order, for requests made of the common shapes: system, user,
assistant and tool messages of text, image and audio parts (base64, or a URL whose
missing ``mimeType`` is guessed and reported by ``media.file_mime_type``), tool calls
and string tool results, reasoning from another provider (dropped and reported by
``parts.drop_foreign_thought``), function tools, a tool choice, the sampling settings,
and of Gemini's options only ``api_version``, ``skip_rules`` and ``missing_signature``.
Each wire turn is built as it is read; the thought-signature rule of Gemini 3 runs on
the finished contents (``signatures.sign_or_report``), and the target rules last, as on
the general path. Tool results join the user turn of the results before them; a loss
path is built only when a rule fires.

Anything rarer (a bag of Gemini's own, a name or a cache marker, a developer message, a
system message after the start, documents, an image ``detail``, a refusal, an opaque
part, media results, reasoning or output-format settings, a message between tool calls
and their results, arguments that are not an object, an empty id, a result whose call
is not known yet) is declined and the general encoder writes the request.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import from_json

from chatcodec._narrow import is_dict
from chatcodec.losses import LossRecorder
from chatcodec.providers.gemini.markers import KIT, OPTIONS, PROVIDER
from chatcodec.providers.gemini.media import file_mime_type, is_base64, media_kind
from chatcodec.providers.gemini.parts import drop_foreign_thought
from chatcodec.providers.gemini.request import report_unmapped
from chatcodec.providers.gemini.results import parsed_object, response_object
from chatcodec.providers.gemini.rules import RULES
from chatcodec.providers.gemini.signatures import missing_signature_policy, needs_signatures, sign_or_report
from chatcodec.providers.kit.context import RULE_OPTIONS, EncodeContext, read_options
from chatcodec.providers.kit.tool_names import GEMINI_TOOL_NAMES, tool_name
from chatcodec.providers.one_pass import PLAIN_FIELDS, results_wait
from chatcodec.providers.target_rules import apply_target_rules

_VALID_NAME = GEMINI_TOOL_NAMES.valid.match
_TOP_KEYS = PLAIN_FIELDS
_OWN_KEYS = frozenset({RULE_OPTIONS["api_version"], RULE_OPTIONS["skip_rules"], "missing_signature"})
"""What this pass reads of its own ``provider_options`` bag: the rule options and
``missing_signature``; any other key (``tools_layout``, a field to write) declines."""
_MESSAGE_KEYS = frozenset({"role", "content", "provider_metadata"})
_TOOL_KEYS = frozenset({"type", "name", "description", "parameters", "provider_metadata"})  # "type": the tag
_WIRE_MODES = {"auto": "AUTO", "none": "NONE", "required": "ANY", "tool": "ANY"}
_SETTINGS = (
    ("temperature", "temperature"),
    ("top_p", "topP"),
    ("seed", "seed"),
    ("presence_penalty", "presencePenalty"),
    ("frequency_penalty", "frequencyPenalty"),
    ("top_k", "topK"),
    ("max_tokens", "maxOutputTokens"),
)


class _DeclinedError(Exception):
    """A shape this pass does not write: the general encoder writes the request."""


def encode_request(request: dict[str, Any], losses: LossRecorder) -> dict[str, Any] | None:
    """The Gemini request body for a canonical request dict, or ``None`` when it holds a
    shape only the general encoder writes."""
    if not request.keys() <= _TOP_KEYS or request.get("provider_tools") or request.get("parallel_tool_calls") is False:
        return None
    messages: list[dict[str, Any]] = request["messages"]
    if results_wait(messages):
        return None  # the general encoder moves them after the results, with a loss
    own = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    if not own.keys() <= _OWN_KEYS:
        return None
    context = EncodeContext(
        PROVIDER, losses, model=request.get("model"), options=read_options(own, OPTIONS), rules=RULES
    )
    try:
        wire = _encode(request, messages, context)
    except _DeclinedError:
        return None
    apply_target_rules(wire, context)
    return wire


def _encode(request: dict[str, Any], messages: list[dict[str, Any]], context: EncodeContext) -> dict[str, Any]:
    losses = context.losses
    wire: dict[str, Any] = {}
    leading = 0
    while leading < len(messages) and messages[leading]["role"] == "system":
        leading += 1
    if leading:
        parts: list[dict[str, Any]] = []
        for index in range(leading):
            parts.extend(_user_parts(messages[index], index, losses))
        wire["systemInstruction"] = {"parts": parts}
    writer = _Contents(losses)
    wire["contents"] = contents = writer.write(messages, leading)
    if needs_signatures(context.model):
        _sign(contents, writer.sources, messages, context)
    tools = request.get("tools")
    if tools:
        wire["tools"] = [
            {"functionDeclarations": [_declaration(tool, index, losses) for index, tool in enumerate(tools)]}
        ]
    choice = request.get("tool_choice")
    if choice is not None:
        calling: dict[str, Any] = {"mode": _WIRE_MODES[choice["type"]]}
        if choice.get("name") is not None:
            calling["allowedFunctionNames"] = [_name(choice["name"], losses, ("tool_choice",))]
        wire["toolConfig"] = {"functionCallingConfig": calling}
    config: dict[str, Any] = {}
    for key, wire_key in _SETTINGS:
        value = request.get(key)
        if value is not None:
            config[wire_key] = value
    if request.get("stop"):
        config["stopSequences"] = list(request["stop"])
    if config:
        wire["generationConfig"] = config
    report_unmapped(request.get("stream"), request.get("metadata"), None, losses)
    return wire


def _name(name: str, losses: LossRecorder, at: tuple[str | int, ...]) -> str:
    return name if _VALID_NAME(name) else tool_name(name, losses, at, PROVIDER, GEMINI_TOOL_NAMES)


def _declaration(tool: dict[str, Any], index: int, losses: LossRecorder) -> dict[str, Any]:
    """As ``tools._encode_declaration`` writes a tool from another format."""
    if not tool.keys() <= _TOOL_KEYS:
        raise _DeclinedError  # strict, a cache marker: losses the general encoder reports
    if "provider_metadata" in tool and KIT.claim(losses, tool["provider_metadata"], ("tools", index)):
        raise _DeclinedError
    declaration: dict[str, Any] = {"name": _name(tool["name"], losses, ("tools", index))}
    if tool.get("description") is not None:
        declaration["description"] = tool["description"]
    declaration["parametersJsonSchema"] = tool.get("parameters", {"type": "object", "properties": {}})
    return declaration


def _claim(message: dict[str, Any], losses: LossRecorder, at: tuple[str | int, ...]) -> None:
    """Another provider's bag on a message or part, reported as ``KIT.claim`` reports it;
    one of Gemini's own: the general path."""
    if KIT.claim(losses, message["provider_metadata"], at):
        raise _DeclinedError


def _user_parts(message: dict[str, Any], index: int, losses: LossRecorder) -> list[dict[str, Any]]:
    """The wire parts of a system or user message (text and media)."""
    if len(message) != 2:
        _check_message(message, index, losses)
    content = message["content"]
    if isinstance(content, str):
        return [{"text": content}]
    parts: list[dict[str, Any]] = []
    for position, part in enumerate(content):
        if len(part) != 2:
            _check_part(part, index, position, losses)
        kind = part["type"]
        if kind == "text":
            parts.append({"text": part["text"]})
        elif kind in ("image", "audio"):
            parts.append(_media(part, index, position, losses))
        else:
            raise _DeclinedError
    return parts


def _check_message(message: dict[str, Any], index: int, losses: LossRecorder) -> None:
    if not message.keys() <= _MESSAGE_KEYS:
        raise _DeclinedError  # a name or a cache marker: losses the general encoder reports
    if "provider_metadata" in message:
        _claim(message, losses, ("messages", index))


def _check_part(part: dict[str, Any], index: int, position: int, losses: LossRecorder) -> None:
    if "cache_control" in part:
        raise _DeclinedError
    if "provider_metadata" in part:
        _claim(part, losses, ("messages", index, "content", position))


def _media(part: dict[str, Any], index: int, position: int, losses: LossRecorder) -> dict[str, Any]:
    """As ``media.encode_media`` writes an image or audio part with no bag of Gemini's."""
    if len(part) != 2 and part.keys() != {"type", "source", "provider_metadata"}:
        raise _DeclinedError  # an image detail: a mediaResolution
    source = part["source"]
    kind = source["type"]
    if kind == "base64" and len(source) == 3:
        media_type = source["media_type"]
        if media_kind(media_type, "user") != part["type"] or not is_base64(source["data"]):
            raise _DeclinedError  # reported by the general encoder
        return {"inlineData": {"mimeType": media_type, "data": source["data"]}}
    if kind != "url":
        raise _DeclinedError
    media_type = source.get("media_type")
    if media_type is None:
        media_type = file_mime_type(part["type"], source["url"], losses, ("messages", index, "content", position))
    if media_kind(media_type, "user") != part["type"]:
        raise _DeclinedError
    return {"fileData": {"fileUri": source["url"], "mimeType": media_type}}


class _Contents:
    """The wire ``contents`` of a conversation, written turn by turn, with the index of
    the message each turn starts with (for the signature rule's loss paths)."""

    __slots__ = ("losses", "names", "sources", "valid")

    def __init__(self, losses: LossRecorder) -> None:
        self.losses = losses
        self.names: dict[str, str] = {}
        """Tool names by call id, for the results (a Gemini result names its function)."""
        self.valid: set[str] = set()
        """Names Gemini takes as they are (checked once each, not at every call and result)."""
        self.sources: list[int] = []

    def write(self, messages: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
        contents: list[dict[str, Any]] = []
        results: list[dict[str, Any]] | None = None  # the parts of the open user turn of results
        for index in range(start, len(messages)):
            message = messages[index]
            role = message["role"]
            if role == "tool":
                if len(message) != 2:
                    _check_message(message, index, self.losses)
                if results is None:
                    results = []
                    contents.append({"role": "user", "parts": results})
                    self.sources.append(index)
                for position, part in enumerate(message["content"]):
                    results.append(self._result(part, index, position))
                continue
            results = None
            if role == "assistant":
                contents.append({"role": "model", "parts": self._model_parts(message, index)})
            elif role == "user":
                contents.append({"role": "user", "parts": _user_parts(message, index, self.losses)})
            else:
                raise _DeclinedError  # a system message after the start: sent as user text, a loss
            self.sources.append(index)
        return contents

    def _model_parts(self, message: dict[str, Any], index: int) -> list[dict[str, Any]]:
        if len(message) != 2:
            _check_message(message, index, self.losses)
        content = message["content"]
        if isinstance(content, str):
            return [{"text": content}]
        parts: list[dict[str, Any]] = []
        for position, part in enumerate(content):
            kind = part["type"]
            if kind == "tool_use":
                parts.append(self._call(part, index, position))
            elif kind == "text" and len(part) == 2:
                parts.append({"text": part["text"]})
            elif kind == "thinking":
                self._drop_thinking(part, index, position)
            else:
                raise _DeclinedError
        return parts

    def _drop_thinking(self, part: dict[str, Any], index: int, position: int) -> None:
        """Reasoning from another provider, dropped as ``parts._encode_thought`` drops it."""
        if "cache_control" in part or part.get("provider") == PROVIDER:
            raise _DeclinedError
        at = ("messages", index, "content", position)
        if "provider_metadata" in part:
            _claim(part, self.losses, at)
        drop_foreign_thought(part.get("provider"), self.losses, at)

    def _call(self, part: dict[str, Any], index: int, position: int) -> dict[str, Any]:
        """As ``parts.encode_call`` writes a call from another format: name, args, id."""
        if len(part) != 4:
            _check_part(part, index, position, self.losses)
        call_id: str = part["id"]
        name: str = part["name"]
        if not call_id or call_id in self.names:
            raise _DeclinedError  # an empty id is reported; a repeated one names its results twice
        self.names[call_id] = name
        args = _arguments(part["arguments"])
        if args is None:
            raise _DeclinedError  # reported by the general encoder
        if name not in self.valid:
            if _VALID_NAME(name):
                self.valid.add(name)
            else:
                at = ("messages", index, "content", position)
                name = tool_name(name, self.losses, at, PROVIDER, GEMINI_TOOL_NAMES)
        return {"functionCall": {"name": name, "args": args, "id": call_id}}

    def _result(self, part: dict[str, Any], index: int, position: int) -> dict[str, Any]:
        """As ``results.encode_result`` writes a text result from another format (the loss
        path is built only when a rule reports)."""
        content = part.get("content")
        if not part.keys() <= _RESULT_KEYS or not isinstance(content, str):
            raise _DeclinedError
        if "provider_metadata" in part:
            _claim(part, self.losses, ("messages", index, "content", position))
        call_id: str = part["tool_use_id"]
        name = part.get("name") or self.names.get(call_id)
        if name is None or not call_id:
            raise _DeclinedError  # no name known, or an empty id: reported by the general encoder
        if name not in self.valid and name.strip() and not _VALID_NAME(name):
            at = ("messages", index, "content", position)
            name = tool_name(name, self.losses, at, PROVIDER, GEMINI_TOOL_NAMES)
        response = response_object(content, part.get("is_error", False))
        return {"functionResponse": {"name": name, "response": response, "id": call_id}}


_RESULT_KEYS = frozenset({"type", "tool_use_id", "content", "is_error", "name", "provider_metadata"})

_FLAT = frozenset({str, int, bool, type(None)})


def _arguments(text: str) -> dict[str, Any] | None:
    """``results.parsed_object(text)``, with its usual case read in one step: an object
    of strings, integers, booleans and nulls holds no float, so none that overflowed to
    infinity, which ``payloads.loads`` writes the value back to look for. Anything else
    (a float, nesting, text pydantic-core refuses, empty text) goes through it."""
    try:
        parsed: object = from_json(text, allow_inf_nan=False)
    except (ValueError, TypeError):
        return parsed_object(text)
    if is_dict(parsed) and type(parsed) is dict and _FLAT.issuperset(map(type, parsed.values())):
        return parsed
    return parsed_object(text)


def _sign(
    contents: list[dict[str, Any]], sources: list[int], messages: list[dict[str, Any]], context: EncodeContext
) -> None:
    """The Gemini 3 signature rule (:mod:`.signatures`) on the finished contents: the first
    call of each model step after the last user prompt, none of which is signed here."""
    start = 0
    for position in range(len(contents) - 1, -1, -1):
        turn = contents[position]
        if turn["role"] == "user" and any("functionResponse" not in part for part in turn["parts"]):
            start = position
            break
    policy = missing_signature_policy(context.option("missing_signature"))
    for position in range(start, len(contents)):
        turn = contents[position]
        if turn["role"] != "model":
            continue
        first = next((part for part in turn["parts"] if "functionCall" in part), None)
        if first is None:
            continue
        index = sources[position]
        content = messages[index]["content"]
        call = next(number for number, part in enumerate(content) if part["type"] == "tool_use")
        sign_or_report(first, ("messages", index, "content", call), policy, context.losses)
