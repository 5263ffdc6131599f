"""The one-pass sides of Anthropic requests (issue 25): the reading is
:func:`~chatcodec.providers.anthropic.one_pass_decode.decode_request` (re-exported here,
the module the registry and the codec name), the writing is below.

The one-pass writing of an Anthropic request from canonical dicts.

It writes what :func:`~chatcodec.providers.anthropic.request.encode_request` writes, with
the same losses in the same order, for requests made of the common shapes: text,
image (its ``detail`` dropped, reported unless ``auto``), tool-use and string tool-result
parts with no cache marker or bag of their own (another provider's bag on a message,
text, call or result is reported with ``KIT.claim``, as the general encoder reports it; a
result's tool name that its call gives is no loss), thinking from another provider
(dropped and reported, as
:func:`~chatcodec.providers.anthropic.parts.encode_part` drops it), function tools with
names Anthropic accepts, and of Anthropic's options only ``api_version``, ``skip_rules``,
``model`` and ``max_tokens``. Every wire turn is built as it is
read, with no per-turn object and no loss path unless a rule fires.

As on the general path, ``developer`` messages are reported (sent as system) and the
target rules of the API version in force (:mod:`chatcodec.providers.target_rules`) are
applied to the body last.

When a request needs a rule this pass does not write (a turn an empty or whitespace
text would leave out, a prefill ending in whitespace, server tools, cache markers, a
bag, a system message in the middle, a message between tool calls and their results),
it returns ``None`` and the caller runs the general encoder, where every rule lives;
the rules that do fire here (tool ids, tool names, argument parsing, unsigned thinking,
the required ``max_tokens``) call or repeat the general encoder's functions and texts.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from chatcodec._narrow import is_dict
from chatcodec.losses import LossRecorder
from chatcodec.providers.anthropic.markers import DEFAULT_MAX_TOKENS, KIT, OPTIONS, PROVIDER
from chatcodec.providers.anthropic.one_pass_decode import decode_request
from chatcodec.providers.anthropic.rules import RULES
from chatcodec.providers.anthropic.tool_ids import MAPPING
from chatcodec.providers.kit import arguments_object, claude_signed, tool_name
from chatcodec.providers.kit.claude import report_image_detail
from chatcodec.providers.kit.context import RULE_OPTIONS, EncodeContext, read_options
from chatcodec.providers.kit.tool_names import OPENAI_TOOL_NAMES
from chatcodec.providers.one_pass import PLAIN_FIELDS, results_wait
from chatcodec.providers.target_rules import apply_target_rules, carries_nothing
from chatcodec.providers.tool_arguments import input_object

__all__ = ["decode_request", "encode_request"]

_VALID_NAME = OPENAI_TOOL_NAMES.valid.match
_SANITIZE = MAPPING.sanitize
_TOP_KEYS = PLAIN_FIELDS
_TOOL_KEYS = frozenset({"type", "name", "description", "parameters", "strict", "provider_metadata"})
_WIRE_CHOICE_TYPES = {"auto": "auto", "required": "any", "tool": "tool", "none": "none"}
_SYSTEM_ROLES = ("system", "developer")


class _DeclinedError(Exception):
    """A shape this pass does not write: the general encoder writes the request."""


def encode_request(request: dict[str, Any], losses: LossRecorder) -> dict[str, Any] | None:
    """The Anthropic request body for a canonical request dict, or ``None`` when it holds
    a shape only the general encoder writes.

    The request is taken over (the one pass builds it for this call alone): objects that
    read the same in canonical and on the wire (a text part, an image, a tool result, a
    message of a role and a string) go into the output as they are, and may be changed."""
    if not request.keys() <= _TOP_KEYS or request.get("provider_tools") or not _plain_metadata(request):
        return None
    messages: list[dict[str, Any]] = request["messages"]
    if results_wait(messages):
        return None  # the general encoder moves them after the results, with a loss
    for index, message in enumerate(messages):
        if message["role"] == "developer":  # as roles.report_developer_roles reports it
            losses.add(("messages", index, "role"), "developer role", "Anthropic has no developer role; sent as system")
    own = KIT.claim(losses, request.get("provider_options"), ("provider_options",))
    if not own.keys() <= _OWN_KEYS:
        return None  # another option, or a bag of this provider's: the general path reads them
    context = EncodeContext(
        PROVIDER, losses, model=request.get("model"), options=read_options(own, OPTIONS), rules=RULES
    )
    try:
        wire = _encode(request, context, losses)
    except _DeclinedError:
        return None
    # last, as ProviderCodec.encode_request applies them: the rules of the API version in
    # force; this pass writes no document, citation or system turn for a rule to look for
    apply_target_rules(wire, context, holds=())
    return wire


_OWN_KEYS = frozenset({RULE_OPTIONS["api_version"], RULE_OPTIONS["skip_rules"], "model", "max_tokens"})
"""What this pass reads of its own ``provider_options`` bag: the rule options, and the
options ``model`` and ``max_tokens`` (sent when the request has none, read from the
context as the general encoder reads them)."""


def _plain_metadata(request: dict[str, Any]) -> bool:
    """Whether ``metadata`` is Anthropic's as it is (none, or only a string ``user_id``)
    and no OpenAI ``user`` waits to become its ``user_id``: the general encoder's
    ``_encode_metadata`` writes the rest."""
    metadata = request.get("metadata")
    if metadata is not None and (set(metadata) != {"user_id"} or not isinstance(metadata["user_id"], str)):
        return False
    options: dict[str, dict[str, Any]] = request.get("provider_options") or {}
    return not any("user" in (options.get(provider) or {}) for provider in ("openai-chat", "openai-responses"))


def _encode(request: dict[str, Any], context: EncodeContext, losses: LossRecorder) -> dict[str, Any]:
    wire: dict[str, Any] = {}
    model = request["model"] if request.get("model") is not None else context.option("model")
    if model is not None:
        wire["model"] = model
    max_tokens = request["max_tokens"] if request.get("max_tokens") is not None else context.option("max_tokens")
    if max_tokens is None:
        why = f"Anthropic requires it; none was given, sent {DEFAULT_MAX_TOKENS} (set it, or the option 'max_tokens')"
        losses.add(("max_tokens",), "max_tokens", why, "default")
        max_tokens = DEFAULT_MAX_TOKENS
    wire["max_tokens"] = max_tokens
    tools = request.get("tools")
    if tools:
        wire["tools"] = [_tool(tool, index, losses) for index, tool in enumerate(tools)]
    _choice(request, wire)
    messages: list[dict[str, Any]] = request["messages"]
    leading = 0
    while leading < len(messages) and messages[leading]["role"] in _SYSTEM_ROLES:
        leading += 1
    if leading:
        wire["system"] = _system(messages[:leading], losses)
    wire["messages"] = _turns(messages, leading, losses)
    if request.get("stop"):
        wire["stop_sequences"] = list(request["stop"])
    for key in ("temperature", "top_p", "top_k", "metadata", "stream"):
        value = request.get(key)
        if value is not None:
            wire[key] = value
    for key in ("frequency_penalty", "presence_penalty", "seed"):
        value = request.get(key)
        if value is not None and not carries_nothing(key, value):
            losses.add((key,), key, "Anthropic has no such setting", "setting")
    return wire


def _tool(tool: dict[str, Any], index: int, losses: LossRecorder) -> dict[str, Any]:
    if not tool.keys() <= _TOOL_KEYS or not _VALID_NAME(tool["name"]):
        raise _DeclinedError
    metadata = tool.get("provider_metadata")
    if metadata and KIT.claim(losses, metadata, ("tools", index)):  # as tools._encode_tool reports another's
        raise _DeclinedError  # a bag of this provider's: fields the general encoder writes back
    wire = {"name": tool["name"]}
    if tool.get("description") is not None:
        wire["description"] = tool["description"]
    wire["input_schema"] = tool["parameters"]
    if tool.get("strict") is not None:
        wire["strict"] = tool["strict"]
    return wire


def _choice(request: dict[str, Any], wire: dict[str, Any]) -> None:
    """As ``tools._encode_choice`` writes it, for a choice with a valid name."""
    choice = request.get("tool_choice")
    parallel = request.get("parallel_tool_calls")
    if choice is None and parallel is not False:
        return
    kind = "auto" if choice is None else choice["type"]
    encoded: dict[str, Any] = {"type": _WIRE_CHOICE_TYPES[kind]}
    name = None if choice is None else choice.get("name")
    if name is not None:
        if not _VALID_NAME(name):
            raise _DeclinedError
        encoded["name"] = name
    if kind != "none" and parallel is not None:
        encoded["disable_parallel_tool_use"] = not parallel
    elif parallel is False:
        raise _DeclinedError  # a loss the general encoder reports
    wire["tool_choice"] = encoded


def _system(messages: list[dict[str, Any]], losses: LossRecorder) -> str | list[dict[str, Any]]:
    """The top-level ``system``: one message's string as is, else every text in order;
    another provider's bag on one is reported first (``messages.encode_system``)."""
    for index, message in enumerate(messages):
        if len(message) != 2:
            _claim_bag(message, index, losses)
    if len(messages) == 1 and len(messages[0]) == 2 and isinstance(messages[0]["content"], str):
        return messages[0]["content"]
    blocks: list[dict[str, Any]] = []
    for message in messages:
        if len(message) != 2:
            raise _DeclinedError  # a name, a cache marker or a bag: the general encoder reports it
        content = message["content"]
        if isinstance(content, str):
            blocks.append({"type": "text", "text": content})
        elif not content:
            raise _DeclinedError  # an empty system message among others: a loss
        else:
            blocks.extend(_text_block(part) for part in content)
    if not any(not block["text"].isspace() for block in blocks):
        raise _DeclinedError
    for block in blocks:
        if not block["text"]:
            raise _DeclinedError  # dropped with a loss by the general encoder
    return blocks


