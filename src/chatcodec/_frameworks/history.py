"""What every stored framework history shares, written once: what it can carry, and its
request role.

A framework stores the conversation, not the call that produced it: tool definitions and
sampling settings are bound to the agent or the chat model, never kept in the messages. So a
history's capabilities differ from one framework to another only in its name, its media and
its cache markers (:data:`STORED_HISTORY`, which each folder's ``capabilities.py`` adjusts), and
its request is ``{"messages": [...]}`` (a LangGraph state's messages channel, what
``generateText`` takes, what pydantic-ai's ``ModelMessagesTypeAdapter`` dumps; the state's other
keys ride in the request's bag, :data:`_HISTORY_KEYS`) <-> a canonical request, the formats
differing only in how a message list is read and written, which each folder's ``messages.py``
says (:class:`HistoryRequest`). A request written as a history reports each tool field and
setting it sets (kind ``setting``), and the request fields a history has no place for (kind
``metadata``), rather than dropping them; a history has no tools or settings to read, so a
folder has no ``tools.py`` or ``settings.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chatcodec import ValidationError
from chatcodec.codec_kit import (
    Problem,
    ProviderKit,
    as_dict,
    history_for,
    leftovers,
    problems_error,
    refuse_unwritable_numbers,
    validate_with,
    wire_fields,
)
from chatcodec.contract import Capabilities, DecodeContext, EncodeContext

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from chatcodec._model.response_fields import UnifiedFinishReason

STORED_HISTORY = Capabilities(
    display_name="stored history",
    tool_choice=frozenset(),
    system="messages",
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=False,
    media=frozenset({"image", "audio", "video", "document"}),
    tool_result_media=frozenset({"image", "audio", "video", "document"}),
    reasoning=frozenset(),
    signed_thinking=True,
    cache_markers=True,
    multiple_choices=False,
    call_ids=True,
    strict_reading=False,
    tool_definitions=False,  # a stored history keeps calls and results, not the tools shown
    sampling_settings=frozenset(),  # nor the request's settings
    fitted_tool_names=False,  # its names are any string: no API reads them
)
"""What a stored history carries: system messages in the list, every media part (in tool
results too), signed thinking, cache markers and calls by id; no tool choice, reasoning
configuration, tool definitions or settings, and one answer. A folder's ``CAPABILITIES`` is this
with its own name and what differs (``dataclasses.replace``)."""

TOOL_FIELDS = ("tools", "provider_tools", "tool_choice", "parallel_tool_calls")
"""The request's tool fields."""

SETTINGS = (
    *("max_tokens", "temperature", "stop", "top_p", "top_k", "frequency_penalty", "presence_penalty", "seed"),
    *("reasoning", "response_format", "verbosity"),
)
"""The request's sampling, reasoning and output-format settings (log probability settings are
reported by the codec, as for every format without them)."""

REQUEST_FIELDS = (
    *("metadata", "cache_control", "user", "service_tier", "stream"),
    *("prompt_cache_key", "safety_identifier"),
)
"""The request's other fields a stored history has no place for."""

_HISTORY_KEYS = ("messages", "model")
"""The keys of a stored history with a canonical home. Every other key (a LangGraph state's
other channels: ``summary``, ``user_id``, ``remaining_steps``) rides in the request's bag
(``provider_options`` under the format's name): written back by the same format, reported
by any other."""

FinishReader = Callable[[str | None, dict[str, Any]], dict[str, Any] | None]


def finish_reader(words: Mapping[str, UnifiedFinishReason]) -> FinishReader:
    """A folder's ``decode_finish_reason``: the unified reason of one of the format's ``words``
    (``other`` for a word it does not list), the word kept raw."""

    def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
        """The canonical reason for a stored word (None when the answer kept none)."""
        del bag
        return None if raw is None else {"unified": words.get(raw, "other"), "raw": raw}

    return decode_finish_reason


def answer_choice(message: dict[str, Any], word: object, decode: FinishReader) -> dict[str, Any]:
    """A stored answer's one choice: its message, with the reason of the finish word it kept."""
    choice: dict[str, Any] = {"index": 0, "message": message}
    reason = decode(word if isinstance(word, str) else None, {})
    if reason is not None:
        choice["finish_reason"] = reason
    return choice


def the_answer(response: Mapping[str, Any], context: EncodeContext, one: str) -> Any:
    """The choice a stored answer holds: the response's first (an empty answer when it has
    none: a stored answer is always one message); every other is a loss (``one`` says why)."""
    choices: Any = response.get("choices") or [{"index": 0, "message": {"role": "assistant", "content": []}}]
    for index in range(1, len(choices)):
        context.losses.add(("choices", index), "choice", one)
    return choices[0]


def refuse_bad_counts(usage: Mapping[str, Any], keys: Sequence[str], where: str) -> None:
    """Raise :class:`ValueError` (a message check's refusal, named at the message) for the
    first of ``keys`` in ``usage`` holding something other than a whole number of 0 or more
    (``None`` is no count): a negative, fractional or string count the reader would pass into
    canonical usage, whose model refuses it at a place the input does not have."""
    for key in keys:
        value = usage.get(key)
        if value is not None and (type(value) is not int or value < 0):
            raise ValueError(f"{where}{_step(key)}: a token count is a whole number, 0 or more")


def _step(key: object) -> str:
    """``.key``, or ``["key"]`` escaped as JSON when the key is no plain name (a lone
    surrogate in an error's text would break pydantic-core writing it)."""
    if isinstance(key, str) and key.isascii() and key.isidentifier():
        return f".{key}"
    return f"[{json.dumps(key if isinstance(key, str) else repr(key))}]"


