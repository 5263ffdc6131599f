"""The one-pass reading of a Gemini ``generateContent`` request (issue 25): common shapes only.

:data:`REQUEST` is the request as an agent sends it, written closed and camelCase:
``contents`` of ``user`` and ``model`` turns whose parts are text (a thought in a model
turn), ``inlineData``, ``fileData``, ``functionCall`` and ``functionResponse``, each
with an optional ``thoughtSignature``; a ``systemInstruction`` of text parts (or a bare
string); one Tool object of ``functionDeclarations``; a ``toolConfig`` whose mode has a
canonical meaning; and the ``generationConfig`` keys with a canonical home (sampling,
``thinkingConfig``). Validated once in Rust, it is read in one pass straight into the
canonical dicts :func:`~chatcodec.providers.gemini.request.decode_request` and the
canonical validation give: the same made-up call ids and pairing by position
(:mod:`.call_ids`), the same markers in the same bags, arguments as the same compact
JSON text, results read by the general decoder's own rule (``results.response_text``).

Anything else (a snake_case key, which the general decoder respells; a built-in tool;
``responseMimeType``; a part of two kinds, or a kind a turn does not take; an
``id`` the general decoder must make up for a result with no open call) is refused or
declined, and the caller runs the general path.
"""

from __future__ import annotations

import sys
from typing import Any

from pydantic_core import core_schema as cs

from chatcodec._narrow import as_dict, as_sampling_number
from chatcodec.providers.gemini.call_ids import REQUEST_PREFIX, OpenCalls, synthesized_call_id
from chatcodec.providers.gemini.markers import (
    EMPTY_ID,
    JOINED,
    NO_ARGS,
    NO_MIME_TYPE,
    NO_RESPONSE,
    PROVIDER,
    SCHEMA_KEY,
    SKIP_SENTINEL,
    SKIPPED,
    SNAKE,
    STRING_SYSTEM,
    SYNTHESIZED_ID,
    UNSIGNED,
    WITHOUT_ID,
)
from chatcodec.providers.gemini.media import Turn, media_kind
from chatcodec.providers.gemini.request import MODEL_IN_BODY
from chatcodec.providers.gemini.results import response_text
from chatcodec.providers.gemini.settings import CONFIG_PRESENT
from chatcodec.providers.gemini.spelling import as_marker, camel_cased
from chatcodec.providers.kit import leftovers
from chatcodec.providers.one_pass import (
    LazyValidator,
    closed,
    either,
    json_object,
    json_text,
    json_value_to_write,
    json_without_floats,
    literal,
    number,
    text,
)

_MAPPED = ("model", "contents", "systemInstruction", "tools", "toolConfig", "generationConfig")
_SIGNATURE = "thoughtSignature"
_LEVELS = ("MINIMAL", "LOW", "MEDIUM", "HIGH", "XHIGH")
_MODES = {"AUTO": "auto", "NONE": "none", "ANY": "required"}


class _DeclinedError(Exception):
    """A shape this pass does not read: the general decoder reads the request."""


def _listed(item: cs.CoreSchema, *, at_least: int = 0) -> cs.CoreSchema:
    return cs.list_schema(item, strict=True, min_length=at_least)


def _part() -> cs.CoreSchema:
    """Every key a common part may have; which combinations are common is checked while
    reading (one schema, no union to try in turn)."""
    function_call = closed({"name": text()}, {"args": json_value_to_write(whole=json_object()), "id": text()})
    function_response = closed({"name": text()}, {"response": json_object(), "id": text()})
    return closed(
        {},
        {
            "text": text(),
            "thought": cs.bool_schema(strict=True),
            _SIGNATURE: text(),
            "inlineData": closed({"mimeType": text(), "data": text()}),
            "fileData": closed({"fileUri": cs.str_schema(strict=True, min_length=1)}, {"mimeType": text()}),
            "functionCall": function_call,
            "functionResponse": function_response,
        },
    )