def _text_block(part: dict[str, Any]) -> dict[str, Any]:
    if len(part) != 2 or part["type"] != "text":
        raise _DeclinedError
    return {"type": "text", "text": part["text"]}


def _turns(messages: list[dict[str, Any]], start: int, losses: LossRecorder) -> list[dict[str, Any]]:
    """The wire ``messages``: tool results and a user message right after them share one
    user turn, results first; every other message is a turn of its own."""
    turns: list[dict[str, Any]] = []
    open_results: list[dict[str, Any]] | None = None  # the blocks of a turn holding tool results
    names = _CallNames(messages)
    for index in range(start, len(messages)):
        message = messages[index]
        if len(message) != 2:
            _claim_bag(message, index, losses)
        role = message["role"]
        content = message["content"]
        if role == "tool":
            if open_results is None:
                open_results = []
                turns.append({"role": "user", "content": open_results})
            for position, part in enumerate(content):
                if len(part) != 3:
                    _check_result(part, index, position, losses, names)
                open_results.append(_result(part))
        elif role == "user":
            if open_results is not None:
                open_results.extend(_user_blocks(content, index, losses))
                open_results = None
            else:
                message["content"] = _user_content(content, index, losses)
                turns.append(message)
        elif role == "assistant":
            open_results = None
            message["content"] = _assistant_content(content, index, losses, names)
            turns.append(message)
        else:
            raise _DeclinedError  # a system message mid-conversation, a text message
    if turns and turns[-1]["role"] == "assistant":
        _check_prefill(turns[-1]["content"])
    return [turn for turn in turns if turn["content"]]


