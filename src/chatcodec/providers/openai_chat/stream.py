"""``chat.completion.chunk`` streams, both ways (encoding lives in ``stream_writer.py``).

The decoder only maps chunks to canonical events; :class:`~chatcodec.StreamAccumulator`
builds the response. Its state is which canonical part each wire stream feeds, per
choice, so work stays linear in the stream. What it gets right where other libraries did
not:

- tool-call fragments are keyed by ``(choice, index)``: parallel calls whose fragments
  interleave never mix (litellm once squashed three calls into ``{...}{...}{...}``, and
  any-llm attached fragments to the wrong call); a fragment carrying a *new* ``id`` at an
  index already in use starts a new call rather than merging into the old one (the
  langchain bug); a call may also arrive whole in one fragment (Groq);
- a fragment for an index never started (no ``id`` and ``name``), or content for a choice
  that already finished, raises :class:`~chatcodec.StreamError` naming the chunk;
- ``content: ""`` and ``refusal: ""`` (OpenAI's first chunk) start nothing by themselves:
  an empty part is only created if nothing fills it, just before the next tool call (or
  refusal) or at the finish, so the parts come out in the non-streamed order (reasoning,
  content, refusal, tool calls) even when the empty content precedes the reasoning;
- an ``error`` object inside a 200 stream (or an ``event: error``) is an
  :class:`~chatcodec.ErrorEvent`, not a crash; OpenRouter's usage chunk with
  ``choices: []``, the ``obfuscation`` padding and n > 1 interleaved choices are handled.

Kept for a proxy to re-encode: the first chunk's ``id``, ``model``, ``created`` and other
chunk fields (``system_fingerprint``, ``service_tier``, OpenRouter ``provider``, Groq
``x_groq``) on :class:`~chatcodec.ResponseStartEvent`; per-chunk ``logprobs`` and delta
extras (Groq ``channel``) on the delta event they came with; chunk fields that change
later (Groq's final ``x_groq``) as ``_chunk`` on the finish or usage event. Dropped, as
meaningless after parsing: ``obfuscation``, ``delta.role``, ``null`` values, and the
``reasoning`` text OpenRouter repeats from ``reasoning_details`` in the same chunk.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.errors import StreamError, ValidationError
from chatcodec.losses import LossRecorder
from chatcodec.providers.kit import leftovers, mark_absent
from chatcodec.providers.openai_chat import reasoning
from chatcodec.providers.openai_chat.finish_reason import decode_finish_reason
from chatcodec.providers.openai_chat.markers import PROVIDER
from chatcodec.providers.openai_chat.usage import decode_usage
from chatcodec.providers.openai_chat.wire import CHUNK_ADAPTER
from chatcodec.response import FinishReason
from chatcodec.stream_events import (
    AnyStreamEvent,
    ErrorEvent,
    FinishEvent,
    PartEvent,
    RefusalDeltaEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UsageEvent,
)
from chatcodec.validation import validate_with

CHUNK_OBJECT = "chat.completion.chunk"
_CHUNK_KEYS = ("id", "created", "model", "choices", "usage", "obfuscation")
_DELTA_KEYS = ("role", "content", "refusal", "reasoning_content", "reasoning", "reasoning_details", "tool_calls")
_CARRIERS = (
    TextDeltaEvent,
    RefusalDeltaEvent,
    ThinkingDeltaEvent,
    ThinkingSignatureDeltaEvent,
    ToolCallDeltaEvent,
    FinishEvent,
)
"""Events that carry a chunk's per-choice extras (logprobs, delta extras)."""


