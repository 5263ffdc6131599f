"""The one-pass writing of a Chat Completions request from canonical dicts (issue 25).

It writes what :func:`~chatcodec.providers.openai_chat.request.encode_request` writes, with
the same losses in the same order, for requests made of the common shapes: system,
developer and user messages of a string or text and image parts (base64 images as data
URLs), assistant messages of text, tool calls and thinking from another provider
(dropped and reported with ``reasoning.drop_loss``'s text, as the general encoder drops
it without the ``reasoning_field`` option), tool messages whose results are text, function
tools, a ``tool_choice``, the same-name settings, ``stop``, string ``metadata`` and a
``reasoning`` effort; of this encoder's options only ``api_version``, ``skip_rules`` and
``model``. Other providers' bags (another decoder's markers and unknown fields) on the
request, a message, a text part, a tool call or a result are reported by the kit's own
``report_foreign``, as the general encoder reports them and in its order, except a Gemini
thought signature on a call, written as ``extra_content`` (``thought_signatures``); a
result's tool name is reported with ``messages.report_result_name``.

Each wire message is written as its canonical message is read, with no per-message
object and no loss path unless a rule fires; the target rules of this provider
(:mod:`chatcodec.providers.target_rules`) are applied to the body last, as
``ProviderCodec.encode_request`` applies them.

When a request needs what this pass does not write (a bag or option of this provider's
own, a name or cache marker, a message between tool calls and their results, media or an
error flag in a tool result, text after a tool call, a ``top_k``, an assistant message
left empty, a ``response_format``, a Bedrock service tier), it returns ``None`` and the
caller runs the general encoder, where every rule lives.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from chatcodec.compat import data_url, source_from_url
from chatcodec.losses import LossRecorder, Steps
from chatcodec.providers.kit import tool_name
from chatcodec.providers.kit.context import RULE_OPTIONS, EncodeContext, read_options
from chatcodec.providers.kit.tool_names import OPENAI_TOOL_NAMES
from chatcodec.providers.one_pass import PLAIN_FIELDS
from chatcodec.providers.openai_chat.markers import KIT, OPTIONS, PROVIDER
from chatcodec.providers.openai_chat.rules import RULES
from chatcodec.providers.openai_chat.thought_signatures import split_signature, write_signature
from chatcodec.providers.target_rules import apply_target_rules

_VALID_NAME = OPENAI_TOOL_NAMES.valid.match
_REPORT_FOREIGN = KIT.report_foreign

_TOP_KEYS = (PLAIN_FIELDS - {"top_k"}) | {"reasoning"}  # top_k: the general encoder reports it
_SAME_NAME = ("parallel_tool_calls", "temperature", "top_p", "frequency_penalty", "presence_penalty", "seed", "stream")
"""``request_fields.SAME_NAME[1:]`` and ``SAME_NAME_TOO``, in the order the general encoder writes them."""
_OWN_KEYS = frozenset({RULE_OPTIONS["api_version"], RULE_OPTIONS["skip_rules"], "model"})
"""What this pass reads of its own ``provider_options`` bag: the rule options and the
option ``model`` (sent when the request has none)."""
_BEDROCK = "bedrock-converse"
_TOOL_KEYS = frozenset({"type", "name", "description", "parameters", "strict"})  # a dump writes its tag
_PLAIN_ROLES = frozenset({"system", "developer", "user"})


class _DeclinedError(Exception):
    """A shape this pass does not write: the general encoder writes the request."""


def encode_request(request: dict[str, Any], losses: LossRecorder) -> dict[str, Any] | None:
    """The Chat Completions request body for a canonical request dict, or ``None`` when it
    holds a shape only the general encoder writes.

    The request is taken over (the one pass builds it for this call alone): objects that
    read the same in canonical and on the wire (a text part, a string message) go into
    the output as they are."""
    if not request.keys() <= _TOP_KEYS or request.get("provider_tools"):
        return None
    options: dict[str, Any] | None = request.get("provider_options")
    own: dict[str, Any] = {}
    if options:
        if "serviceTier" in (options.get(_BEDROCK) or {}):
            return None  # sent as OpenAI's service_tier (service_tiers.from_bedrock)
        _REPORT_FOREIGN(losses, options, ("provider_options",))
        own = options.get(PROVIDER) or {}
        if not own.keys() <= _OWN_KEYS:
            return None  # another option, or a bag of this provider's: the general path reads them
    model = request.get("model")
    context = EncodeContext(PROVIDER, losses, model=model, options=read_options(own, OPTIONS), rules=RULES)
    try:
        wire = _encode(request, context, losses)
    except _DeclinedError:
        return None
    apply_target_rules(wire, context)  # last, as ProviderCodec.encode_request applies them
    return wire


def _encode(request: dict[str, Any], context: EncodeContext, losses: LossRecorder) -> dict[str, Any]:
    wire: dict[str, Any] = {}
    model = request["model"] if request.get("model") is not None else context.option("model")
    if model is not None:
        wire["model"] = model
    wire["messages"] = _messages(request["messages"], losses)
    tools = request.get("tools")
    if tools:
        wire["tools"] = [_tool(tool, index, losses) for index, tool in enumerate(tools)]
    choice = request.get("tool_choice")
    if choice is not None:
        wire["tool_choice"] = _choice(choice, losses)
    for key in _SAME_NAME:
        value = request.get(key)
        if value is not None:
            wire[key] = value
    if request.get("max_tokens") is not None:
        wire["max_completion_tokens"] = request["max_tokens"]  # no max_tokens_key option: the default key
    _settings(request, wire)
    return wire


def _settings(request: dict[str, Any], wire: dict[str, Any]) -> None:
    """``stop``, ``metadata`` and ``reasoning_effort``, as ``request._encode_knobs`` and
    ``settings.encode_settings`` write them when no loss is due."""
    if request.get("stop"):
        wire["stop"] = list(request["stop"])
    metadata = request.get("metadata")
    if metadata is not None:
        if not all(isinstance(value, str) for value in metadata.values()):
            raise _DeclinedError  # a value OpenAI cannot take: reported by the general encoder
        wire["metadata"] = dict(metadata)
    reasoning = request.get("reasoning")
    if reasoning is not None:
        if not reasoning.keys() <= {"effort"}:
            raise _DeclinedError  # budgets and switches: losses the general encoder reports
        if reasoning.get("effort") is not None:
            wire["reasoning_effort"] = reasoning["effort"]


def _tool(tool: dict[str, Any], index: int, losses: LossRecorder) -> dict[str, Any]:
    """As ``tools._encode_function_tool`` writes a tool with no bag or cache marker."""
    if not tool.keys() <= _TOOL_KEYS:
        raise _DeclinedError
    name = tool["name"]
    function: dict[str, Any] = {
        "name": name if _VALID_NAME(name) else tool_name(name, losses, ("tools", index), PROVIDER)
    }
    if tool.get("description") is not None:
        function["description"] = tool["description"]
    function["parameters"] = tool.get("parameters", {"type": "object", "properties": {}})  # canonical's default
    if tool.get("strict") is not None:
        function["strict"] = tool["strict"]
    return {"type": "function", "function": function}


def _choice(choice: dict[str, Any], losses: LossRecorder) -> str | dict[str, Any]:
    name = choice.get("name")
    if choice.get("type") == "tool" and name is not None:
        name = name if _VALID_NAME(name) else tool_name(name, losses, ("tool_choice",), PROVIDER)
        return {"type": "function", "function": {"name": name}}
    return str(choice.get("type", "auto"))


def _messages(messages: list[dict[str, Any]], losses: LossRecorder) -> list[dict[str, Any]]:
    """The wire ``messages``: one per canonical message, a tool message's results one each.

    A message standing between an assistant's tool calls and a later tool message is
    declined (``result_order.results_after_calls`` moves it, a loss); the losses recorded
    so far go with the refusal."""
    wire: list[dict[str, Any]] = []
    append = wire.append
    calls_open = between = False
    for index, message in enumerate(messages):
        if len(message) != 2:
            _claim_bag(message, index, losses)
        role = message["role"]
        if role == "assistant":
            encoded = _assistant(message, index, losses)
            calls_open, between = "tool_calls" in encoded, False
            append(encoded)
        elif role == "tool":
            if between:
                raise _DeclinedError
            calls_open = False
            wire.extend(_results(message["content"], index, losses))
        elif role in _PLAIN_ROLES:
            between = calls_open
            content = message["content"]
            if type(content) is not str:
                message["content"] = [_user_part(part) for part in content]
            append(message)
        else:
            raise _DeclinedError  # a text message: a loss the general encoder reports
    return wire


def _claim_bag(message: dict[str, Any], index: int, losses: LossRecorder) -> None:
    """Another provider's bag on a message, reported as the general encoder's
    ``report_foreign`` reports it (and dropped from the output); a name, a cache marker
    or a bag of this provider's own: the general path."""
    if len(message) != 3 or "provider_metadata" not in message:
        raise _DeclinedError
    metadata = message.pop("provider_metadata")
    if PROVIDER in metadata:
        raise _DeclinedError
    _REPORT_FOREIGN(losses, metadata, ("messages", index))