def _claim_bag(message: dict[str, Any], index: int, losses: LossRecorder) -> None:
    """Another provider's bag on a message, reported as ``messages._merge_bag`` reports
    it; a name, a cache marker or a bag of this provider's own: the general path."""
    if len(message) != 3 or "provider_metadata" not in message:
        raise _DeclinedError
    if KIT.claim(losses, message.pop("provider_metadata"), ("messages", index)):
        raise _DeclinedError


def _text(part: dict[str, Any]) -> dict[str, Any]:
    text = part["text"]
    if not text or text.isspace():
        raise _DeclinedError  # dropped (or its turn left out) with a loss by the general encoder
    return part


def _result(part: dict[str, Any]) -> dict[str, Any]:
    result = part.get("content")
    if result is None or not (isinstance(result, str) or all(map(_plain_text, result))):
        raise _DeclinedError
    part["tool_use_id"] = _SANITIZE(part["tool_use_id"])
    return part


def _plain_text(part: dict[str, Any]) -> bool:
    """A text part of a tool result that reads the same on the wire (Bedrock and Gemini
    results hold their text so): an empty or blank one has rules of its own."""
    return len(part) == 2 and part["type"] == "text" and not part["text"].isspace() and bool(part["text"])


_RESULT_KEYS = frozenset({"type", "tool_use_id", "content", "name", "provider_metadata"})


