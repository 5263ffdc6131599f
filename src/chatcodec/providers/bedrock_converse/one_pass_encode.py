"""The one-pass writing of a Converse request from canonical dicts (issue 25).

It writes what :func:`~chatcodec.providers.bedrock_converse.request.encode_request`
writes, with the same losses in the same order, for requests made of the common shapes:
leading system text, user, assistant and tool messages of text, base64 images, tool
calls, string tool results and thinking from another provider (dropped or sent as text,
reported, as :func:`~chatcodec.providers.bedrock_converse.thinking.encode_thinking`
does), function tools with a plain choice, ``inferenceConfig``'s fields, and of Bedrock's
options ``unsigned_thinking``, ``tool_result_status`` and the rule options. Each wire turn
is built as it is read, with no per-turn object and no loss path unless a rule fires.

A part outside those shapes (an image by URL, a document, a tool result of parts,
Bedrock's own or Claude's thinking) is written by the general encoder's
:func:`~chatcodec.providers.bedrock_converse.parts.encode_blocks`, from its canonical
model built then, so every part rule stays in one place; rewritten tool ids and names
go through ``parts.tool_use_id`` and ``parts.tool_name``. The target rules of the API
version in force are applied to the body last, as on the general path.

When a request needs a turn-level rule this pass does not write (a blank text or a turn
left empty, both dropped; two turns of one role, merged; a prefill ending in whitespace,
trimmed; a message between tool calls and their results, moved; a system or developer
message after the first turn, a name, a cache marker, a bag of Bedrock's own, an opaque
part, reasoning settings, a response format, a parallel-calls switch, a service tier),
it returns ``None`` and the caller runs the general encoder, where every rule lives.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from chatcodec.losses import LossRecorder, Steps
from chatcodec.providers import service_tiers
from chatcodec.providers.bedrock_converse.context import BedrockContext, StatusPolicy
from chatcodec.providers.bedrock_converse.markers import KIT, OPTIONS, PROVIDER
from chatcodec.providers.bedrock_converse.one_pass_decode import IMAGE_TYPES
from chatcodec.providers.bedrock_converse.rules import RULES
from chatcodec.providers.bedrock_converse.thinking import DROPPED, SENT_AS_TEXT, is_base64, unverifiable_why
from chatcodec.providers.bedrock_converse.tool_ids import MAPPING
from chatcodec.providers.kit import arguments_object, is_claude_model
from chatcodec.providers.kit.claude import CLAUDE_SIGNERS
from chatcodec.providers.kit.context import RULE_OPTIONS, read_options
from chatcodec.providers.kit.tool_names import OPENAI_TOOL_NAMES
from chatcodec.providers.one_pass import PLAIN_FIELDS
from chatcodec.providers.target_rules import apply_target_rules, carries_nothing
from chatcodec.providers.tool_arguments import input_object

_VALID_NAME = OPENAI_TOOL_NAMES.valid.match
_SANITIZE = MAPPING.sanitize
_KEPT_IDS: set[str] = set()
_KEPT_NAMES: set[str] = set()
"""Ids and tool names seen sent as they are (the id rewrite and the name rule left them
alone): each id is sent twice a request (call and result) and both in every request of a
session, so a set look-up spares the rule's call (about a tenth of this encode). Only
unchanged ones are kept, so a rewrite is reported every time; bounded by :data:`_KEPT_MAX`."""
_KEPT_MAX = 4096
_IMAGE_FORMATS = {media: name for name, media in IMAGE_TYPES.items()} | {"image/jpg": "jpeg"}
"""Media type -> botocore ``ImageFormat`` (``parts._IMAGE_FORMATS``)."""

_TOP_KEYS = PLAIN_FIELDS - {"parallel_tool_calls"}  # the general encoder writes the switch
_UNSUPPORTED = ("top_k", "frequency_penalty", "presence_penalty", "seed", "metadata", "stream")
"""``request.UNSUPPORTED``: settings Converse has no field for (a test holds them equal)."""
_OWN_KEYS = frozenset({"unsigned_thinking", "tool_result_status", *RULE_OPTIONS.values()})
"""What this pass reads of its own ``provider_options`` bag: this encoder's options."""
_INFERENCE = (("max_tokens", "maxTokens"), ("temperature", "temperature"), ("top_p", "topP"))
_TOOL_KEYS = frozenset({"type", "name", "description", "parameters", "strict", "provider_metadata"})
_WIRE_CHOICES = {"auto": "auto", "required": "any"}
_RESULT_KEYS = frozenset({"type", "tool_use_id", "content", "is_error"})
_FOREIGN_THINKING_KEYS = frozenset({"type", "text", "signature", "provider", "model", "provider_metadata"})


