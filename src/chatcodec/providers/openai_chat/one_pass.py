"""The one-pass sides of Chat Completions requests (issue 25): the writing is
:func:`~chatcodec.providers.openai_chat.one_pass_encode.encode_request` (re-exported here,
the module the registry and the codec name), the reading is below.

The one-pass reading of a Chat Completions request: common shapes only.

:data:`REQUEST` is the request as an agent sends it, written closed: system, developer
and user messages of text and ``image_url`` parts, assistant messages of
``content`` (a string or ``null``), ``reasoning_content`` and function ``tool_calls``,
``tool`` messages with string content, function tools, a plain or named
``tool_choice``, and the usual sampling settings. Validated once in Rust (roles and part
types dispatch there), it is decoded in one pass straight into canonical dicts equal to
what :func:`~chatcodec.providers.openai_chat.request.decode_request` followed by the
canonical validation gives; there is nothing to keep in a bag, so no bag work is done.
Anything else (a ``name``, a cache marker, an unknown key, ``null`` in an optional
field, a part type not listed) is refused, and the caller runs the general path.

The validated copy belongs to this pass, so objects that read the same on both sides
(a text part, a message of a role and a string) are taken over rather than rebuilt.
The top-level fields go through the general decoder's own functions
(``request_fields.DECODERS``), so their rules live in one place; that module loads no
canonical model, and neither does this one (issue 25, first use).
"""

from __future__ import annotations

from typing import Any

from pydantic_core import core_schema as cs

from chatcodec._narrow import as_sampling_number
from chatcodec.compat import source_from_url
from chatcodec.detect import mismatch
from chatcodec.providers.kit import leftovers
from chatcodec.providers.kit.context import DecodeContext
from chatcodec.providers.one_pass import (
    LazyValidator,
    closed,
    either,
    json_object,
    literal,
    non_empty,
    number,
    tagged,
    text,
)
from chatcodec.providers.openai_chat import request_fields
from chatcodec.providers.openai_chat.markers import PROVIDER
from chatcodec.providers.openai_chat.one_pass_encode import encode_request

__all__ = ["decode_messages", "decode_request", "encode_request"]


DETAILS = ("auto", "low", "high")
"""The image ``detail`` values canonical has (``ImagePart.detail``; spelled here, as the
general decoder's ``parts._DETAILS`` is, so this module loads no model): a part with
another (``"original"``) keeps it in a bag, on the general path."""


def _content(parts: list[str]) -> cs.CoreSchema:
    choices = {"text": closed({"type": literal("text"), "text": text()})}
    if "image_url" in parts:
        image = closed({"url": non_empty()}, {"detail": literal(*DETAILS)})
        choices["image_url"] = closed({"type": literal("image_url"), "image_url": image})
    return either(text(), cs.list_schema(tagged(choices, "type"), strict=True))


def _messages() -> cs.CoreSchema:
    call = closed(
        {
            "id": text(),
            "type": literal("function"),
            "function": closed({"name": text(), "arguments": text()}),
        }
    )
    assistant = closed(
        {"role": literal("assistant")},
        {
            "content": cs.nullable_schema(text()),
            "reasoning_content": text(),
            "tool_calls": cs.list_schema(call, strict=True, min_length=1),
        },
    )
    choices = {
        "system": closed({"role": literal("system"), "content": _content(["text"])}),
        "developer": closed({"role": literal("developer"), "content": _content(["text"])}),
        "user": closed({"role": literal("user"), "content": _content(["text", "image_url"])}),
        "assistant": assistant,
        "tool": closed({"role": literal("tool"), "tool_call_id": text(), "content": text()}),
    }
    return cs.list_schema(tagged(choices, "role"), strict=True)