def _user_part(part: dict[str, Any]) -> dict[str, Any]:
    """A text part as it is; an image as ``parts._encode_image`` writes one with no
    detail, bag or cache marker."""
    kind = part["type"]
    if kind == "text" and len(part) == 2:
        return part
    if kind != "image" or len(part) != 2:
        raise _DeclinedError
    source = part["source"]
    if source["type"] == "url" and len(source) == 2:
        return {"type": "image_url", "image_url": {"url": source["url"]}}
    if source["type"] != "base64" or len(source) != 3:
        raise _DeclinedError
    url = data_url(source["media_type"], source["data"])
    if source_from_url(url) != source:
        raise _DeclinedError  # does not read back as this media type and data: a loss
    return {"type": "image_url", "image_url": {"url": url}}


def _assistant(message: dict[str, Any], index: int, losses: LossRecorder) -> dict[str, Any]:
    """As ``assistant.encode_assistant`` writes text, tool calls and another provider's
    thinking (dropped): ``content`` a string when one text goes with tool calls or
    ``null`` when none, else a list of text parts.

    The losses come in the general encoder's order: thinking dropped as the parts are laid
    out, then other providers' bags on the texts, then each call's."""
    content = message["content"]
    if type(content) is str:
        return message
    texts: list[dict[str, Any]] = []
    calls: list[int] = []
    bagged = False
    for position, part in enumerate(content):
        kind = part["type"]
        if kind == "text":
            if calls:
                raise _DeclinedError  # text after a call: OpenAI's order, with a loss
            if len(part) != 2:
                bagged = _foreign_bag(part, _TEXT_KEYS)
            texts.append(part)
        elif kind == "tool_use":
            calls.append(position)
        elif kind == "thinking" and part.get("provider") != PROVIDER:
            _drop_thinking(part, index, position, losses)
        else:
            raise _DeclinedError
    if bagged:
        _report_text_bags(content, index, losses)
    return _assistant_wire(content, texts, calls, index, losses)