def _tools() -> cs.CoreSchema:
    declaration = closed(
        {"name": cs.str_schema(strict=True, min_length=1)},
        {"description": text(), "parameters": json_object(), "parametersJsonSchema": json_object()},
    )
    tool = closed({"functionDeclarations": _listed(declaration, at_least=1)})
    return cs.list_schema(tool, strict=True, min_length=1, max_length=1)


def _generation_config(json_input: bool) -> cs.CoreSchema:
    thinking = closed(
        {},
        {
            "thinkingBudget": cs.int_schema(strict=True, ge=-1),
            "thinkingLevel": literal(*_LEVELS),
            "includeThoughts": cs.bool_schema(strict=True),
        },
    )
    return closed(
        {},
        {
            "temperature": number(json_input=json_input),
            "topP": number(json_input=json_input),
            "topK": cs.int_schema(strict=True),
            "maxOutputTokens": cs.int_schema(strict=True, ge=1),
            "stopSequences": _listed(text(), at_least=1),
            "seed": cs.int_schema(strict=True),
            "presencePenalty": number(json_input=json_input),
            "frequencyPenalty": number(json_input=json_input),
            "thinkingConfig": thinking,
        },
        extra=True,  # responseModalities, mediaResolution...: kept in the request's bag
    )


def _request(json_input: bool) -> cs.CoreSchema:
    content = closed({"role": literal("user", "model"), "parts": _listed(_part(), at_least=1)})
    system = either(text(), closed({"parts": _listed(closed({"text": text()}))}, {"role": text()}))
    calling = closed({"mode": text()}, {"allowedFunctionNames": _listed(text())})
    root = closed(
        {"contents": _listed(content)},
        {
            "model": text(),
            "systemInstruction": system,
            "tools": _tools(),
            "toolConfig": closed({"functionCallingConfig": calling}),
            "generationConfig": _generation_config(json_input),
        },
        extra=True,  # safetySettings, cachedContent, labels...: kept in the request's bag
    )
    return cs.definitions_schema(root, [json_without_floats(json_input=json_input)])


REQUEST = LazyValidator(_request)
"""The common request shapes, for dicts and for JSON text or bytes."""


def decode_request(payload: object) -> dict[str, Any] | None:
    """The canonical request dict for ``payload`` (a dict, or JSON text or bytes), or
    ``None`` when it is not one of the common shapes."""
    wire = REQUEST.validate(payload)
    snake: list[list[str | int]] = []
    source = as_dict(payload)
    if wire is None and source is not None:
        source, snake = _camel_cased(source)
        wire = None if source is None else REQUEST.validate(source)
    if wire is None:
        return None
    bag = leftovers(wire, _MAPPED)
    if bag and (any("_" in key for key in bag) or _spelled_snake(bag)):
        return None  # a snake_case spelling the general decoder renames and remembers
    try:
        return _decode(wire, bag, snake, source)
    except _DeclinedError:
        return None


def _camel_cased(payload: dict[str, Any]) -> tuple[dict[str, Any] | None, list[list[str | int]]]:
    """The camelCase copy of a payload that spells keys in snake_case (an SDK dump),
    renamed as ``wire.validated`` renames them, and the ``_snake`` marker; tried only
    when the payload as it is was refused, so a REST body pays nothing for it."""
    camel, renamed = camel_cased(payload)
    return (camel, as_marker(renamed)) if renamed else (None, [])


def _tool_config(
    wire: dict[str, Any], source: dict[str, Any] | None, canonical: dict[str, Any], bag: dict[str, Any]
) -> None:
    """The tool choice, or a ``toolConfig`` with no canonical meaning kept in the bag as
    it was sent (the payload's own object: the validated copy orders keys by schema)."""
    choice = _choice(wire["toolConfig"]["functionCallingConfig"])
    if choice is not None:
        canonical["tool_choice"] = choice
    elif source is None:
        raise _DeclinedError  # JSON text: the order of its keys is not at hand
    else:
        bag["toolConfig"] = source["toolConfig"]


def _spelled_snake(value: object) -> bool:
    """Whether a kept value (a bag's) holds a key the general decoder renames."""
    return bool(camel_cased(value)[1])


