"""What a server answering the Responses API itself owes its callers (the edge's
``Front.answering``): the Open Responses ``ResponseResource`` around the converted answer.

An OpenAI Responses answer is a resource of the server that made it, not a message
relayed: it has the server's own ``resp_`` id, echoes the settings of the request it
answers with the server's defaults for those left out, and can be continued by a later
request naming it in ``previous_response_id``. The Open Responses specification
(https://www.openresponses.org/specification, its ``ResponseResource`` at
https://www.openresponses.org/reference) makes every field of the resource required,
some nullable; the defaults below are the values OpenAI echoes for a request that left
the setting out (its compliance suite's recorded basic answer:
https://github.com/openresponses/openresponses, ``src/lib/compliance-tests.ts``).

``background: true`` is refused: the answer would have to be fetched while it is still
being made, which a converting proxy does not do (a kept answer is read back with
``GET /v1/responses/{id}``).

Another provider's signed reasoning is sealed into the answer's reasoning items
(the ``encrypted_reasoning`` option, :mod:`.carried_reasoning`) when the caller asks for
``include: ["reasoning.encrypted_content"]`` or when the answer is not kept (the caller's
``store: false``, or a server without a store): then the caller's next request carries it
back, as it does OpenAI's own encrypted reasoning
(https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items).
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_responses.carried_reasoning import KEY_OPTION, is_sealed, verify_seal
from chatcodec._providers.openai_responses.carried_reasoning import OPTION as SEALING
from chatcodec._providers.openai_responses.markers import INSTRUCTIONS, PROVIDER, SERVER_FIELDS
from chatcodec._providers.openai_responses.request import ENCRYPTED_REASONING
from chatcodec.codec_kit import as_dict, as_list

PREVIOUS = "previous_response_id"
"""The request field naming the earlier answer a request continues."""

ECHO_DEFAULTS: Mapping[str, Any] = {
    "instructions": None,
    "tools": [],
    "tool_choice": "auto",
    "truncation": "disabled",
    "parallel_tool_calls": True,
    "temperature": 1.0,
    "top_p": 1.0,
    "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
    "top_logprobs": 0,
    "max_output_tokens": None,
    "max_tool_calls": None,
    "service_tier": "default",
    "metadata": {},
    "safety_identifier": None,
    "prompt_cache_key": None,
    PREVIOUS: None,
}
"""The request settings a response echoes, with the value echoed when the request left one out."""

TEXT_DEFAULT: Mapping[str, Any] = {"format": {"type": "text"}, "verbosity": "medium"}
"""``text`` as echoed when the request sets none (plain text output)."""

TOOL_FIELDS: Mapping[str, Any] = {"description": None, "parameters": None, "strict": None}
"""The fields an echoed function tool always has (``FunctionTool``), null when the request gave none."""

SCHEMA_FIELDS: Mapping[str, Any] = {"description": None, "strict": False}
"""The fields an echoed ``json_schema`` text format always has (``JsonSchemaResponseFormat``)."""


class ResponsesAnswering:
    """The Responses API's :class:`~chatcodec._providers.contract.edge.Answering`."""

    reference = PREVIOUS
    seals = True
    streamed_whole = True

    def new_id(self) -> str:
        """``resp_`` and 48 random hex digits, as OpenAI's ids look."""
        return f"resp_{secrets.token_hex(24)}"

    def server_options(self, payload: Mapping[str, Any], answer_id: str, stored: bool) -> dict[str, Any]:
        """The ``server_fields`` option: the server's id, ``store`` as it was kept, the
        request's settings echoed (:data:`ECHO_DEFAULTS` for those left out)."""
        if payload.get("background") is True:
            raise ValueError(
                "background: true is not supported: this server answers in the request itself "
                "and keeps no response to fetch later; send the request without background"
            )
        fields: dict[str, Any] = {"id": answer_id}
        for key, default in ECHO_DEFAULTS.items():
            value = payload.get(key)
            fields[key] = copy.copy(default) if value is None else value  # a fresh {} or [] each
        fields["tools"] = [_echoed_tool(tool) for tool in as_list(fields["tools"]) or []]
        fields["text"] = _echoed_text(payload.get("text"))
        reasoning = as_dict(payload.get("reasoning")) or {}
        fields["reasoning"] = {"effort": reasoning.get("effort"), "summary": reasoning.get("summary")}
        fields["store"] = stored
        fields["background"] = False
        include = as_list(payload.get("include")) or []
        return {SERVER_FIELDS: fields, SEALING: ENCRYPTED_REASONING in include or not stored}

    def continues(self, payload: Mapping[str, Any]) -> str | None:
        """The ``previous_response_id`` (a non-empty string, as OpenAI's reference types it);
        any other value, ``""`` included, is refused (``ValueError``), never read as none and
        the history left out."""
        value = payload.get(PREVIOUS)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"previous_response_id must be a string, not a JSON {_json_type(value)}")
        if value == "":
            raise ValueError("previous_response_id must name an answer, not be empty (leave it out to start anew)")
        return value

    def wants_stored(self, payload: Mapping[str, Any]) -> bool:
        """The caller's ``store`` (true when left out, as OpenAI's default)."""
        return payload.get("store") is not False

    def detached(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The request without ``previous_response_id``."""
        return {key: value for key, value in payload.items() if key != PREVIOUS}

    def carried_over(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The messages without the one the request's ``instructions`` became
        (instructions are not carried over, as OpenAI documents for ``previous_response_id``)."""
        return [message for message in messages if not _instructions(message)]

    def final_answer(self, event: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The response of ``response.completed`` or ``response.incomplete`` (a failed
        answer is not kept: OpenAI cannot continue one either)."""
        if event.get("type") not in ("response.completed", "response.incomplete"):
            return None
        return as_dict(event.get("response"))

    @property
    def routes(self) -> tuple[str, ...]:
        """``GET /v1/responses/{response_id}``, as the OpenAI SDK builds it from its ``base_url``."""
        return ("/v1/responses/{answer_id}", "/responses/{answer_id}")

    def seal_options(self, key: str | None) -> dict[str, Any]:
        """The ``seal_key`` option (:mod:`.carried_reasoning`); with no key, no sealing (a seal
        without a MAC is one no server accepts)."""
        return {SEALING: False} if key is None else {KEY_OPTION: key}

    def unverified_seals(self, payload: Mapping[str, Any], key: str) -> tuple[dict[str, Any], list[str], bool]:
        """``payload`` without the ``reasoning`` input items whose sealed ``encrypted_content``
        fails its MAC under ``key``, their paths, and whether a sealed item stays."""
        items = as_list(payload.get("input"))
        if items is None:
            return dict(payload), [], False
        kept: list[Any] = []
        failed: list[str] = []
        sealed = False
        for index, item in enumerate(items):
            fields = as_dict(item)
            content = None if fields is None or fields.get("type") != "reasoning" else fields.get("encrypted_content")
            if not isinstance(content, str) or not is_sealed(content):
                kept.append(item)
            elif verify_seal(content, key):
                sealed = True
                kept.append(item)
            else:
                failed.append(f"$.input[{index}].encrypted_content")
        return ({**payload, "input": kept} if failed else dict(payload)), failed, sealed


def _instructions(message: Mapping[str, Any]) -> bool:
    bag = as_dict((as_dict(message.get("provider_metadata")) or {}).get(PROVIDER)) or {}
    return message.get("role") == "system" and bag.get(INSTRUCTIONS) is True


def _echoed_tool(tool: object) -> object:
    fields = as_dict(tool)
    if fields is None or fields.get("type") != "function":
        return tool  # a built-in tool is echoed as given
    return {**TOOL_FIELDS, **fields}


def _echoed_text(text: object) -> dict[str, Any]:
    fields = {**TEXT_DEFAULT, **(as_dict(text) or {})}
    text_format = as_dict(fields.get("format"))
    if text_format is not None and text_format.get("type") == "json_schema":
        fields["format"] = {**SCHEMA_FIELDS, **text_format}
    return fields


ANSWERING = ResponsesAnswering()
"""The one instance the edge's front holds."""


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "array" if isinstance(value, list) else "object" if isinstance(value, dict) else type(value).__name__
