"""The one-pass writing of an OpenAI Responses request from canonical dicts (issue 25).

It writes what :func:`~chatcodec.providers.openai_responses.request.encode_request`
writes, with the same losses in the same order, for requests made of the common shapes:
messages of text and image parts (no cache marker, name or bag of this provider's own),
as ``input`` items (a leading system message goes into ``input``, as the general encoder
sends every system message it did not read from ``instructions``); assistant turns as a
plain message item per text, a ``function_call`` item per tool call, unsigned or foreign
reasoning dropped and reported; tool results as ``function_call_output`` items; function
tools flattened; ``tool_choice``, ``max_output_tokens``, the sampling settings, a plain
``reasoning`` effort and summary, a response format; and of this provider's options only
``model``, ``api_version`` and ``skip_rules``. Each item is built as it is read, with no
per-turn object and no loss path unless a rule fires; the target rules
(:mod:`chatcodec.providers.target_rules`) are applied to the body last, as
``ProviderCodec.encode_request`` applies them.

Anything else (a bag of this provider's, which the general encoder writes back, cache
markers, documents, audio, opaque items, OpenAI's own reasoning, an empty turn, a tool
result marked as an error, Bedrock's service tier) returns ``None``, and the caller runs
the general encoder, where every rule lives; the rules that do fire here call the
general encoder's functions (``plain_rules.py``, the kit's tool names). No canonical model
is loaded (first use).

The decode side, ``decode_request``, is in ``one_pass_decode.py`` (this module is the
codec's ``one_pass`` role, so it offers both).
"""

from __future__ import annotations

from typing import Any

from chatcodec.compat import data_url, source_from_url
from chatcodec.losses import LossKind, LossRecorder, Steps
from chatcodec.providers.kit import tool_name
from chatcodec.providers.kit.context import RULE_OPTIONS, EncodeContext, read_options
from chatcodec.providers.kit.provider_kit import meaningful_markers
from chatcodec.providers.kit.tool_names import OPENAI_TOOL_NAMES
from chatcodec.providers.openai_responses.markers import KIT, OPTIONS, PROVIDER
from chatcodec.providers.openai_responses.one_pass_decode import decode_request

__all__ = ["decode_request", "encode_request"]
from chatcodec.providers.one_pass import PLAIN_FIELDS
from chatcodec.providers.openai_responses.plain_rules import (
    UNSENT_SETTINGS,
    another_assistant_text,
    call_arguments,
    foreign_thinking,
    text_metadata,
    unsent_setting,
    unsent_stop,
)
from chatcodec.providers.openai_responses.rules import CALL_ID_MAX_LENGTH, LONG_CALL_ID, RULES
from chatcodec.providers.target_rules import apply_target_rules

_VALID_NAME = OPENAI_TOOL_NAMES.valid.match
_VALID_NAMES: set[str] = set()
"""Tool names :data:`_VALID_NAME` accepted (a session calls a few tools many times: a
set lookup is a fraction of the pattern match)."""
_VALID_NAMES_LIMIT = 1024


def _valid_name(name: str) -> bool:
    """Whether OpenAI takes ``name`` as it is (``tool_names.tool_name`` sends it unchanged)."""
    if _VALID_NAME(name) is None:
        return False
    if len(_VALID_NAMES) < _VALID_NAMES_LIMIT:
        _VALID_NAMES.add(name)
    return True


_TOP_KEYS = PLAIN_FIELDS | {"reasoning", "response_format", "cache_control"}
_OWN_KEYS = frozenset({RULE_OPTIONS["api_version"], RULE_OPTIONS["skip_rules"], "model"})
"""What this pass reads of its own ``provider_options`` bag: the rule options and the
``model`` option; any other key is a field the general encoder writes back."""
_INPUT_ROLES = frozenset({"user", "system", "developer"})
_SUMMARIES = frozenset({"auto", "concise", "detailed"})
_SAME_NAME = ("temperature", "top_p", "stream")