class _DeclinedError(Exception):
    """A shape this pass does not write: the general encoder writes the request."""


def encode_request(request: dict[str, Any], losses: LossRecorder) -> dict[str, Any] | None:
    """The Converse request body for a canonical request dict, or ``None`` when it holds
    a shape only the general encoder writes. The request is only read."""
    if not request.keys() <= _TOP_KEYS or request.get("provider_tools"):
        return None
    options = request.get("provider_options")
    if options:  # none: no tier and no options (``from_openai`` loops over OpenAI's bags)
        tier, options = service_tiers.from_openai(options)
        if tier is not None:
            return None
    own = KIT.claim(losses, options, ("provider_options",))
    if not own.keys() <= _OWN_KEYS:
        return None  # fields of Bedrock's own to write back: the general path
    read = read_options(own, OPTIONS)
    status: StatusPolicy = "source"
    if read.get("tool_result_status") == "always":
        status = "always"
    elif read.get("tool_result_status") == "never":
        status = "never"
    context = BedrockContext(
        PROVIDER,
        losses,
        model=request.get("model"),
        options=read,
        rules=RULES,
        unsigned_thinking="text" if read.get("unsigned_thinking") == "text" else "drop",
        tool_result_status=status,
    )
    try:
        wire = _encode(request, context)
    except _DeclinedError:
        return None
    # last, as ProviderCodec.encode_request applies them; this pass writes no system turn
    apply_target_rules(wire, context, holds=())
    return wire


def _encode(request: dict[str, Any], context: BedrockContext) -> dict[str, Any]:
    wire: dict[str, Any] = {}
    model = request.get("model")
    if model is not None:
        wire["modelId"] = model
    messages: list[dict[str, Any]] = request["messages"]
    leading = 0
    while leading < len(messages) and messages[leading]["role"] == "system":
        leading += 1
    wire["messages"] = _turns(messages, leading, context)
    if leading:
        system = messages[:leading]
        wire["system"] = [
            block for index, message in enumerate(system) for block in _system_blocks(message, index, context.losses)
        ]
    config: dict[str, Any] = {}
    for canonical_key, wire_key in _INFERENCE:
        value = request.get(canonical_key)
        if value is not None:
            config[wire_key] = value
    if request.get("stop"):
        config["stopSequences"] = list(request["stop"])
    if config:
        wire["inferenceConfig"] = config
    _tools(request, wire, context)
    for key in _UNSUPPORTED:
        value = request.get(key)
        if value is not None and not carries_nothing(key, value):
            from chatcodec.providers.bedrock_converse.request import UNSUPPORTED_WHY

            context.losses.add((key,), key, UNSUPPORTED_WHY, "setting")
    return wire


def _system_blocks(message: dict[str, Any], index: int, losses: LossRecorder) -> list[dict[str, Any]]:
    """A leading system message's blocks, another provider's bag on it reported first
    (``messages.encode_system``)."""
    if len(message) != 2:
        _claim_bag(message, index, losses)  # a name, a cache marker or a bag of Bedrock's: the general path
    content = message["content"]
    if isinstance(content, str):
        return [_text(content)]
    blocks: list[dict[str, Any]] = []
    for part in content:
        if len(part) != 2 or part["type"] != "text":
            raise _DeclinedError
        blocks.append(_text(part["text"]))
    return blocks