def _fields(json_input: bool) -> dict[str, cs.CoreSchema]:
    """The top-level fields :data:`REQUEST` reads, besides ``messages``."""
    function = closed(
        {"name": non_empty()},
        {"description": text(), "parameters": json_object(), "strict": cs.bool_schema(strict=True)},
    )
    tool = closed({"type": literal("function"), "function": function})
    named = closed({"type": literal("function"), "function": closed({"name": text()})})
    count = cs.int_schema(strict=True)
    return {
        "model": text(),
        "tools": cs.list_schema(tool, strict=True),
        "tool_choice": either(literal("auto", "none", "required"), named),
        "max_completion_tokens": count,
        "max_tokens": count,
        "temperature": number(json_input=json_input),
        "top_p": number(json_input=json_input),
        "frequency_penalty": number(json_input=json_input),
        "presence_penalty": number(json_input=json_input),
        "seed": count,
        "stop": either(text(), cs.list_schema(text(), strict=True)),
        "stream": cs.bool_schema(strict=True),
        "parallel_tool_calls": cs.bool_schema(strict=True),
        "metadata": json_object(),
    }


def _request(json_input: bool) -> cs.CoreSchema:
    # fields with no canonical home are kept in the request's bag
    return closed({"messages": _messages()}, _fields(json_input), extra=True)


REQUEST = LazyValidator(_request)
"""The common request shapes, for dicts and for JSON text or bytes."""

_KNOWN = frozenset({"messages", *_fields(json_input=False)})

DECLINES_OTHER_FORMATS = True
"""This side declines every payload :func:`chatcodec.detect.mismatch` finds is not
openai-chat, so a caller that must refuse those (``chatcodec convert``,
:func:`chatcodec.batch.convert_payload`) may take a one-pass result as it is. Only an
unknown top-level field can be such a marker: every other marker :data:`REQUEST` lets
through (a ``system``, ``developer`` or ``tool`` role, ``tool_calls``, an ``image_url``
part, a function tool, ``stop``, ``max_completion_tokens``) allows openai-chat."""

_GENERAL_ONLY = frozenset({"reasoning_effort", "response_format"})
"""Fields the wire types know and :data:`REQUEST` does not: read by the general path only
(as unknown fields they would skip the general path's check of their shape)."""

_SAMPLING = ("temperature", "top_p", "frequency_penalty", "presence_penalty")


def decode_request(payload: object) -> dict[str, Any] | None:
    """The canonical request dict for ``payload`` (a dict, or JSON text or bytes), or
    ``None`` when it is not one of the common shapes."""
    wire = REQUEST.validate(payload)
    if wire is None or not _GENERAL_ONLY.isdisjoint(wire) or not _plainly_openai(wire):
        return None
    messages = decode_messages(wire["messages"])
    if messages is None:
        return None
    data: dict[str, Any] = {"messages": messages}
    if len(wire) == 1:
        return data
    bag: dict[str, Any] = {}
    mapped = ["messages"]
    context = DecodeContext(PROVIDER)
    fields = _take_plain_tools(wire, data)
    for decoder in request_fields.DECODERS:
        mapped += decoder(fields, data, bag, context)
    bag = {**leftovers(wire, mapped), **bag}
    if bag:
        data["provider_options"] = {PROVIDER: bag}
    return _as_canonical(data)


def _plainly_openai(wire: dict[str, Any]) -> bool:
    """Whether no unknown top-level field marks the body as another format (see
    :data:`DECLINES_OTHER_FORMATS`): the general path reads and reports the others."""
    if wire.keys() <= _KNOWN:
        return True
    unknown = {key: value for key, value in wire.items() if key not in _KNOWN}
    return mismatch(PROVIDER, unknown) is None