class _DeclinedError(Exception):
    """A shape this pass does not write: the general encoder writes the request."""


def encode_request(request: dict[str, Any], losses: LossRecorder) -> dict[str, Any] | None:
    """The Responses request body for a canonical request dict, or ``None`` when it holds
    a shape only the general encoder writes (the request is not changed)."""
    if not request.keys() <= _TOP_KEYS or request.get("provider_tools"):
        return None
    options = request.get("provider_options")
    if options and "serviceTier" in (options.get("bedrock-converse") or {}):
        return None  # a tier the general encoder may carry over (service_tiers.from_bedrock)
    own = KIT.claim(losses, options, ("provider_options",))
    if not own.keys() <= _OWN_KEYS:
        return None
    context = EncodeContext(
        PROVIDER, losses, model=request.get("model"), options=read_options(own, OPTIONS), rules=RULES
    )
    try:
        wire, long_ids = _encode(request, context, losses)
    except _DeclinedError:
        return None
    # last, as ProviderCodec.encode_request applies them; the call id rule walks every
    # item, so it runs only when this pass wrote a call id long enough for it to change
    apply_target_rules(wire, context, holds=(LONG_CALL_ID,) if long_ids else ())
    return wire


def _encode(request: dict[str, Any], context: EncodeContext, losses: LossRecorder) -> tuple[dict[str, Any], bool]:
    """As ``request.encode_request`` writes the body, field by field in its order; and
    whether a ``call_id`` is over the API's limit."""
    wire: dict[str, Any] = {}
    model = request.get("model")
    if model is None:
        model = context.option("model")
    if model is not None:
        wire["model"] = model
    wire["input"], long_ids = _items(request["messages"], losses)
    if request.get("max_tokens") is not None:
        wire["max_output_tokens"] = request["max_tokens"]
    for key in _SAME_NAME:
        value = request.get(key)
        if value is not None:
            wire[key] = value
    if request.get("metadata") is not None:
        wire["metadata"] = text_metadata(request["metadata"], losses)
    for key in UNSENT_SETTINGS:
        value = request.get(key)
        if value is not None:
            unsent_setting(key, value, losses)
    if request.get("stop"):
        unsent_stop(losses)
    _tools(request, wire, losses)
    _settings(request, wire)
    return wire, long_ids


def _items(messages: list[dict[str, Any]], losses: LossRecorder) -> tuple[list[dict[str, Any]], bool]:
    """The ``input`` items, message by message (``messages.encode_messages``), and whether
    a ``call_id`` is over the API's limit."""
    items: list[dict[str, Any]] = []
    append = items.append
    long_ids = False
    for index, message in enumerate(messages):
        role = message["role"]
        content = message["content"]
        if len(message) != 2:
            _message_fields(message, index, losses)
        if role == "tool":
            long_ids = _results(content, index, items, losses) or long_ids
        elif role == "assistant":
            if type(content) is str:
                append({"role": "assistant", "content": content})
            else:
                long_ids = _assistant(content, index, items, losses) or long_ids
        elif role in _INPUT_ROLES:
            if type(content) is not str:
                content = _input_parts(content, ("messages", index), losses)
            append({"role": role, "content": content})
        else:
            raise _DeclinedError  # a text message
    return items, long_ids


def _message_fields(message: dict[str, Any], index: int, losses: LossRecorder) -> None:
    """A message's other fields: another provider's bag is reported (an assistant turn's
    as ``report_unplaced`` reports it, which for other providers' bags is the same); a
    name, a cache marker or a bag of this provider's is the general encoder's."""
    if message.get("name") is not None or message.get("cache_control") is not None:
        raise _DeclinedError
    _claim_foreign(message.get("provider_metadata"), ("messages", index), losses)


def _claim_foreign(metadata: dict[str, Any] | None, at: Steps, losses: LossRecorder) -> None:
    """Other providers' bags reported at ``at`` (``KIT.claim``); this provider's own bag
    (fields and markers to write back) declines."""
    if metadata:
        if metadata.get(PROVIDER):
            raise _DeclinedError
        if len(metadata) == 1:
            _report_foreign_bag(metadata, at, losses)
        else:
            KIT.report_foreign(losses, metadata, at)