def _text(text: str) -> dict[str, Any]:
    if not text.strip():
        raise _DeclinedError  # dropped with a loss by the general encoder
    return {"text": text}


def _turns(messages: list[dict[str, Any]], start: int, context: BedrockContext) -> list[dict[str, Any]]:
    """The wire turns: tool results and a user message right after them share one user
    turn, results first; every other message is a turn of its own."""
    turns: list[dict[str, Any]] = []
    joinable: list[dict[str, Any]] | None = None  # the content of a user turn of tool results
    calls_open = between = False  # calls wait for results; a user message came in between
    for index in range(start, len(messages)):
        message = messages[index]
        if len(message) != 2:
            _claim_bag(message, index, context.losses)
        role = message["role"]
        content = message["content"]
        if role == "tool":
            if between:
                raise _DeclinedError  # moved after the results, a loss (result_order)
            calls_open = False
            if joinable is None:
                joinable = _new_turn(turns, "user")
            _results(message, joinable, index, context)
            continue
        if role == "user":
            between = calls_open
            blocks = joinable if joinable is not None else _new_turn(turns, "user")
            _add_blocks(message, content, blocks, index, context)
        elif role == "assistant":
            calls_open = _add_blocks(message, content, _new_turn(turns, "assistant"), index, context)
            between = False
        else:
            raise _DeclinedError  # a system message later, a developer or text message
        joinable = None
    if any(not turn["content"] for turn in turns):
        raise _DeclinedError  # "empty message": dropped with a loss
    if turns and turns[-1]["role"] == "assistant" and (context.model is None or is_claude_model(context.model)):
        last = turns[-1]["content"][-1]
        if "text" in last and last["text"] != last["text"].rstrip():
            raise _DeclinedError  # a prefill the general encoder trims, a loss
    return turns


def _new_turn(turns: list[dict[str, Any]], role: str) -> list[dict[str, Any]]:
    if turns and turns[-1]["role"] == role:
        raise _DeclinedError  # merged into the turn before, a loss
    content: list[dict[str, Any]] = []
    turns.append({"role": role, "content": content})
    return content


def _claim_bag(message: dict[str, Any], index: int, losses: LossRecorder) -> None:
    """Another provider's bag on a message, reported as ``messages._add`` reports it; a
    name, a cache marker or a bag of Bedrock's own (markers too): the general path."""
    if len(message) != 3 or "provider_metadata" not in message:
        raise _DeclinedError
    if KIT.claim(losses, message["provider_metadata"], ("messages", index)):
        raise _DeclinedError


def _add_blocks(
    message: dict[str, Any],
    content: str | list[dict[str, Any]],
    blocks: list[dict[str, Any]],
    index: int,
    context: BedrockContext,
) -> bool:
    """Append the blocks of ``message`` to ``blocks``; whether it holds tool calls."""
    if isinstance(content, str):
        blocks.append(_text(content))
        return False
    calls = False
    for position, part in enumerate(content):
        kind = part["type"]
        block: dict[str, Any] | None
        if kind == "text" and len(part) == 2:
            block = _text(part["text"])
        elif kind == "tool_use" and len(part) == 4:
            block = _tool_use(part, index, position, context)
            calls = True
        elif kind == "image":
            block = _image(part, ("messages", index, "content", position), context)
            if block is _GENERAL:
                block = _general(message, position, index, context)
        elif kind == "thinking":
            block = _thinking(part, ("messages", index, "content", position), context)
            if block is _GENERAL:
                block = _general(message, position, index, context)
        else:
            calls = calls or kind == "tool_use"
            block = _general(message, position, index, context)
        if block is not None:
            blocks.append(block)
    return calls


