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

``background: true`` is refused: the answer would have to be fetched later
(``GET /v1/responses/{id}``), which a converting proxy does not serve.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.providers.openai_responses.markers import SERVER_FIELDS

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
    """The Responses API's :class:`~chatcodec.providers.kit.edge.Answering`."""

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
        return {SERVER_FIELDS: fields}

    def continues(self, payload: Mapping[str, Any]) -> str | None:
        value = payload.get(PREVIOUS)
        return value if isinstance(value, str) and value else None

    def wants_stored(self, payload: Mapping[str, Any]) -> bool:
        """The caller's ``store`` (true when left out, as OpenAI's default)."""
        return payload.get("store") is not False

    def continued(self, payload: Mapping[str, Any], history: list[Any]) -> dict[str, Any]:
        """The request as its caller would send it with no server memory: the earlier
        conversation's items, then its own input (``instructions`` are not carried
        over, as OpenAI documents for ``previous_response_id``)."""
        continued = {key: value for key, value in payload.items() if key != PREVIOUS}
        continued["input"] = [*history, *input_items(payload)]
        return continued

    def conversation(self, payload: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Any]:
        return [*input_items(payload), *(as_list(answer.get("output")) or [])]

    def final_answer(self, event: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The response of ``response.completed`` or ``response.incomplete`` (a failed
        answer is not kept: OpenAI cannot continue one either)."""
        if event.get("type") not in ("response.completed", "response.incomplete"):
            return None
        return as_dict(event.get("response"))


def input_items(payload: Mapping[str, Any]) -> list[Any]:
    """A request's ``input`` as items: a string is one user message."""
    given = payload.get("input")
    if isinstance(given, str):
        return [{"type": "message", "role": "user", "content": given}]
    return list(as_list(given) or [])


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