def refuse_non_string(fields: Mapping[str, Any], keys: Sequence[str], where: str) -> None:
    """Raise :class:`ValueError` for the first of ``keys`` in ``fields`` holding something
    other than a string (``None`` is no value): an id or a name the reader would pass on."""
    for key in keys:
        if fields.get(key) is not None and not isinstance(fields[key], str):
            raise ValueError(f"{where}.{key}: a string")


MessagesReader = Callable[[list[Any], DecodeContext], list[dict[str, Any]]]
MessagesWriter = Callable[[Sequence[Mapping[str, Any]], int, EncodeContext], list[dict[str, Any]]]
HistoryCheck = Callable[[object, str], dict[str, Any]]


def history_check(check_message: Callable[[dict[str, Any]], dict[str, Any]]) -> HistoryCheck:
    """A validator of ``{"messages": [...], "model"?: str}`` whose every message passes
    ``check_message`` (which raises :class:`ValueError` saying why not), so a message the
    framework would refuse is refused at its own path (``$.messages[3]``). It is built on
    first use, so importing a codec loads no pydantic."""
    adapters: list[TypeAdapter[Any]] = []

    def validated_history(payload: object, title: str) -> dict[str, Any]:
        if not adapters:
            from typing import Annotated, NotRequired

            from pydantic import AfterValidator, TypeAdapter
            from typing_extensions import TypedDict

            each = AfterValidator(check_message)

            class Checked(TypedDict):
                messages: list[Annotated[dict[str, Any], each]]
                model: NotRequired[str]

            adapters.append(TypeAdapter(Checked))
        checked = as_dict(validate_with(adapters[0], payload, title))
        assert checked is not None
        return checked

    return validated_history


@dataclass(frozen=True)
class HistoryRequest:
    """One format's request role: how its losses name it, its kit and capabilities, and its
    message list's reader, writer and wire check (named in errors by the capabilities' name)."""

    display: str
    kit: ProviderKit
    capabilities: Capabilities
    read_messages: MessagesReader
    write_messages: MessagesWriter
    validated_history: HistoryCheck

    @property
    def title(self) -> str:
        """How a wire error names the history (``"LangChain history"``)."""
        return f"{self.capabilities.display_name} history"

    def decode_request(self, payload: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
        """Read a stored history as a canonical request dict."""
        history = self.validated_history(payload, self.title)
        canonical: dict[str, Any] = {"messages": self.read_messages(history["messages"], context)}
        if "model" in history:
            canonical["model"] = history["model"]
        kept = leftovers(payload, _HISTORY_KEYS)
        if kept:  # the state's other channels (a LangGraph summary, a user id): its request's bag
            canonical["provider_options"] = {self.kit.name: kept}
        return canonical

    def decode_message_list(self, messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
        """Read a bare message list as canonical message dicts; a message refused is named at
        its place in the list (``$[3]``), not in the history it was checked as; so is a
        ``NaN`` or an infinity, which the history check would name in the history too."""
        refuse_unwritable_numbers(messages)
        try:
            history = self.validated_history({"messages": messages}, self.title)
        except ValidationError as error:
            raise problems_error(self.title, [_in_list(detail) for detail in error.errors()]) from None
        return self.read_messages(history["messages"], context)

    def encode_request(self, request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
        """Write a canonical request as a stored history; what a history cannot hold is a loss."""
        kept = self.kit.claim(context.losses, request.get("provider_options"), ("provider_options",))
        messages = history_for(
            request.get("messages") or [], context.losses, self.kit.name, self.capabilities, reading=context.reading
        )
        wire: dict[str, Any] = {"messages": self.write_messages(messages, 0, context)}
        if request.get("model") is not None:
            wire["model"] = request["model"]
        for key, value in wire_fields(kept).items():
            if key in _HISTORY_KEYS:  # the history's own key is the request's
                context.losses.add(
                    ("provider_options", self.kit.name, key), key, "written from the request's own field"
                )
            else:
                wire[key] = value
        a_history = f"{'an' if self.display[:1].lower() in 'aeiou' else 'a'} {self.display} history"
        for key in TOOL_FIELDS:
            if request.get(key):
                context.losses.add((key,), key, f"{a_history} keeps no tool definitions", "setting")
        for key in SETTINGS:
            if request.get(key) is not None:
                context.losses.add((key,), key, f"{a_history} keeps no {key} setting", "setting")
        for key in REQUEST_FIELDS:
            if request.get(key) is not None:
                context.losses.add((key,), key, f"{a_history} keeps no {key}", "metadata")
        return wire


def validated_answer(check: HistoryCheck, payload: dict[str, Any], title: str) -> dict[str, Any]:
    """``payload``, one stored message (a LangChain ``AIMessage``), checked as a history of
    that message is, a refusal named at its place in ``payload`` (``$.data.id``), not in the
    history it was checked as (``$.messages[0].data.id``); so is a ``NaN`` or an infinity."""
    refuse_unwritable_numbers(payload)
    try:
        checked = check({"messages": [payload]}, title)
    except ValidationError as error:
        raise problems_error(title, [_in_answer(detail) for detail in error.errors()]) from None
    answer = as_dict(checked["messages"][0])
    assert answer is not None
    return answer


def _in_answer(detail: Any) -> Problem:
    """A one-message history's problem at its place in the message (``messages, 0`` taken off)."""
    location = tuple(detail["loc"])
    inside = location[2:] if location[:2] == ("messages", 0) else location
    return Problem(inside, detail["type"], detail["msg"], detail.get("input"))


def _in_list(detail: Any) -> Problem:
    """A history's problem at its place in the bare list (``messages`` taken off its path)."""
    location = tuple(detail["loc"])
    inside = location[1:] if location[:1] == ("messages",) else location
    return Problem(inside, detail["type"], detail["msg"], detail.get("input"))
