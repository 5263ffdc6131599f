"""Canonical stream events -> Gemini stream chunks (:func:`encode_stream`), so a proxy can
serve ``streamGenerateContent`` from any upstream (the SSE text: ``chatcodec.to_sse``).

Every chunk is a partial ``GenerateContentResponse`` carrying ``responseId`` and
``modelVersion``. The decoder's rule (:mod:`.stream_decode`) says what a chunk's parts
mean: the first part of a chunk continues the candidate's open text, any other part is
a new part. So the encoder keeps one chunk pending: a delta of the part being written
goes first in a fresh chunk, the first piece of a new part joins the pending chunk
behind what it holds. A tool call is sent whole when it ends (its argument text parsed
into ``args``), media and opaque parts whole; a signature rides on the last piece of its
part. A usage event ends the pending chunk (Gemini sends usage on the chunk it
describes), and the finish reason goes on the pending chunk's candidate.
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, ClassVar, assert_never

from chatcodec import StreamError
from chatcodec._providers.gemini.finish_reason import encode_finish_reason
from chatcodec._providers.gemini.grounding import METADATA, place_grounding
from chatcodec._providers.gemini.logprobs import RESULT, write_logprobs
from chatcodec._providers.gemini.markers import KIT, NO_CANDIDATES, PROVIDER
from chatcodec._providers.gemini.parts import GeminiContext, encode_part, foreign_signature, shows_foreign_thought
from chatcodec._providers.gemini.response import CANDIDATE_MAPPED, create_time
from chatcodec._providers.gemini.usage import encode_usage
from chatcodec.codec_kit import absent_keys, as_dict, error_status, report_after_error, restore_fields, unmapped_fields
from chatcodec.contract import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    EncodeContext,
    ErrorRecord,
    FinishRecord,
    LossRecorder,
    PartLifecycleRecord,
    PartRecord,
    RefusalDeltaRecord,
    ResponseStartRecord,
    Steps,
    TextDeltaRecord,
    TextEndRecord,
    TextStartRecord,
    ThinkingDeltaRecord,
    ThinkingEndRecord,
    ThinkingSignatureDeltaRecord,
    ThinkingStartRecord,
    ToolCallDeltaRecord,
    ToolCallEndRecord,
    ToolCallStartRecord,
    UsageRecord,
)


def _empty() -> dict[str, Any]:
    return {}  # a factory, not dict[str, Any]: calling a generic alias raises and clears an error inside


def _no_pieces() -> list[str]:
    return []


@dataclass
class _Open:
    """A part between its start and end event."""

    kind: str
    fields: dict[str, Any]
    """Wire fields from the start event's bag (a signature, ``thought: false``...)."""
    piece: dict[str, Any] | None = None
    """The last wire part written for it, while it is in the pending chunk."""
    written: bool = False
    call: dict[str, Any] = field(default_factory=_empty)
    arguments: list[str] = field(default_factory=_no_pieces)
    foreign: bool = False
    """Another provider's reasoning shown as a thought: its signature is not sent."""
    text: list[str] = field(default_factory=_no_pieces)
    """An answer text's fragments, for the spans its citations name at its end."""
    position: int = 0
    """Its wire part's index in the answer (a part not sent has none: the ones after it move up)."""


@dataclass
class _Cited:
    """A text's citations, for its candidate's ``groundingMetadata`` on the finish chunk."""

    position: int
    """The text's wire part's index in the answer."""
    text: str
    citations: list[dict[str, Any]]
    at: Steps
    """Where they came (the event's ``citations``)."""