_GENERAL: dict[str, Any] = {}
"""What :func:`_thinking` answers for a part the general encoder writes."""


def _image(part: dict[str, Any], at: Steps, context: BedrockContext) -> dict[str, Any] | None:
    """A base64 image Bedrock takes as it is, or an image by an ``http(s)`` URL, not sent
    and reported (as ``parts._encode_image``); :data:`_GENERAL` for any other."""
    source = part["source"]
    if len(part) != 2:
        return _GENERAL  # a detail hint, a cache marker or a bag
    if source["type"] == "url" and len(source) == 2 and not source["url"].startswith("s3://"):
        from chatcodec.providers.bedrock_converse.parts import URL_WHY

        context.losses.add((*at, "source"), "image by URL", URL_WHY)
        return None
    if source["type"] != "base64" or len(source) != 3:
        return _GENERAL
    image_format = _IMAGE_FORMATS.get(source["media_type"].lower())
    if image_format is None or not is_base64(source["data"]):
        return _GENERAL
    return {"image": {"format": image_format, "source": {"bytes": source["data"]}}}


def _thinking(part: dict[str, Any], at: Steps, context: BedrockContext) -> dict[str, Any] | None:
    """Thinking from a provider that is not Claude's, which Bedrock cannot verify: dropped,
    or sent as text by the ``unsigned_thinking`` option, reported (as
    ``thinking.encode_thinking``)."""
    provider = part.get("provider")
    if provider is None or provider in CLAUDE_SIGNERS or not part.keys() <= _FOREIGN_THINKING_KEYS:
        return _GENERAL
    text = part.get("text", "")
    if context.unsigned_thinking == "text" and text:
        context.losses.add(at, "thinking part", unverifiable_why(provider) + SENT_AS_TEXT)
        return _text(text)
    context.losses.add(at, "thinking part", _dropped_why(provider))
    return None


@cache
def _dropped_why(provider: str) -> str:
    """``thinking.encode_thinking``'s text for a dropped part (once per provider: a session
    sends one in every assistant turn)."""
    return unverifiable_why(provider) + DROPPED


def _general(message: dict[str, Any], position: int, index: int, context: BedrockContext) -> dict[str, Any] | None:
    """The block the general encoder writes for the part at ``position`` of ``message``
    (its canonical model built here, on this rare path), losses included."""
    if message["content"][position]["type"] == "opaque":
        raise _DeclinedError  # a call the history rules may leave unsent
    from chatcodec.messages import MESSAGE_ADAPTER
    from chatcodec.providers.bedrock_converse.parts import encode_blocks

    canonical = MESSAGE_ADAPTER.validate_python(message)
    assert not isinstance(canonical.content, str)
    blocks = encode_blocks(canonical.content[position], context, ("messages", index, "content", position))
    if len(blocks) > 1:
        raise _DeclinedError  # a cache point
    if not blocks:
        return None
    block = blocks[0]
    if "text" in block and len(block) == 1:
        return _text(block["text"])
    return block


def _call_id(original: str, context: BedrockContext, at: Steps) -> str:
    """As ``parts.tool_use_id``: the id rewritten where Bedrock refuses it (a hashed one
    reported by that function); an id sent as it is, remembered in :data:`_KEPT_IDS`."""
    sent = _SANITIZE(original)
    if sent == original:
        if len(_KEPT_IDS) >= _KEPT_MAX:
            _KEPT_IDS.clear()
        _KEPT_IDS.add(original)
    elif MAPPING.hashed(original):
        from chatcodec.providers.bedrock_converse.parts import tool_use_id

        return tool_use_id(original, context, at)
    return sent