def _decode(
    wire: dict[str, Any], bag: dict[str, Any], snake: list[list[str | int]], source: dict[str, Any] | None
) -> dict[str, Any]:
    canonical: dict[str, Any] = {}
    if "model" in wire:
        canonical["model"] = wire["model"]
        bag[MODEL_IN_BODY] = True
    if snake:
        bag[SNAKE] = snake
    messages = decode_contents(wire["contents"], sys.get_int_max_str_digits())
    if "systemInstruction" in wire:
        messages.insert(0, _system(wire["systemInstruction"]))
    canonical["messages"] = messages
    if "tools" in wire:
        canonical["tools"] = [_declaration(declaration) for declaration in wire["tools"][0]["functionDeclarations"]]
    if "toolConfig" in wire:
        _tool_config(wire, source, canonical, bag)
    if "generationConfig" in wire:
        rest = _settings(wire["generationConfig"], canonical)
        if rest:
            bag["generationConfig"] = rest
        else:
            bag[CONFIG_PRESENT] = True  # sent even when empty
    if bag:
        canonical["provider_options"] = {PROVIDER: bag}
    return canonical


def _system(system: dict[str, Any] | str) -> dict[str, Any]:
    """As ``messages.decode_system``: a bare string keeps its ``_string`` marker, a
    ``Content``'s ``role`` rides in the message's bag."""
    if isinstance(system, str):
        return {"role": "system", "content": system, "provider_metadata": {PROVIDER: {STRING_SYSTEM: True}}}
    message: dict[str, Any] = {
        "role": "system",
        "content": [{"type": "text", "text": part["text"]} for part in system["parts"]],
    }
    if "role" in system:
        message["provider_metadata"] = {PROVIDER: {"role": system["role"]}}
    return message


def _declaration(declaration: dict[str, Any]) -> dict[str, Any]:
    """As ``tools._decode_declaration`` reads it (the schema key remembered by a marker)."""
    definition: dict[str, Any] = {"name": declaration["name"]}
    if "description" in declaration:
        definition["description"] = declaration["description"]
    if "parametersJsonSchema" in declaration:
        if "parameters" in declaration:
            raise _DeclinedError  # both schemas: the other one rides in the bag
        definition["parameters"] = declaration["parametersJsonSchema"]
    elif "parameters" in declaration:
        definition["parameters"] = declaration["parameters"]
        definition["provider_metadata"] = {PROVIDER: {SCHEMA_KEY: "parameters"}}
    else:
        definition["parameters"] = {"type": "object", "properties": {}}  # the canonical default
        definition["provider_metadata"] = {PROVIDER: {SCHEMA_KEY: None}}
    return definition


def _choice(calling: dict[str, Any]) -> dict[str, Any] | None:
    """As ``tools._choice``: a mode with a canonical meaning, or ``ANY`` of one function;
    ``None`` for any other (``VALIDATED``, several names), kept in the bag."""
    mode: str = calling["mode"]
    names: list[str] | None = calling.get("allowedFunctionNames")
    if names is None and mode in _MODES:
        return {"type": _MODES[mode]}
    if mode == "ANY" and names is not None and len(names) == 1:
        return {"type": "tool", "name": names[0]}
    return None


_SCALARS = (
    ("temperature", "temperature"),
    ("topP", "top_p"),
    ("seed", "seed"),
    ("presencePenalty", "presence_penalty"),
    ("frequencyPenalty", "frequency_penalty"),
    ("topK", "top_k"),
    ("maxOutputTokens", "max_tokens"),
    ("stopSequences", "stop"),
)
_SAMPLING = frozenset({"temperature", "top_p", "presence_penalty", "frequency_penalty"})


_OUTPUT_FORMAT = frozenset({"responseMimeType", "responseSchema", "responseJsonSchema"})
_MAPPED_SETTINGS = frozenset({wire_key for wire_key, _ in _SCALARS} | {"thinkingConfig"})