def _check_result(part: dict[str, Any], index: int, position: int, losses: LossRecorder, names: _CallNames) -> None:
    """A result with a tool name or another provider's bag, as ``parts._encode_tool_result``
    writes it: the bag reported (``KIT.claim``) and left out, the name left out without a
    loss when its call names the same tool; an error flag, a cache marker, this provider's
    own bag or a name no call gives (a loss): the general path."""
    if not part.keys() <= _RESULT_KEYS:
        raise _DeclinedError
    if "provider_metadata" in part and KIT.claim(
        losses, part.pop("provider_metadata"), ("messages", index, "content", position)
    ):
        raise _DeclinedError
    name = part.pop("name", None)
    if name is not None and names.lookup(part["tool_use_id"], index) != name:
        raise _DeclinedError


class _CallNames:
    """Tool names by call id over the whole request, as ``request._names`` gives them to
    a result that names its tool (the last call of an id wins): recorded as the calls are
    written, and the messages after the first result with a name read once, then."""

    __slots__ = ("complete", "messages", "names")

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages
        self.names: dict[str, str] = {}
        self.complete = False

    def record(self, call_id: str, name: str) -> None:
        if not self.complete:
            self.names[call_id] = name

    def lookup(self, call_id: str, index: int) -> str | None:
        """The name of the last call ``call_id`` for a result in message ``index``."""
        if not self.complete:
            self.complete = True  # the later calls are read now: recording them again would undo "last wins"
            for message in self.messages[index + 1 :]:
                content = message["content"]
                if message["role"] == "assistant" and not isinstance(content, str):
                    self.names.update((part["id"], part["name"]) for part in content if part["type"] == "tool_use")
        return self.names.get(call_id)


def _user_content(content: str | list[dict[str, Any]], index: int, losses: LossRecorder) -> str | list[dict[str, Any]]:
    if isinstance(content, str):
        if not content.strip():
            raise _DeclinedError
        return content
    return _user_blocks(content, index, losses)


def _user_blocks(content: str | list[dict[str, Any]], index: int, losses: LossRecorder) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [_text({"type": "text", "text": content})]
    if not content:
        raise _DeclinedError  # "message with no content": a loss
    for position, part in enumerate(content):
        kind = part["type"]
        if kind == "text" and len(part) == 2:
            _text(part)
        elif kind != "image" or not _same_source(part["source"]):
            raise _DeclinedError
        elif len(part) != 2:
            _drop_detail(part, index, position, losses)
    return content


def _drop_detail(part: dict[str, Any], index: int, position: int, losses: LossRecorder) -> None:
    """An image's ``detail`` (OpenAI's resolution hint), which Anthropic has no field for,
    dropped as ``parts._encode_image`` drops it; a cache marker or a bag: the general path."""
    if len(part) != 3 or "detail" not in part:
        raise _DeclinedError
    detail = part.pop("detail")
    if detail != "auto":  # the path only when the rule fires
        report_image_detail(detail, losses, ("messages", index, "content", position), "Anthropic")


def _same_source(source: dict[str, Any]) -> bool:
    """Whether Anthropic spells the image source as canonical does: base64, or a URL
    with no media type (which Anthropic URL sources lack: a loss), not a file."""
    kind = source["type"]
    return (kind == "base64" and len(source) == 3) or (kind == "url" and len(source) == 2)