def _name(name: str, context: BedrockContext, at: Steps) -> str:
    """As ``parts.tool_name``: a name the rule accepts, remembered in :data:`_KEPT_NAMES`."""
    if name in _KEPT_NAMES:
        return name
    if _VALID_NAME(name):
        if len(_KEPT_NAMES) >= _KEPT_MAX:
            _KEPT_NAMES.clear()
        _KEPT_NAMES.add(name)
        return name
    from chatcodec.providers.bedrock_converse.parts import tool_name

    return tool_name(name, context, at)


def _tool_use(part: dict[str, Any], index: int, position: int, context: BedrockContext) -> dict[str, Any]:
    """As ``parts._encode_tool_use``: the id, the name, then the arguments object (the
    call's path built only when a rule fires)."""
    call_id = part["id"]
    sent = (
        call_id if call_id in _KEPT_IDS else _call_id(call_id, context, ("messages", index, "content", position, "id"))
    )
    name = part["name"]
    if name not in _KEPT_NAMES:
        name = _name(name, context, ("messages", index, "content", position))
    arguments = part["arguments"]
    parsed, exact = arguments_object(arguments)
    if not exact or type(parsed) is not dict:
        parsed = input_object(arguments, context.losses, ("messages", index, "content", position), "Bedrock")
    return {"toolUse": {"toolUseId": sent, "name": name, "input": parsed}}


def _results(message: dict[str, Any], blocks: list[dict[str, Any]], index: int, context: BedrockContext) -> None:
    """As ``parts._encode_tool_result`` writes string results (any other through
    :func:`_general`)."""
    policy = context.tool_result_status
    for position, part in enumerate(message["content"]):
        content = part["content"]
        if type(content) is not str or (len(part) != 3 and not part.keys() <= _RESULT_KEYS):
            block = _general(message, position, index, context)
            if block is None:
                raise _DeclinedError
            blocks.append(block)
            continue
        call_id = part["tool_use_id"]
        sent = call_id if call_id in _KEPT_IDS else _call_id(call_id, context, ("messages", index, "content", position))
        result: dict[str, Any] = {"toolUseId": sent, "content": [{"text": content}] if content else []}
        is_error = part.get("is_error") is True
        if policy == "never":
            if is_error:
                raise _DeclinedError  # reported by the general encoder
        elif is_error or policy == "always":
            result["status"] = "error" if is_error else "success"
        blocks.append({"toolResult": result})


def _tools(request: dict[str, Any], wire: dict[str, Any], context: BedrockContext) -> None:
    """As ``tools.encode_tools`` writes function tools and a choice."""
    specs: list[dict[str, Any]] = []
    for index, tool in enumerate(request.get("tools") or ()):
        parameters = tool.get("parameters")
        if not tool.keys() <= _TOOL_KEYS or parameters is None:
            raise _DeclinedError  # a cache marker
        metadata = tool.get("provider_metadata")
        if metadata and KIT.claim(context.losses, metadata, ("tools", index)):  # as tools._encode_tool reports it
            raise _DeclinedError  # a bag of Bedrock's own: fields the general encoder writes back
        spec: dict[str, Any] = {"name": _name(tool["name"], context, ("tools", index))}
        description = tool.get("description")
        if description is not None:
            if not description:
                raise _DeclinedError  # an empty description, reported
            spec["description"] = description
        spec["inputSchema"] = {"json": parameters}
        if tool.get("strict") is not None:
            spec["strict"] = tool["strict"]
        specs.append({"toolSpec": spec})
    choice = request.get("tool_choice")
    wire_choice: dict[str, dict[str, str]] | None = None
    if choice is not None:
        kind = choice["type"]
        if kind == "none" or not specs:
            raise _DeclinedError  # reported by the general encoder
        if kind == "tool":
            wire_choice = {"tool": {"name": _name(choice.get("name") or "", context, ("tool_choice",))}}
        else:
            wire_choice = {_WIRE_CHOICES[kind]: {}}
    if specs:
        config: dict[str, Any] = {"tools": specs}
        if wire_choice is not None:
            config["toolChoice"] = wire_choice
        wire["toolConfig"] = config