class StreamEncoder:
    """Feed canonical events with :meth:`feed`, then call :meth:`close` for the tail."""

    stream_contract: ClassVar[int] = 2
    """It reads records (:mod:`chatcodec.contract`'s ``...Record`` classes), not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        self.losses: LossRecorder = context.losses
        self.context: GeminiContext = context.extend(GeminiContext)
        self.head: dict[str, Any] = {}
        self.started: bool = False
        self.first_fields: dict[str, Any] | None = {}
        self.pending: dict[str, Any] | None = None
        self.sealed: bool = False
        """Whether the pending chunk has its usage: the next piece starts a new chunk."""
        self.open: dict[tuple[int, int], _Open] = {}
        self.ready: list[dict[str, Any]] = []
        self.emitted: bool = False
        self.refusals: set[tuple[int, int]] = set()
        self.position: int = 0
        self.tokens: dict[int, tuple[Steps, list[dict[str, Any]]]] = {}  # choice -> its text deltas' tokens
        self.cited: dict[int, list[_Cited]] = {}  # choice -> its texts' citations, for its finish
        self.choice_bags: dict[int, dict[str, Any]] = {}  # choice -> its bag, for citations with no finish
        self.wire_parts: dict[int, int] = {}  # choice -> the parts written for it (a segment's partIndex counts them)
        self.failed: bool = False
        """An error was written: the stream ends there (:mod:`~chatcodec._providers.kit.stream_errors`)."""
        self.dropped: bool = False  # an event came after it, left out

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The chunks ``event`` completes (possibly none yet)."""
        if self.failed:
            self.dropped = True
            return
        try:
            self._feed(event, ("events", self.position))
        finally:
            self.position += 1
        ready, self.ready = self.ready, []
        yield from ready

    def close(self) -> Iterator[dict[str, Any]]:
        """The pending chunk (a response with nothing in it is still one chunk: a stream of
        none is no answer at all, and is refused when read back). Text deltas' tokens with
        no finish to carry them are reported. Nothing after an error."""
        if self.failed:
            if self.dropped:
                report_after_error(self.losses, "Gemini")
            return
        for at, _ in self.tokens.values():
            self.losses.add((*at, "logprobs"), "token log probabilities", "a Gemini stream gives them at the finish")
        self.tokens.clear()
        for choice in list(self.cited):  # a candidate with no finish has its fields on any chunk
            candidate = self._candidate(choice)
            bag = self.choice_bags.get(choice, {})
            kept = as_dict(bag.get(METADATA))
            if kept is not None:
                candidate[METADATA] = kept
            self._grounding(choice, candidate, bag, ("events", self.position))
            content: dict[str, Any] = candidate.get("content") or {}
            if not content.get("parts") and content.keys() <= {"parts", "role"}:
                candidate.pop("content", None)
        if not self.emitted and self.pending is None and (self.head or self.started):
            self._chunk()
        self._flush()
        ready, self.ready = self.ready, []
        yield from ready

    def _flush(self) -> None:
        if self.pending is not None:
            self.ready.append(self.pending)
            self.pending = None
            self.emitted = True
        self.sealed = False

    def _feed(self, event: AnyStreamRecord, at: Steps) -> None:
        match event:
            case ResponseStartRecord():
                self._start(event, at)
            case UsageRecord():
                if self.sealed:
                    self._flush()
                usage = deepcopy(event.usage)
                self._chunk()["usageMetadata"] = encode_usage(usage, self.context, (*at, "usage"))
                self.sealed = True
            case FinishRecord():
                self._finish(event, at)
            case ChoiceMetadataRecord():
                self._choice_data(event, at)
            case ErrorRecord():
                self.failed = True
                self._flush()
                self.ready.append(_error_body(event))
                self.emitted = True
            case _:
                self._part_event(event, at)

    def _start(self, event: ResponseStartRecord, at: Steps) -> None:
        self.started = True
        bag = KIT.claim(self.losses, event.provider_metadata, at)
        if event.id is not None:
            self.head["responseId"] = event.id
        if event.model is not None:
            self.head["modelVersion"] = event.model
        self.first_fields = restore_fields(bag)
        if event.created is not None and "createTime" not in self.first_fields:  # as in a response
            written = create_time(event.created, self.losses)
            if written is not None:
                self.first_fields["createTime"] = written

    def _chunk(self) -> dict[str, Any]:
        if self.pending is None:
            self.pending = {**(self.first_fields or {}), **self.head}
            self.first_fields = None
        return self.pending

    def _candidate(self, choice: int) -> dict[str, Any]:
        chunk = self._chunk()
        candidates: list[dict[str, Any]] = chunk.setdefault("candidates", [])
        for candidate in candidates:
            if candidate.get("index", 0) == choice:
                return candidate
        fresh: dict[str, Any] = {"content": {"parts": [], "role": "model"}, "index": choice}
        candidates.append(fresh)
        return fresh

    def _parts(self, choice: int) -> list[dict[str, Any]]:
        candidate = self._candidate(choice)
        content: dict[str, Any] = candidate.setdefault("content", {"parts": [], "role": "model"})
        parts: list[dict[str, Any]] = content.setdefault("parts", [])
        return parts

    def _piece(self, choice: int, piece: dict[str, Any], *, continuation: bool) -> None:
        """Write ``piece``: first in a chunk when it continues a part, else behind the
        pending chunk's parts."""
        if self.sealed or (continuation and self.pending is not None and self._parts(choice)):
            self._flush()
        self._parts(choice).append(piece)
        if not continuation:
            self.wire_parts[choice] = self.wire_parts.get(choice, 0) + 1

    def _finish(self, event: FinishRecord, at: Steps) -> None:
        response_bag = KIT.claim(self.losses, event.provider_metadata, at)
        if response_bag.get(NO_CANDIDATES) is not None:
            self._chunk()
            return
        bag = KIT.claim(self.losses, event.choice_metadata, (*at, "choice_metadata"))
        candidate = self._candidate(event.choice)
        candidate.update(unmapped_fields(restore_fields(bag), CANDIDATE_MAPPED))
        if "index" in absent_keys(bag) and event.choice == 0:
            del candidate["index"]
        reason = encode_finish_reason(dict(event.finish_reason), bag, self.context, (*at, "finish_reason"))
        if reason is not None:
            candidate["finishReason"] = reason
        streamed = self.tokens.pop(event.choice, None)
        if event.logprobs is not None or streamed is not None:  # the whole answer's, on its last chunk
            tokens = [*(streamed[1] if streamed else ()), *deepcopy(event.logprobs or [])]
            candidate[RESULT] = write_logprobs(tokens, candidate.get(RESULT), self.losses, at)
        self._grounding(event.choice, candidate, bag, at)
        content: dict[str, Any] = candidate.get("content") or {}
        if not content.get("parts") and content.keys() <= {"parts", "role"} and content.get("role") == "model":
            candidate.pop("content", None)  # nothing in it but the answer's role

    def _grounding(self, choice: int, candidate: dict[str, Any], bag: dict[str, Any], at: Steps) -> None:
        """The candidate's ``groundingMetadata`` from its texts' citations, as a body's
        (:func:`.grounding.place_grounding`), each text at its wire part's index."""
        cited = self.cited.pop(choice, [])
        if not cited and METADATA not in candidate:
            return
        size = max((text.position + 1 for text in cited), default=0)
        parts: list[dict[str, Any]] = [{"type": "opaque"}] * size
        places: list[Steps] = [at] * size
        for text in cited:
            parts[text.position] = {"type": "text", "text": text.text, "citations": text.citations}
            places[text.position] = text.at
        place_grounding(candidate, bag, parts, range(size), losses=self.losses, at=at, places=places)

    def _choice_data(self, event: ChoiceMetadataRecord, at: Steps) -> None:
        """A choice's bag goes on its candidate and its message's on the candidate's
        ``content``, where ``encode_response`` writes them; the decoder gathers both over
        the chunks."""
        why = "a Gemini stream gives response fields on its first chunk"
        KIT.report_unplaced(self.losses, event.provider_metadata, (*at, "provider_metadata"), why)
        bag = KIT.claim(self.losses, event.choice_metadata, (*at, "choice_metadata"))
        self.choice_bags[event.choice] = {**self.choice_bags.get(event.choice, {}), **bag}
        message_bag = KIT.claim(self.losses, event.message_metadata, (*at, "message_metadata"))
        # what the candidate and its content say themselves wins, as in ``encode_response``
        fields = unmapped_fields(restore_fields(bag), CANDIDATE_MAPPED)
        message_fields = unmapped_fields(restore_fields(message_bag), ("parts",))
        if not fields and not message_fields:
            return
        candidate = self._candidate(event.choice)
        candidate.update(fields)
        content: dict[str, Any] = candidate.setdefault("content", {"parts": [], "role": "model"})
        content.update(message_fields)

    # --- parts ---------------------------------------------------------------------------

    def _part_event(self, event: PartLifecycleRecord, at: Steps) -> None:
        match event:
            case TextStartRecord():
                fields = restore_fields(KIT.claim(self.losses, event.provider_metadata, at))
                self.open[(event.choice, event.index)] = _Open("text", fields)
            case ThinkingStartRecord():
                self._thinking_start(event, at)
            case TextDeltaRecord() | ThinkingDeltaRecord():
                self._hold_tokens(event, at)
                self._text(event.choice, event.index, event.delta)
            case ThinkingSignatureDeltaRecord():
                self._signature(event.choice, event.index, event.delta, at)
            case TextEndRecord() | ThinkingEndRecord():
                self._text_end(event, at)
            case ToolCallStartRecord():
                bag = KIT.claim(self.losses, event.provider_metadata, at)
                self.open[(event.choice, event.index)] = _Open(
                    "tool_use", {}, call={"id": event.id, "name": event.name, "bag": bag}
                )
            case ToolCallDeltaRecord():
                state = self.open.get((event.choice, event.index))
                if state is not None:
                    state.arguments.append(event.delta)
            case ToolCallEndRecord():
                self._tool_end(event, at)
            case RefusalDeltaRecord():
                self._refusal(event, at)
            case PartRecord():
                self._whole(event, at)
            case _:
                assert_never(event)

    def _hold_tokens(self, event: TextDeltaRecord | ThinkingDeltaRecord, at: Steps) -> None:
        """A text delta's tokens wait for its answer's finish, whose chunk gives the
        candidate's ``logprobsResult`` (as the reader takes a Gemini stream's, joined)."""
        if isinstance(event, TextDeltaRecord) and event.logprobs is not None:
            held = self.tokens.setdefault(event.choice, (at, []))[1]
            held.extend(deepcopy(event.logprobs))

    def _refusal(self, event: RefusalDeltaRecord, at: Steps) -> None:
        """A refusal is sent as text (reported once per part)."""
        key = (event.choice, event.index)
        if key not in self.refusals:
            self.losses.add(at, "refusal", "Gemini has no refusal part; sent as text")
            self.refusals.add(key)
            self.open[key] = _Open("text", {})
        self._text(event.choice, event.index, event.delta)

    def _thinking_start(self, event: ThinkingStartRecord, at: Steps) -> None:
        """A thought part; another provider's reasoning is not sent (as in a body)."""
        fields = restore_fields(KIT.claim(self.losses, event.provider_metadata, at))
        if event.provider != PROVIDER:
            if shows_foreign_thought(self.context, None):
                self.open[(event.choice, event.index)] = _Open("thinking", {"thought": True}, foreign=True)
                return
            source = event.provider or "an unknown provider"
            self.losses.add(at, "thinking", f"reasoning from {source} is not Gemini's thought; not sent")
            return
        self.open[(event.choice, event.index)] = _Open("thinking", {**fields, "thought": True})

    def _text(self, choice: int, index: int, delta: str) -> None:
        state = self.open.get((choice, index))
        if state is None:
            return
        piece: dict[str, Any] = {"text": delta}
        if state.kind == "thinking":
            piece["thought"] = True
        else:
            state.text.append(delta)
        if not state.written:
            piece = {**state.fields, **piece}
            state.position = self.wire_parts.get(choice, 0)
        self._piece(choice, piece, continuation=state.written)
        state.piece = piece
        state.written = True

    def _signature(self, choice: int, index: int, delta: str, at: Steps) -> None:
        state = self.open.get((choice, index))
        if state is None:
            return
        if state.foreign:
            foreign_signature(delta, self.losses, at)
            return
        if state.piece is None or not self._is_pending(choice, state.piece):
            self._text(choice, index, "")
        assert state.piece is not None
        state.piece["thoughtSignature"] = state.piece.get("thoughtSignature", "") + delta

    def _is_pending(self, choice: int, piece: dict[str, Any]) -> bool:
        return self.pending is not None and any(part is piece for part in self._parts(choice))

    def _text_end(self, event: TextEndRecord | ThinkingEndRecord, at: Steps) -> None:
        key = (event.choice, event.index)
        state = self.open.get(key)
        if state is None:
            return
        if isinstance(event, ThinkingEndRecord) and event.encrypted is not None:
            self.losses.add((*at, "encrypted"), "encrypted reasoning", "Gemini thoughts carry no encrypted payload")
        extra = restore_fields(KIT.claim(self.losses, event.provider_metadata, at))
        if not state.written or (
            extra and not (state.piece is not None and self._is_pending(event.choice, state.piece))
        ):
            self._text(event.choice, event.index, "")  # a piece for an empty part, or to carry the end
        if extra and state.piece is not None:
            state.piece.update(extra)
        del self.open[key]
        if isinstance(event, TextEndRecord) and event.citations:
            cited = deepcopy(event.citations)
            text = _Cited(state.position, "".join(state.text), cited, (*at, "citations"))
            self.cited.setdefault(event.choice, []).append(text)

    def _tool_end(self, event: ToolCallEndRecord, at: Steps) -> None:
        state = self.open.get((event.choice, event.index))
        if state is None:
            return
        if state.kind != "tool_use":  # found by the stream law: a tool end for a text part
            raise StreamError(
                f"the end of tool call {event.index}, which is an open {state.kind} part", "$.index", self.position
            )
        del self.open[(event.choice, event.index)]
        extra = KIT.claim(self.losses, event.provider_metadata, at)
        bag = {**state.call["bag"], **extra}
        part: dict[str, Any] = {
            "type": "tool_use",
            "id": state.call["id"],
            "name": state.call["name"],
            "arguments": "".join(state.arguments),
        }
        if bag:
            part["provider_metadata"] = {PROVIDER: bag}
        wire = encode_part(part, self.context, at)
        if wire is not None:
            self._piece(event.choice, wire, continuation=False)

    def _whole(self, event: PartRecord, at: Steps) -> None:
        part = deepcopy(event.part)  # the record's part is shared: the writers get their own copy
        if part.get("type") == "text" and part.get("citations"):
            cited = deepcopy(part["citations"])
            position = self.wire_parts.get(event.choice, 0)  # a text part is always written
            text = _Cited(position, part["text"], cited, (*at, "part", "citations"))
            self.cited.setdefault(event.choice, []).append(text)
        if event.provider_metadata is not None:
            part["provider_metadata"] = {**(part.get("provider_metadata") or {}), **event.provider_metadata}
        wire = encode_part(part, self.context, at)
        if wire is not None:
            self._piece(event.choice, wire, continuation=False)


def _error_body(event: ErrorRecord) -> dict[str, Any]:
    """Google's error shape, ``{"error": {"code", "message", "status"}}``: google-genai
    reads ``code`` from a streamed error chunk (``errors.APIError`` raises ``TypeError``
    without it), so it is the status the error type stands for (500 when unknown)."""
    body = as_dict(event.body)
    if body is not None and isinstance(body.get("error"), dict):
        return dict(body)
    error: dict[str, Any] = {"code": error_status(event.error_type), "message": event.message}
    if event.error_type is not None:
        error["status"] = event.error_type
    return {"error": error}