def _assistant_content(content: str | list[dict[str, Any]], index: int, losses: LossRecorder, names: _CallNames) -> Any:
    if isinstance(content, str):
        if not content.strip():
            raise _DeclinedError
        return content
    if not content:
        raise _DeclinedError
    blocks: list[dict[str, Any]] = []
    for position, part in enumerate(content):
        kind = part["type"]
        if kind == "tool_use":
            if len(part) != 4:
                _claim_part(part, _BAGGED_CALL_KEYS, index, position, losses)
            blocks.append(_tool_use(part, index, position, losses, names))
        elif kind == "text":
            if len(part) != 2:
                _claim_part(part, _BAGGED_TEXT_KEYS, index, position, losses)
            blocks.append(_text(part))
        elif kind == "thinking":
            _drop_thinking(part, index, position, losses)
        else:
            raise _DeclinedError
    return blocks


_BAGGED_CALL_KEYS = frozenset({"type", "id", "name", "arguments", "provider_metadata"})
_BAGGED_TEXT_KEYS = frozenset({"type", "text", "provider_metadata"})


def _claim_part(part: dict[str, Any], keys: frozenset[str], index: int, position: int, losses: LossRecorder) -> None:
    """Another provider's bag on a part (of ``keys`` at most, its required ones present),
    reported as ``parts._bag`` reports it (``KIT.claim``) and left out of the block; a
    cache marker, this provider's own bag or a key missing: the general path."""
    if len(part) != len(keys) or not part.keys() <= keys:
        raise _DeclinedError
    if KIT.claim(losses, part.pop("provider_metadata"), ("messages", index, "content", position)):
        raise _DeclinedError


def _tool_use(
    part: dict[str, Any], index: int, position: int, losses: LossRecorder, names: _CallNames
) -> dict[str, Any]:
    name = part["name"]
    names.record(part["id"], name)
    if not _VALID_NAME(name):
        name = tool_name(name, losses, ("messages", index, "content", position), PROVIDER)
    return {
        "type": "tool_use",
        "id": _SANITIZE(part["id"]),
        "name": name,
        "input": _input(part["arguments"], index, position, losses),
    }


def _input(arguments: str, index: int, position: int, losses: LossRecorder) -> Any:
    """As ``parts.tool_input``: the arguments object (``tool_arguments.input_object``),
    whose path is built only when the text is not a plain, exact object."""
    parsed, exact = arguments_object(arguments)
    if exact and is_dict(parsed) and type(parsed) is dict:
        return parsed
    return input_object(arguments, losses, ("messages", index, "content", position), "Anthropic")


def _drop_thinking(part: dict[str, Any], index: int, position: int, losses: LossRecorder) -> None:
    """Unsigned thinking from another provider, dropped as ``parts._encode_thinking`` drops it."""
    if not part.keys() <= _FOREIGN_THINKING_KEYS:
        raise _DeclinedError  # redacted, encrypted, cached, or from a Claude model
    why = _dropped_why(part.get("provider"))
    if why is None:
        raise _DeclinedError
    losses.add(("messages", index, "content", position), "thinking part", why)


_FOREIGN_THINKING_KEYS = frozenset({"type", "text", "signature", "provider", "provider_metadata"})


@cache
def _dropped_why(provider: str | None) -> str | None:
    """Why thinking from ``provider`` (no model named) is dropped; ``None`` when Anthropic
    may have signed it (the general encoder's rules decide)."""
    if provider in (PROVIDER, None) or claude_signed(provider, None):
        return None
    return f"produced by {provider!r}, not Anthropic; replaying it would get 400 'Invalid signature'"


def _check_prefill(content: str | list[dict[str, Any]]) -> None:
    """A final assistant turn ending in whitespace is trimmed, a loss: the general path."""
    if isinstance(content, str):
        if content != content.rstrip():
            raise _DeclinedError
    elif content and content[-1]["type"] == "text" and content[-1]["text"] != content[-1]["text"].rstrip():
        raise _DeclinedError