def _assistant_wire(
    content: list[dict[str, Any]], texts: list[dict[str, Any]], calls: list[int], index: int, losses: LossRecorder
) -> dict[str, Any]:
    """The wire message of an assistant's texts and the calls at ``calls`` in ``content``."""
    wire: dict[str, Any] = {"role": "assistant"}
    if not texts:
        if content and not calls:
            raise _DeclinedError  # nothing left to send: a loss, and the message is left out
        wire["content"] = None
    elif len(texts) == 1 and calls:
        wire["content"] = texts[0]["text"]
    else:
        wire["content"] = texts
    if calls:
        wire["tool_calls"] = [_call(content[position], index, position, losses) for position in calls]
    return wire


_TEXT_KEYS = frozenset({"type", "text", "provider_metadata"})


def _foreign_bag(part: dict[str, Any], keys: frozenset[str]) -> bool:
    """Whether ``part`` (of ``keys`` at most) holds only other providers' bags, which the
    general encoder reports and drops; anything else (a cache marker, this provider's own
    bag): the general path."""
    if not part.keys() <= keys or PROVIDER in part.get("provider_metadata", (PROVIDER,)):
        raise _DeclinedError
    return True


def _report_text_bags(content: list[dict[str, Any]], index: int, losses: LossRecorder) -> None:
    """Other providers' bags on text parts, reported as ``assistant._report_foreign_texts``
    (or ``_encode_item``) reports them, and left out of the wire part."""
    for position, part in enumerate(content):
        if part["type"] == "text" and "provider_metadata" in part:
            _REPORT_FOREIGN(losses, part.pop("provider_metadata"), ("messages", index, "content", position))