class _Captured(LossRecorder):
    """A recorder keeping what, why and kind of each loss, for :data:`_FOREIGN_REPORTS`."""

    __slots__ = ("captured",)

    def __init__(self) -> None:
        super().__init__()
        self.captured: list[tuple[str, str, LossKind]] = []

    def add(self, path: str | Steps, what: str, why: str, kind: LossKind = "content") -> None:
        self.captured.append((what, why, kind))


_FOREIGN_REPORTS: dict[tuple[str, tuple[str, ...]], tuple[tuple[str, str, LossKind], ...]] = {}
"""What ``KIT.report_foreign`` reports for one other provider's bag on a message or a
part, by provider and keys: with no marker that provider declared meaningful (whose value
is in the text), that is all the report depends on. A session repeats a few such bags on
every turn (openai-chat's ``reasoning_content`` field on each thinking part)."""
_FOREIGN_REPORTS_LIMIT = 256


def _report_foreign_bag(metadata: dict[str, Any], at: Steps, losses: LossRecorder) -> None:
    """``KIT.report_foreign`` for a message's or a part's one bag, its report remembered."""
    ((name, bag),) = metadata.items()
    key = (name, tuple(bag))
    reports = _FOREIGN_REPORTS.get(key)
    if reports is None:
        captured = _Captured()
        KIT.report_foreign(captured, metadata, at)
        reports = tuple(captured.captured)
        if len(_FOREIGN_REPORTS) < _FOREIGN_REPORTS_LIMIT and meaningful_markers(name).keys().isdisjoint(bag):
            _FOREIGN_REPORTS[key] = reports
    for what, why, kind in reports:
        losses.add(at, what, why, kind)


def _bare(part: dict[str, Any], at: Steps, losses: LossRecorder) -> None:
    """A part with more than its own fields: no cache marker, other providers' bags reported."""
    if part.get("cache_control") is not None:
        raise _DeclinedError
    _claim_foreign(part.get("provider_metadata"), at, losses)


def _input_parts(content: list[dict[str, Any]], at: Steps, losses: LossRecorder) -> list[dict[str, Any]]:
    """Input parts (``parts.encode_part``) for text and images."""
    parts: list[dict[str, Any]] = []
    for position, part in enumerate(content):
        kind = part["type"]
        if kind == "text":
            if len(part) != 2:
                _bare(part, (*at, "content", position), losses)
            parts.append({"type": "input_text", "text": part["text"]})
        elif kind == "image":
            parts.append(_image(part, (*at, "content", position), losses))
        else:
            raise _DeclinedError  # documents, audio, opaque parts, parts an input has no place for
    return parts


def _image(part: dict[str, Any], at: Steps, losses: LossRecorder) -> dict[str, Any]:
    """An ``input_image`` by URL (a ``data:`` URL for base64) and its ``detail``,
    ``"auto"`` when the part has none (``parts._encode_image``)."""
    if part.keys() - {"type", "source", "detail"}:
        _bare(part, at, losses)
    source = part["source"]
    kind = source["type"]
    if kind == "url" and source.get("media_type") is None:
        url = source["url"]
    elif kind == "base64":
        url = data_url(source["media_type"], source["data"])
        if source_from_url(url) != source:
            raise _DeclinedError  # it would not read back the same: a loss
    else:
        raise _DeclinedError  # a file id, or a media type a URL cannot carry: a loss
    detail = part.get("detail")
    return {"image_url": url, "type": "input_image", "detail": "auto" if detail is None else detail}