def _settings(config: dict[str, Any], canonical: dict[str, Any]) -> dict[str, Any]:
    """As ``settings.decode_settings`` maps the keys with a canonical home (a sampling
    number is a float, as the canonical ``SamplingNumber`` reads it; one past 2**53
    stays exact); the rest of the config, kept in the bag, is returned."""
    rest = {key: value for key, value in config.items() if key not in _MAPPED_SETTINGS}
    if rest and (not _OUTPUT_FORMAT.isdisjoint(rest) or _spelled_snake(rest)):
        raise _DeclinedError  # an output format; a spelling the general decoder renames
    for wire_key, key in _SCALARS:
        if wire_key in config:
            value = config[wire_key]
            canonical[key] = as_sampling_number(value) if key in _SAMPLING else value
    thinking: dict[str, Any] | None = config.get("thinkingConfig")
    if thinking is not None:
        reasoning: dict[str, Any] = {}
        budget = thinking.get("thinkingBudget")
        if budget == -1:
            reasoning["adaptive"] = True
        elif budget is not None:
            reasoning["budget_tokens"] = budget
        if "thinkingLevel" in thinking:
            reasoning["effort"] = thinking["thinkingLevel"].lower()
            if budget is None:
                reasoning["adaptive"] = True  # as settings._decode_thinking: a level is dynamic thinking
        if "includeThoughts" in thinking:
            reasoning["include_thoughts"] = thinking["includeThoughts"]
        canonical["reasoning"] = reasoning
    return rest


def decode_contents(contents: list[dict[str, Any]], digits: int) -> list[dict[str, Any]]:
    """Canonical message dicts for validated common-shape ``contents``, as
    ``messages.decode_messages`` reads them (a user turn split into its runs of results
    and other parts, the later ones marked ``_joined``)."""
    messages: list[dict[str, Any]] = []
    open_calls = OpenCalls()
    for container, content in enumerate(contents):
        parts: list[dict[str, Any]] = content["parts"]
        if content["role"] == "model":
            answer: list[dict[str, Any]] = []
            calls: list[tuple[str, str]] = []
            for index, part in enumerate(parts):
                if "functionCall" in part:
                    decoded = _call(part, container, index, digits)
                    calls.append((decoded["id"], decoded["name"]))
                else:
                    decoded = _model_part(part)
                answer.append(decoded)
            open_calls.calls = calls  # a new model turn: its calls replace the old ones
            messages.append({"role": "assistant", "content": answer})
        else:
            _user_turn(parts, container, open_calls, messages)
    return messages


def _user_turn(
    parts: list[dict[str, Any]], container: int, open_calls: OpenCalls, messages: list[dict[str, Any]]
) -> None:
    """A user turn's runs of results and other parts, one message each."""
    current: list[dict[str, Any]] | None = None
    current_role = ""
    for index, part in enumerate(parts):
        if "functionResponse" in part:
            role, decoded = "tool", _result(part, open_calls, container, index)
        else:
            role, decoded = "user", _user_part(part)
        if current is None:
            current = [decoded]
            messages.append({"role": role, "content": current})
        elif current_role != role:
            current = [decoded]
            messages.append({"role": role, "content": current, "provider_metadata": {PROVIDER: {JOINED: True}}})
        else:
            current.append(decoded)
        current_role = role


def _signed(part: dict[str, Any], key: str) -> dict[str, Any]:
    """The bag of a part of one kind (``key``) with at most its ``thoughtSignature``."""
    if len(part) == 1:
        return {}
    if len(part) != 2 or _SIGNATURE not in part:
        raise _DeclinedError  # a part of two kinds, or a thought flag on media or a call
    return {_SIGNATURE: part[_SIGNATURE]}


def _text(part: dict[str, Any]) -> dict[str, Any]:
    """A text part, its other keys (``thought: false``, a signature) in its bag, in wire order."""
    decoded: dict[str, Any] = {"type": "text", "text": part["text"]}
    if len(part) > 1:
        bag = leftovers(part, ("text",))
        if not bag.keys() <= {"thought", _SIGNATURE}:
            raise _DeclinedError
        decoded["provider_metadata"] = {PROVIDER: bag}
    return decoded