def _drop_thinking(part: dict[str, Any], index: int, position: int, losses: LossRecorder) -> None:
    """Another provider's thinking, with no ``reasoning_field`` option to place it."""
    _drop_loss()(part.get("provider"), losses, ("messages", index, "content", position))


@cache
def _drop_loss() -> Callable[[str | None, LossRecorder, Steps], None]:
    """``reasoning.drop_loss``, imported on first need: ``reasoning.py`` loads the
    canonical models, which a request with no thinking to drop never needs (issue 25,
    first use)."""
    from chatcodec.providers.openai_chat.reasoning import drop_loss

    return drop_loss


def _call(part: dict[str, Any], index: int, position: int, losses: LossRecorder) -> dict[str, Any]:
    """As ``assistant._encode_call`` writes a call with no cache marker or bag of this
    provider's: another provider's bag is reported, less a Gemini thought signature, which
    goes in ``extra_content`` (``thought_signatures``)."""
    if (len(part) != 4 or "arguments" not in part) and not part.keys() <= _CALL_KEYS:
        _foreign_bag(part, _BAGGED_CALL_KEYS)
    steps: Steps | None = None
    signature = None
    metadata = part.get("provider_metadata")
    if metadata is not None:
        signature, foreign = split_signature(metadata)
        steps = ("messages", index, "content", position)
        _REPORT_FOREIGN(losses, foreign, steps)
    name = part["name"]
    if not _VALID_NAME(name):
        name = tool_name(name, losses, steps or ("messages", index, "content", position), PROVIDER)
    arguments = part.get("arguments", "")
    if not arguments.strip():
        arguments = "{}"  # OpenAI (and servers that parse it) reject "" (issue 10 item 5)
    call = {"id": part["id"], "type": "function", "function": {"name": name, "arguments": arguments}}
    if signature is not None:
        write_signature(call, signature)
    return call


_CALL_KEYS = frozenset({"type", "id", "name", "arguments"})
_BAGGED_CALL_KEYS = _CALL_KEYS | {"provider_metadata"}
_RESULT_KEYS = frozenset({"type", "tool_use_id", "content", "is_error", "name", "provider_metadata"})


def _results(results: list[dict[str, Any]], index: int, losses: LossRecorder) -> list[dict[str, Any]]:
    """A tool message's results, one ``tool`` message each, as ``messages._encode_result``
    writes a text result with no error flag, name or cache marker."""
    wire: list[dict[str, Any]] = []
    for position, result in enumerate(results):
        if len(result) != 3 or "content" not in result:  # else type, tool_use_id, content
            _check_result(result, index, position, losses)
        content = result.get("content", "")
        if type(content) is not str:
            for part in content:
                if part["type"] != "text" or len(part) != 2:
                    raise _DeclinedError  # media move to a user message, with a loss
        wire.append({"role": "tool", "tool_call_id": result["tool_use_id"], "content": content})
    return wire


def _check_result(result: dict[str, Any], index: int, position: int, losses: LossRecorder) -> None:
    """A result with keys beyond the plain three: another provider's bag and a tool name
    are reported (in ``messages._encode_result``'s order); an error flag, a cache marker
    or this provider's own bag: the general path."""
    if not result.keys() <= _RESULT_KEYS or result.get("is_error"):
        raise _DeclinedError
    at = ("messages", index, "content", position)
    metadata = result.get("provider_metadata")
    if metadata is not None:
        if PROVIDER in metadata:
            raise _DeclinedError
        _REPORT_FOREIGN(losses, metadata, at)
    if result.get("name") is not None:
        _result_name_loss()(losses, at)


@cache
def _result_name_loss() -> Callable[[LossRecorder, Steps], None]:
    """``messages.report_result_name``, imported on first need, as ``_drop_loss`` is."""
    from chatcodec.providers.openai_chat.messages import report_result_name

    return report_result_name