def _take_plain_tools(wire: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """The wire fields left for ``request_fields.DECODERS``: all of them, or, when every
    tool is a function with its ``parameters``, all but ``tools``, read here.

    :data:`REQUEST` lets only function tools through, with no key canonical lacks, so
    each ``function`` object (name, description, parameters, strict, in the canonical
    order) is the canonical definition as ``tools._decode_function_tool`` builds it, with
    no bag; one without ``parameters`` gets a marker there, and goes that way. The tool
    decoder then reads only ``tool_choice``, and reports ``tools`` mapped (it is in
    ``data``). On the bench's six tools this is most of the decoder's cost at 10 turns."""
    tools = wire.get("tools")
    if not tools:
        return wire
    functions = [tool["function"] for tool in tools]
    for function in functions:
        if "parameters" not in function:
            return wire
    data["tools"] = functions
    data["provider_tools"] = []
    return {key: value for key, value in wire.items() if key != "tools"}


def _as_canonical(data: dict[str, Any]) -> dict[str, Any] | None:
    """What canonical validation changes in the top-level fields: a sampling number is a
    float (``1`` reads as ``1.0``; one a double cannot hold stays exact, and ``2**60``,
    which one holds, is a float: :data:`chatcodec.request.SamplingNumber`'s rule,
    ``_narrow.as_sampling_number``), and a tool has its default schema."""
    for key in _SAMPLING:
        if key in data:
            data[key] = as_sampling_number(data[key])
    for tool in data.get("tools", ()):
        if not tool["name"]:
            return None  # canonical names are never empty: the general path says so
        tool.setdefault("parameters", {"type": "object", "properties": {}})
    choice = data.get("tool_choice")
    if choice is not None and choice.get("name") == "":
        return None
    return data


def decode_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Canonical message dicts for validated common-shape wire messages (tool results
    grouped, as the general decoder groups them), or ``None`` for a shape canonical
    refuses."""
    decoded: list[dict[str, Any]] = []
    append = decoded.append
    group: list[dict[str, Any]] | None = None  # the results of the open tool message
    for message in messages:
        role = message["role"]
        if role == "tool":
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": message["content"]}
            if group is None:
                group = [result]
                append({"role": "tool", "content": group})
            else:
                group.append(result)
            continue
        group = None
        if role == "assistant":
            canonical = _assistant(message)
            if canonical is None:
                return None
            append(canonical)
            continue
        content = message["content"]
        if type(content) is not str:
            content = message["content"] = _parts(content)
            if content is None:
                return None
        append(message)  # a validated copy with exactly the canonical keys: taken over
    return decoded


def _parts(content: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    parts: list[dict[str, Any]] = []
    for part in content:
        if part["type"] == "text":
            parts.append(part)  # the validated copy is the canonical part
            continue
        url = part["image_url"]["url"]
        if not url:
            return None  # canonical URLs are never empty
        source = source_from_url(url)
        if source["type"] == "base64" and not source["media_type"]:
            return None
        image = {"type": "image", "source": source}
        if "detail" in part["image_url"]:
            image["detail"] = part["image_url"]["detail"]
        parts.append(image)
    return parts


def _assistant(message: dict[str, Any]) -> dict[str, Any] | None:
    """As :func:`~chatcodec.providers.openai_chat.assistant.decode_assistant` reads the
    common shape: the reasoning first, then the text, then the calls."""
    content = message.get("content")
    reasoning = message.get("reasoning_content")
    calls = message.get("tool_calls")
    if reasoning is None and calls is None:
        if content is None:
            return None  # no content at all: the general decoder's markers
        return message  # role and content: the validated copy is the canonical message
    body: list[dict[str, Any]] = []
    if reasoning is not None:
        metadata = {PROVIDER: {"field": "reasoning_content"}}
        body.append({"type": "thinking", "text": reasoning, "provider": PROVIDER, "provider_metadata": metadata})
    if content is not None:
        body.append({"type": "text", "text": content})
    for call in calls or ():
        function = call["function"]
        body.append(
            {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}
        )
    canonical: dict[str, Any] = {"role": "assistant", "content": body}
    if "content" not in message:
        canonical["provider_metadata"] = {PROVIDER: {"_content": "absent"}}  # as assistant.decode_assistant marks it
    return canonical