def _model_part(part: dict[str, Any]) -> dict[str, Any]:
    """A model turn's text, thought or media part (its calls are read by :func:`_call`)."""
    if "text" in part:
        if part.get("thought") is not True:
            return _text(part)
        thinking: dict[str, Any] = {"type": "thinking", "text": part["text"], "provider": PROVIDER}
        if _SIGNATURE in part:
            thinking["signature"] = part[_SIGNATURE]
        if len(part) != 2 + (_SIGNATURE in part):
            raise _DeclinedError
        return thinking
    return _media(part, "model")


def _user_part(part: dict[str, Any]) -> dict[str, Any]:
    if "text" in part:
        if part.get("thought") is True:
            raise _DeclinedError  # an opaque part for the general decoder
        return _text(part)
    return _media(part, "user")


def _media(part: dict[str, Any], turn: Turn) -> dict[str, Any]:
    """As ``media.decode_media``, for a part of exactly one media key."""
    if "inlineData" in part:
        bag = _signed(part, "inlineData")
        blob = part["inlineData"]
        mime_type: str | None = blob["mimeType"]
        source: dict[str, Any] = {"type": "base64", "media_type": mime_type, "data": blob["data"]}
    elif "fileData" in part:
        bag = _signed(part, "fileData")
        blob = part["fileData"]
        mime_type = blob.get("mimeType")
        source = {"type": "url", "url": blob["fileUri"]}
        if mime_type is not None:
            source["media_type"] = mime_type
        else:
            bag[NO_MIME_TYPE] = True
    else:
        raise _DeclinedError  # a call in a user turn, a result in a model turn, a bare signature
    kind = media_kind(mime_type, turn)
    if kind == "opaque":
        raise _DeclinedError
    decoded: dict[str, Any] = {"type": kind, "source": source}
    if bag:
        decoded["provider_metadata"] = {PROVIDER: bag}
    return decoded


def _call(part: dict[str, Any], container: int, index: int, digits: int) -> dict[str, Any]:
    """As ``parts.decode_call``: a made-up id when the call has none (or ``""``), the
    signature in the bag (the sentinel as a marker), ``_unsigned`` when there is none."""
    bag = {} if len(part) == 1 else _signed(part, "functionCall")
    call: dict[str, Any] = part["functionCall"]
    name: str = call["name"]
    if not name:
        raise _DeclinedError  # the wire check's error
    call_id = call.get("id")
    if not call_id:
        call_id = synthesized_call_id(REQUEST_PREFIX, container, index)
        bag[SYNTHESIZED_ID] = True
        if "id" in call:
            bag[EMPTY_ID] = True
    if _SIGNATURE not in bag:
        bag[UNSIGNED] = True
    elif bag[_SIGNATURE] == SKIP_SENTINEL:
        del bag[_SIGNATURE]
        bag[SKIPPED] = True
    if "args" in call:
        arguments = json_text(call["args"], digits)
    else:
        arguments = ""
        bag[NO_ARGS] = True
    return {
        "type": "tool_use",
        "id": call_id,
        "name": name,
        "arguments": arguments,
        "provider_metadata": {PROVIDER: bag},
    }


def _result(part: dict[str, Any], open_calls: OpenCalls, container: int, index: int) -> dict[str, Any]:
    """As ``results.decode_result``: paired with its call by id, else by position."""
    bag = {} if len(part) == 1 else _signed(part, "functionResponse")
    function_response: dict[str, Any] = part["functionResponse"]
    name: str = function_response["name"]
    wire_id = function_response.get("id") or None
    call_id = open_calls.answer(name, wire_id)
    if wire_id is None:
        bag[WITHOUT_ID] = True
        if "id" in function_response:
            bag[EMPTY_ID] = True
        wire_id = call_id or synthesized_call_id("gemini_result", container, index)
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": wire_id, "name": name}
    response = function_response.get("response")
    content, is_error = response_text(response)
    if response is None:
        bag[NO_RESPONSE] = True
    if is_error:
        result["is_error"] = True
    result["content"] = content
    if bag:
        result["provider_metadata"] = {PROVIDER: bag}
    return result