def _results(content: list[dict[str, Any]], index: int, items: list[dict[str, Any]], losses: LossRecorder) -> bool:
    """A ``function_call_output`` item per result (``messages._encode_tool_message``), a
    result of exactly its own fields written inline; whether a call id is over the limit."""
    long_ids = False
    for position, result in enumerate(content):
        call_id = result["tool_use_id"]
        output = result["content"]
        if len(result) == 3 and type(output) is str:
            items.append({"type": "function_call_output", "call_id": call_id, "output": output})
        else:
            items.append(_result(result, index, position, losses))
        if len(call_id) > CALL_ID_MAX_LENGTH:
            long_ids = True
    return long_ids


def _result(result: dict[str, Any], index: int, position: int, losses: LossRecorder) -> dict[str, Any]:
    """A ``function_call_output`` item (``messages.encode_result``)."""
    if len(result) != 3:
        if result.get("is_error") or result["type"] != "tool_result":
            raise _DeclinedError
        _bare(result, ("messages", index, "content", position), losses)
    content = result["content"]
    if type(content) is not str:
        content = _input_parts(content, ("messages", index, "content", position), losses)
    item = {"type": "function_call_output", "call_id": result["tool_use_id"], "output": content}
    name = result.get("name")
    if name is not None:
        item["name"] = name
    return item


def _assistant(content: list[dict[str, Any]], index: int, items: list[dict[str, Any]], losses: LossRecorder) -> bool:
    """An assistant turn's items (``items.encode_assistant``): each text a plain message
    item, each call a ``function_call`` item (one of exactly its own fields, a valid name
    and object arguments written inline); reasoning not OpenAI's is dropped, reported.
    Gives whether a call id is over the limit."""
    if not content:
        raise _DeclinedError  # "empty assistant turn": a loss
    after_text = False  # whether this turn's last item is a text message
    long_ids = False
    for position, part in enumerate(content):
        kind = part["type"]
        if kind == "text":
            if len(part) != 2:
                _bare(part, ("messages", index, "content", position), losses)
            if after_text:
                another_assistant_text(losses, ("messages", index, "content", position))
            items.append({"role": "assistant", "content": part["text"]})
            after_text = True
        elif kind == "tool_use":
            call_id, name, arguments = part["id"], part["name"], part["arguments"]
            if len(part) == 4 and (name in _VALID_NAMES or _valid_name(name)) and arguments[:1] == "{":
                items.append({"type": "function_call", "call_id": call_id, "name": name, "arguments": arguments})
            else:
                items.append(_call(part, index, position, losses))
            long_ids = long_ids or len(call_id) > CALL_ID_MAX_LENGTH
            after_text = False
        elif kind == "thinking":
            _drop_thinking(part, index, position, losses)
        else:
            raise _DeclinedError  # refusals, media, opaque items
    return long_ids


def _call(part: dict[str, Any], index: int, position: int, losses: LossRecorder) -> dict[str, Any]:
    """A ``function_call`` item (``items.encode_tool_use``)."""
    if len(part) != 4:
        _bare(part, ("messages", index, "content", position), losses)
    name = part["name"]
    if not _VALID_NAME(name):
        name = tool_name(name, losses, ("messages", index, "content", position), PROVIDER)
    arguments = part["arguments"]
    if arguments[:1] != "{":
        arguments = call_arguments(arguments, losses, ("messages", index, "content", position))
    return {"type": "function_call", "call_id": part["id"], "name": name, "arguments": arguments}


def _drop_thinking(part: dict[str, Any], index: int, position: int, losses: LossRecorder) -> None:
    """Reasoning from another provider, or unsigned, dropped (``items._encode_thinking``):
    its bag reported, then the part; OpenAI's own is replayed by the general encoder. A
    session drops the same kind of part on every turn, so with one other provider's bag
    the two reports are remembered by its shape (:data:`_DROPPED`)."""
    provider = part.get("provider")
    if provider == PROVIDER or part.get("cache_control") is not None:
        raise _DeclinedError
    signed = bool(part.get("signature") or part.get("encrypted"))
    at = ("messages", index, "content", position)
    metadata = part.get("provider_metadata")
    if not metadata or len(metadata) != 1 or PROVIDER in metadata:
        _claim_foreign(metadata, at, losses)
        foreign_thinking(provider, signed, losses, at)
        return
    ((name, bag),) = metadata.items()
    key = (provider, signed, name, *bag)
    reports = _DROPPED.get(key)
    if reports is None:
        captured = _Captured()
        KIT.report_foreign(captured, metadata, at)
        foreign_thinking(provider, signed, captured, at)
        reports = tuple(captured.captured)
        if len(_DROPPED) < _FOREIGN_REPORTS_LIMIT and meaningful_markers(name).keys().isdisjoint(bag):
            _DROPPED[key] = reports
    for what, why, kind in reports:
        losses.add(at, what, why, kind)


