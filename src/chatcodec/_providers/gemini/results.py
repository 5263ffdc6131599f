"""``functionResponse`` parts <-> canonical tool results.

Gemini's result is a JSON object (``response``), named after the function it answers,
with media beside it in ``parts`` (Gemini 3 multimodal results). Google documents two
keys: ``{"output": ...}`` for the function's output and ``{"error": ...}`` for its error;
any other object is the output as a whole. So:

* ``{"output": "<text>"}`` decodes to the text, ``{"error": "<text>"}`` to the text with
  ``is_error``; any other object to its compact JSON text;
* encoding reverses it: an error's text goes in ``error``; a text that is the compact
  JSON of an object (and not one of the two forms above) is sent as that object, any
  other text as ``output``; so each direction gives the other back exactly;
* media in ``parts`` follow the text as image / audio / document parts. ``response`` is
  required even then (400 without it; Google's multimodal function-response example
  sends ``response`` beside ``parts``,
  https://ai.google.dev/gemini-api/docs/function-calling#multimodal), so a result of
  media alone is sent with ``"response": {}``, and ``{}`` beside media reads back as no
  text; a text ``"{}"`` beside media goes as ``{"output": "{}"}`` to stay apart.

The result's ``name`` is required by Gemini: the encoder takes it from the result, else
from the call it answers (results from OpenAI-style histories carry only the call id).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic_core import from_json

from chatcodec._providers.gemini import wire as shapes
from chatcodec._providers.gemini.call_ids import OpenCalls, synthesized_call_id
from chatcodec._providers.gemini.markers import EMPTY_ID, KIT, NO_CACHE_MARKER, NO_RESPONSE, PROVIDER, WITHOUT_ID
from chatcodec._providers.gemini.media import decode_media, encode_media
from chatcodec._providers.gemini.tool_names import GEMINI_TOOL_NAMES
from chatcodec.codec_kit import (
    as_dict,
    checked_json_value,
    compact_json,
    is_dict,
    kept_object,
    leftovers,
    read_json_text,
    restore_fields,
    shape_fields,
    tool_name,
    tool_name_map,
    unmapped_fields,
)
from chatcodec.contract import LossRecorder, Steps

_TEXT_FORMS = ("output", "error")
_TAKEN, _TAKES = GEMINI_TOOL_NAMES.accepted, GEMINI_TOOL_NAMES.takes
_FLAT = frozenset({str, int, bool, type(None)})
_RESULT_FIELDS = shape_fields(shapes.FunctionResponse)
_RESULT_KEYS = frozenset(_RESULT_FIELDS)


def parsed_object(text: str) -> dict[str, Any] | None:
    """``text`` parsed as a JSON object (empty text: ``{}``), or None.

    The usual case, an object of strings, integers, booleans and nulls, is read in one
    step: it holds no float, so none that overflowed to infinity, which ``payloads.read_json_text``
    writes the value back to look for. Another object pydantic-core parsed (a float,
    nesting: an agent's edit lists) is checked as ``loads`` checks its own parse
    (``payloads.checked_json_value``), not parsed again; anything else (text pydantic-core refuses,
    empty text) goes through ``loads``."""
    try:
        parsed: object = from_json(text, allow_inf_nan=False)
    except (ValueError, TypeError):
        parsed = None
    else:
        if is_dict(parsed) and type(parsed) is dict:
            if _FLAT.issuperset(map(type, parsed.values())):
                return parsed
            try:  # what loads gives for the text: this parse, checked (not parsed again)
                return as_dict(checked_json_value(parsed, text, remember=True))
            except ValueError:
                return None
    if not text.strip():
        return {}
    try:
        parsed = read_json_text(text)
    except ValueError:
        return None
    return as_dict(parsed)


def decode_result(part: dict[str, Any], open_calls: OpenCalls, container: int, index: int) -> dict[str, Any]:
    """A tool-result part for a ``functionResponse`` part at ``index`` of content
    ``container`` (which name the made-up id of a result that answers no call it can be
    paired with). A result of a name, a response and an id alone (the usual one) has no bag."""
    function_response: dict[str, Any] = part["functionResponse"]
    name: str = function_response["name"]
    wire_id = function_response.get("id") or None  # "" answers by position, as a call's "" id is made up
    call_id = open_calls.answer(name, wire_id)
    result: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": wire_id or call_id or synthesized_call_id("gemini_result", container, index),
        "name": name,
    }
    response = function_response.get("response")
    text, is_error = response_text(response)
    if is_error:
        result["is_error"] = True
    if len(part) == 1 and wire_id is not None and len(function_response) == 3 and response is not None:
        result["content"] = text  # name, response and id: nothing to keep
        return result
    bag = {} if len(part) == 1 else leftovers(part, ("functionResponse",))
    if not function_response.keys() <= _RESULT_KEYS:
        bag["functionResponse"] = unmapped_fields(function_response, _RESULT_FIELDS)
    if wire_id is None:
        bag[WITHOUT_ID] = True  # paired by position: no id is written back
        if "id" in function_response:
            bag[EMPTY_ID] = True  # ... but the "" it came with
    if response is None:
        bag[NO_RESPONSE] = True
    media = function_response.get("parts")
    if media is None:
        result["content"] = text
    else:
        content: list[dict[str, Any]] = [] if response in (None, {}) else [{"type": "text", "text": text}]
        for item in media:
            key = next((key for key in ("inlineData", "fileData") if key in item), None)
            decoded = None if key is None else decode_media(item, key, "result")
            content.append(decoded or {"type": "opaque", "provider": PROVIDER, "data": item})
        result["content"] = content
    return KIT.attach(result, bag)


def response_text(response: dict[str, Any] | None) -> tuple[str, bool]:
    """The text a wire ``response`` reads as, and whether it is an error (module docstring)."""
    if response is None:
        return "", False
    if len(response) == 1:
        key, value = next(iter(response.items()))
        if key in _TEXT_FORMS and isinstance(value, str):
            return value, key == "error"
    return compact_json(response), False


def response_object(text: str, is_error: bool) -> dict[str, Any]:
    """The wire ``response`` for a result's text (see the module docstring)."""
    if is_error:
        return {"error": text}
    parsed = parsed_object(text) if text.startswith("{") else None
    if parsed is not None and compact_json(parsed) == text and response_text(parsed) == (text, False):
        return parsed
    return {"output": text}


def encode_result(
    part: Mapping[str, Any], bag: dict[str, Any], call: tuple[str | None, bool], losses: LossRecorder, at: Steps
) -> dict[str, Any]:
    """A ``functionResponse`` part for canonical tool-result data; ``call`` is the name of
    the call it answers (if known) and whether that call's id was made up (then no id is
    written)."""
    call_name, made_up = call
    name: str | None = part.get("name") or call_name
    tool_use_id: str = part["tool_use_id"]
    is_error: bool = part.get("is_error", False)
    content: str | list[Mapping[str, Any]] = part.get("content", "")
    if not bag and type(content) is str and not made_up and tool_use_id and name and (name in _TAKEN or _TAKES(name)):
        response = response_object(content, is_error)  # the usual result: text for a known call
        return {"functionResponse": {"name": name, "response": response, "id": tool_use_id}}
    wire = restore_fields(bag)
    at_bag = (*at, "provider_metadata", PROVIDER)
    function_response = kept_object(wire, "functionResponse", at_bag, PROVIDER, take=True)
    if name is None:
        losses.add((*at, "name"), "tool name", "Gemini results need their function's name; none is known")
        name = "unknown_function"
    # a blank name is sent as its call's, fitted (the rename is reported once, at the call)
    blank = tool_name_map((name,), GEMINI_TOOL_NAMES) if not name.strip() else {}
    function_response["name"] = blank.get(name) or tool_name(name, losses, at, PROVIDER, GEMINI_TOOL_NAMES)
    wire_media: list[dict[str, Any]] = []
    if isinstance(content, str):
        text, texts_given = content, True
    else:
        text, wire_media = _text_and_media(content, losses, at)
        texts_given = any(item["type"] == "text" for item in content)
    if is_error or not (bag.get(NO_RESPONSE) and text == ""):  # left out only as it came
        if not texts_given and wire_media:
            function_response["response"] = {}  # media alone (read back as such)
        elif wire_media and text == "{}" and not is_error:
            function_response["response"] = {"output": text}  # not {}: that is media alone
        else:
            function_response["response"] = response_object(text, is_error)
    if wire_media:
        function_response["parts"] = wire_media
    if not bag.get(WITHOUT_ID) and not made_up:
        function_response["id"] = tool_use_id
        if not tool_use_id and not bag.get(EMPTY_ID):  # as for a call's "" id (parts.encode_call)
            why = 'Gemini reads an id "" as none: the result reads back with a made-up id'
            losses.add((*at, "tool_use_id"), "empty tool result id", why)
    elif bag.get(EMPTY_ID):
        function_response["id"] = ""
    wire["functionResponse"] = function_response
    return wire


def _text_and_media(
    content: list[Mapping[str, Any]], losses: LossRecorder, at: Steps
) -> tuple[str, list[dict[str, Any]]]:
    """A result's text parts joined (one ``response``: reported when several) and its media."""
    texts = [item["text"] for item in content if item["type"] == "text"]
    if len(texts) > 1:
        losses.add((*at, "content"), "several text parts", "a Gemini result has one response: joined")
    media = [_media(item, losses, (*at, "content", index)) for index, item in enumerate(content)]
    return "".join(texts), [item for item in media if item is not None]


def _media(item: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    kind = item["type"]
    if item.get("cache_control") is not None:  # as on any part (parts.encode_part)
        losses.add((*at, "cache_control"), "cache_control", NO_CACHE_MARKER, "setting")
    if kind == "text":  # its text is in the response: another provider's bag on it has no place
        KIT.report_foreign(losses, item.get("provider_metadata"), at)
        return None
    if kind in ("image", "audio", "document"):
        bag = KIT.claim(losses, item.get("provider_metadata"), at)
        if item["source"]["type"] == "text":
            losses.add((*at, "source"), "text document", "Gemini result parts carry only media")
            return None
        return encode_media(item, bag, losses, at)
    if kind == "opaque" and item["provider"] == PROVIDER:
        return dict(item["data"])
    if kind == "video":  # FunctionResponsePart: inlineData or fileData, no videoMetadata
        losses.add(at, "video part", "Gemini results carry images, audio and documents beside the response")
        return None
    losses.add(at, "result block", "Gemini results carry only media beside the response")
    return None