def decode_stream(events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
    """Map wire chunks to canonical events, lazily."""
    decoder = StreamDecoder()
    for event in events:
        yield from decoder.feed(event)
    yield from decoder.close()


class StreamDecoder:
    """Push-style decoding: feed chunks as they arrive (from a sync or async source)."""

    def __init__(self) -> None:
        self._decoder = _Decoder()
        self._count = 0

    def feed(self, event: dict[str, Any]) -> list[AnyStreamEvent]:
        """Canonical events for one wire chunk; errors name it by its position."""
        index, self._count = self._count, self._count + 1
        return self._decoder.chunk(event, index)

    def close(self) -> list[AnyStreamEvent]:
        """Nothing is owed at the end: parts a cut-off stream left open stay as they are."""
        return []


def encode_stream(events: Iterable[AnyStreamEvent], losses: LossRecorder) -> Iterator[dict[str, Any]]:
    """Map canonical events to wire chunks, lazily (see ``stream_writer.py``)."""
    from chatcodec.providers.openai_chat.stream_writer import StreamWriter

    writer = StreamWriter(losses)
    for number, event in enumerate(events):
        yield from writer.event(event, number)


def to_sse(wire_events: Iterable[dict[str, Any]]) -> Iterator[str]:
    """The SSE text OpenAI sends: one compact ``data:`` line per chunk, then ``[DONE]``."""
    for event in wire_events:
        yield f"data: {json.dumps(event, ensure_ascii=False, separators=(',', ':'))}\n\n"
    yield "data: [DONE]\n\n"


class _Choice:
    """Which canonical part each wire stream of one choice feeds."""

    def __init__(self) -> None:
        self.next_index = 0
        self.text: int | None = None
        self.refusal: int | None = None
        self.thinking: dict[str, int] = {}  # reasoning field -> part
        self.details: dict[int, int] = {}  # reasoning_details index -> part
        self.tools: dict[int, tuple[int, str, str]] = {}  # tool-call index -> (part, id, name)
        self.open: list[tuple[str, int]] = []
        self.encrypted: dict[int, str] = {}
        self.pending_text = False
        self.pending_refusal = False
        self.finished = False

    def take(self, kind: str | None = None) -> int:
        index = self.next_index
        self.next_index += 1
        if kind is not None:
            self.open.append((kind, index))
        return index


class _Decoder:
    def __init__(self) -> None:
        self.start: dict[str, Any] | None = None
        self.choices: dict[int, _Choice] = {}

    def chunk(self, event: dict[str, Any], event_index: int) -> list[AnyStreamEvent]:
        events: list[AnyStreamEvent] = []
        if "error" in event:
            events.append(_error_event(event["error"]))
            if "choices" not in event:
                return events
        chunk = _validated(event, event_index)
        late = self._chunk_fields(chunk, events)
        for position, wire_choice in enumerate(chunk["choices"]):
            events.extend(self._choice(wire_choice, (event_index, position)))
        if isinstance(chunk.get("usage"), dict):
            events.append(UsageEvent.model_validate({"usage": decode_usage(chunk["usage"])}))
        if late:
            carrier = next((item for item in events if isinstance(item, FinishEvent | UsageEvent)), None)
            if carrier is not None:
                _bag_of(carrier)["_chunk"] = late
        return events

    def _chunk_fields(self, chunk: dict[str, Any], events: list[AnyStreamEvent]) -> dict[str, Any]:
        """Open the response on the first chunk; later, the chunk fields that changed."""
        mapped = _CHUNK_KEYS if chunk.get("object") != CHUNK_OBJECT else (*_CHUNK_KEYS, "object")
        fields = leftovers(chunk, mapped)
        if self.start is not None:
            return {key: value for key, value in fields.items() if self.start.get(key, ...) != value}
        self.start = fields
        bag = dict(fields)
        mark_absent(bag, chunk, "id", "object", "created", "model")
        known = {key: chunk[key] for key in ("id", "model", "created") if key in chunk}
        events.append(ResponseStartEvent(**known, provider_metadata={PROVIDER: bag} if bag else None))
        return {}

    def _choice(self, wire_choice: dict[str, Any], where: tuple[int, int]) -> list[AnyStreamEvent]:
        number: int = wire_choice["index"]
        state = self.choices.setdefault(number, _Choice())
        delta: dict[str, Any] = wire_choice["delta"]
        finish = wire_choice.get("finish_reason")
        if state.finished and (_has_payload(delta) or finish is not None):
            raise StreamError(f"choice {number} continues after its finish_reason", _at(where, "delta"), where[0])
        events: list[AnyStreamEvent] = []
        self._reasoning(state, number, delta, events)
        self._content(state, number, delta.get("content"), events)
        self._refusal(state, number, delta.get("refusal"), events)
        for position, fragment in enumerate(delta.get("tool_calls") or ()):
            self._tool_call(state, number, fragment, events, (*where, position))
        choice_rest = leftovers(wire_choice, ("index", "delta", "finish_reason"))
        extras = {key: value for key, value in choice_rest.items() if value is not None}
        delta_extras = {key: value for key, value in leftovers(delta, _DELTA_KEYS).items() if value is not None}
        if delta_extras:
            extras["delta"] = delta_extras
        if isinstance(finish, str):
            events.extend(self._finish(state, number, finish))
        carrier = next((item for item in events if isinstance(item, _CARRIERS)), None)
        if extras and carrier is not None:
            _bag_of(carrier).update(extras)
        return events

    # --- reasoning ---------------------------------------------------------------------

    def _reasoning(self, state: _Choice, number: int, delta: dict[str, Any], events: list[AnyStreamEvent]) -> None:
        content = delta.get("reasoning_content")
        details: list[dict[str, Any]] = delta.get("reasoning_details") or []
        copied = _repeated_reasoning(delta.get("reasoning"), content, details)
        if isinstance(content, str) and content:
            self._thinking_text(state, number, "reasoning_content", content, events)
        if isinstance(delta.get("reasoning"), str) and delta["reasoning"] and not copied:
            self._thinking_text(state, number, "reasoning", delta["reasoning"], events)
        for position, fragment in enumerate(details):
            self._detail(state, number, fragment, position, events)

    def _thinking_text(
        self, state: _Choice, number: int, field: str, text: str, events: list[AnyStreamEvent], **bag: Any
    ) -> None:
        index = state.thinking.get(field)
        if index is None:
            index = state.thinking[field] = state.take("thinking")
            metadata = {PROVIDER: {"field": field, **bag}}
            events.append(ThinkingStartEvent(index=index, choice=number, provider=PROVIDER, provider_metadata=metadata))
        if text:
            events.append(ThinkingDeltaEvent(index=index, choice=number, delta=text))

    def _detail(
        self, state: _Choice, number: int, fragment: dict[str, Any], position: int, events: list[AnyStreamEvent]
    ) -> None:
        key = fragment["index"] if isinstance(fragment.get("index"), int) else position
        kind = fragment.get("type")
        index = state.details.get(key)
        if index is None and kind == "reasoning.encrypted":
            state.details[key] = index = state.take()
            part = reasoning.decode_detail(fragment)
            events.append(PartEvent.model_validate({"index": index, "choice": number, "part": part}))
            return
        if index is None:
            state.details[key] = index = state.take("thinking")
            bag = {"field": reasoning.DETAILS, **leftovers(fragment, ("text", "summary", "signature", "data"))}
            events.append(
                ThinkingStartEvent(index=index, choice=number, provider=PROVIDER, provider_metadata={PROVIDER: bag})
            )
        text = fragment.get("summary" if kind == "reasoning.summary" else "text")
        if isinstance(text, str) and text:
            events.append(ThinkingDeltaEvent(index=index, choice=number, delta=text))
        if isinstance(fragment.get("signature"), str) and fragment["signature"]:
            events.append(ThinkingSignatureDeltaEvent(index=index, choice=number, delta=fragment["signature"]))
        if isinstance(fragment.get("data"), str) and kind != "reasoning.encrypted":
            state.encrypted[index] = fragment["data"]

    # --- content, refusal, tool calls ----------------------------------------------------

    def _content(self, state: _Choice, number: int, content: object, events: list[AnyStreamEvent]) -> None:
        listed = as_list(content)
        if listed is not None:  # Mistral: text and thinking parts
            for item in listed:
                self._content_part(state, number, item, events)
        elif isinstance(content, str) and content:
            events.append(TextDeltaEvent(index=self._text(state, number, events), choice=number, delta=content))
        elif content == "" and state.text is None:
            state.pending_text = True

    def _content_part(self, state: _Choice, number: int, item: dict[str, Any], events: list[AnyStreamEvent]) -> None:
        match item.get("type"):
            case "text":
                self._content(state, number, item["text"], events)
            case "thinking":
                extra = leftovers(item, ("type", "thinking"))
                text = reasoning.chunk_text(item["thinking"])
                self._thinking_text(state, number, reasoning.CONTENT, text, events, **extra)
            case _:
                part = {"type": "opaque", "provider": PROVIDER, "data": item}
                events.append(PartEvent.model_validate({"index": state.take(), "choice": number, "part": part}))

    def _text(self, state: _Choice, number: int, events: list[AnyStreamEvent]) -> int:
        if state.text is None:
            state.text = state.take("text")
            events.append(TextStartEvent(index=state.text, choice=number))
        state.pending_text = False
        return state.text

    def _refusal(self, state: _Choice, number: int, refusal: object, events: list[AnyStreamEvent]) -> None:
        if not isinstance(refusal, str):
            return
        if refusal == "" and state.refusal is None:
            state.pending_refusal = True
            return
        if refusal:
            self._settle(state, number, events, refusal=False)
            events.append(RefusalDeltaEvent(index=self._refusal_index(state), choice=number, delta=refusal))

    def _refusal_index(self, state: _Choice) -> int:
        if state.refusal is None:
            state.refusal = state.take()
        state.pending_refusal = False
        return state.refusal

    def _settle(self, state: _Choice, number: int, events: list[AnyStreamEvent], *, refusal: bool) -> None:
        """Create the empty parts announced by ``""`` now that their place is known."""
        if state.pending_text and state.text is None:
            self._text(state, number, events)
        if refusal and state.pending_refusal and state.refusal is None:
            events.append(RefusalDeltaEvent(index=self._refusal_index(state), choice=number, delta=""))

    def _tool_call(
        self,
        state: _Choice,
        number: int,
        fragment: dict[str, Any],
        events: list[AnyStreamEvent],
        where: tuple[int, int, int],
    ) -> None:
        key: int = fragment["index"]
        function: dict[str, Any] = fragment.get("function") or {}
        call_id, name = fragment.get("id"), function.get("name")
        known = state.tools.get(key)
        if known is None or (call_id and call_id != known[1]):
            if not isinstance(call_id, str) or not isinstance(name, str):
                message = f"tool-call fragment for index {key}, which was never started (no id and name)"
                raise StreamError(message, _at(where[:2], f"delta.tool_calls[{where[2]}]"), where[0])
            self._settle(state, number, events, refusal=True)
            index = state.take("tool_use")
            state.tools[key] = known = (index, call_id, name)
            events.append(
                ToolCallStartEvent(
                    index=index, choice=number, id=call_id, name=name, provider_metadata=_call_bag(fragment, function)
                )
            )
        elif name and name != known[2]:
            message = f"tool call {known[1]!r} changed its name from {known[2]!r} to {name!r}"
            raise StreamError(message, _at(where[:2], f"delta.tool_calls[{where[2]}].function.name"), where[0])
        arguments = function.get("arguments")
        if isinstance(arguments, str) and arguments:
            events.append(ToolCallDeltaEvent(index=known[0], choice=number, delta=arguments))

    def _finish(self, state: _Choice, number: int, finish: str) -> list[AnyStreamEvent]:
        events: list[AnyStreamEvent] = []
        self._settle(state, number, events, refusal=True)
        for kind, index in state.open:
            if kind == "text":
                events.append(TextEndEvent(index=index, choice=number))
            elif kind == "thinking":
                events.append(ThinkingEndEvent(index=index, choice=number, encrypted=state.encrypted.get(index)))
            else:
                events.append(ToolCallEndEvent(index=index, choice=number))
        state.open = []
        state.finished = True
        marker: dict[str, Any] = {}
        reason = FinishReason(**(decode_finish_reason(finish, marker) or {}))
        metadata = {PROVIDER: marker} if marker else None
        events.append(FinishEvent(choice=number, finish_reason=reason, provider_metadata=metadata))
        return events


def _validated(event: dict[str, Any], event_index: int) -> dict[str, Any]:
    try:
        validated = validate_with(CHUNK_ADAPTER, event, "OpenAI Chat stream chunk")
    except ValidationError as error:
        detail = error.errors(include_url=False)[0]
        raise StreamError(f"{detail['msg']} [rule: {detail['type']}]", error.paths[0], event_index) from None
    return dict(validated)


def _error_event(error: object) -> ErrorEvent:
    fields = as_dict(error)
    if fields is not None:
        message = fields.get("message")
        kind = fields.get("type") or fields.get("code")
        return ErrorEvent(
            message=message if isinstance(message, str) else json.dumps(error),
            error_type=str(kind) if kind is not None else None,
            body=fields,
        )
    return ErrorEvent(message=str(error), body=error if isinstance(error, str | int | float | bool) else None)


def _repeated_reasoning(reasoning_text: object, content: object, details: list[dict[str, Any]]) -> bool:
    """Whether ``reasoning`` only repeats the chunk's other reasoning (OpenRouter, vLLM)."""
    if not isinstance(reasoning_text, str) or not reasoning_text:
        return False
    if reasoning_text == content:
        return True
    texts = (fragment.get("summary" if fragment.get("type") == "reasoning.summary" else "text") for fragment in details)
    return bool(details) and reasoning_text == "".join(text for text in texts if isinstance(text, str))


def _has_payload(delta: dict[str, Any]) -> bool:
    return any(delta.get(key) for key in _DELTA_KEYS if key != "role")


def _call_bag(fragment: dict[str, Any], function: dict[str, Any]) -> dict[str, Any] | None:
    bag = leftovers(fragment, ("index", "id", "type", "function"))
    function_rest = leftovers(function, ("name", "arguments"))
    if function_rest:
        bag["function"] = function_rest
    mark_absent(bag, fragment, "type")
    return {PROVIDER: bag} if bag else None


def _bag_of(event: AnyStreamEvent) -> dict[str, Any]:
    if event.provider_metadata is None:
        event.provider_metadata = {}
    return event.provider_metadata.setdefault(PROVIDER, {})


def _at(where: tuple[int, int], rest_of_path: str) -> str:
    return f"$.choices[{where[1]}].{rest_of_path}"