_DROPPED: dict[tuple[object, ...], tuple[tuple[str, str, LossKind], ...]] = {}
"""What dropping a thinking part reports, by its provider, whether it is signed, and its
one other provider's bag (as :data:`_FOREIGN_REPORTS`, which this extends)."""


def _tools(request: dict[str, Any], wire: dict[str, Any], losses: LossRecorder) -> None:
    """Flat function tools, ``tool_choice`` and ``parallel_tool_calls`` (``tools.encode_tools``)."""
    tools = request.get("tools")
    if tools:
        wire["tools"] = [_tool(tool, index, losses) for index, tool in enumerate(tools)]
    choice = request.get("tool_choice")
    if choice is not None:
        kind = choice.get("type", "auto")
        if kind == "tool":
            kind = {"type": "function", "name": tool_name(choice.get("name") or "", losses, ("tool_choice",), PROVIDER)}
        wire["tool_choice"] = kind
    if request.get("parallel_tool_calls") is not None:
        wire["parallel_tool_calls"] = request["parallel_tool_calls"]


def _tool(tool: dict[str, Any], index: int, losses: LossRecorder) -> dict[str, Any]:
    if tool.get("cache_control") is not None or tool.get("type", "function") != "function" or "parameters" not in tool:
        raise _DeclinedError
    _claim_foreign(tool.get("provider_metadata"), ("tools", index), losses)
    name = tool["name"]
    wire: dict[str, Any] = {
        "type": "function",
        "name": name
        if name in _VALID_NAMES or _valid_name(name)
        else tool_name(name, losses, ("tools", index), PROVIDER),
    }
    if tool.get("description") is not None:
        wire["description"] = tool["description"]
    wire["parameters"] = tool["parameters"]
    wire["strict"] = tool.get("strict")
    return wire


def _settings(request: dict[str, Any], wire: dict[str, Any]) -> None:
    """``reasoning`` (an effort and a summary Responses names) and ``text.format``
    (``settings.encode_settings``); anything it would report declines."""
    reasoning = request.get("reasoning")
    if reasoning is not None:
        if any(value is not None for key, value in reasoning.items() if key not in ("effort", "summary")):
            raise _DeclinedError  # a switch, a budget, adaptive thinking: losses
        summary = reasoning.get("summary")
        if summary is not None and summary not in _SUMMARIES:
            raise _DeclinedError
        written = {key: reasoning[key] for key in ("effort", "summary") if reasoning.get(key) is not None}
        wire["reasoning"] = written
    response_format = request.get("response_format")
    if response_format is not None:
        wire["text"] = {"format": _format(response_format)}


def _format(response_format: dict[str, Any]) -> dict[str, Any]:
    kind = response_format["type"]
    fields = {key: value for key, value in response_format.items() if key != "type" and value is not None}
    if kind != "json_schema":
        if fields:
            raise _DeclinedError  # schema fields on a format without a schema: losses
        return {"type": kind}
    if fields.get("json_schema") is None or fields.get("name") is None:
        raise _DeclinedError  # no schema, or unnamed: losses
    # an empty name is sent as the general encoder sends it, with no loss
    wire: dict[str, Any] = {
        "type": "json_schema",
        "name": fields["name"] or "response",
        "schema": fields["json_schema"],
    }
    for key in ("description", "strict"):
        if key in fields:
            wire[key] = fields[key]
    return wire
