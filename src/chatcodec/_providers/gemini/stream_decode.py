"""Decoding a Gemini stream (``streamGenerateContent``): the one path, driving the shared builder.

Each chunk is a partial ``GenerateContentResponse`` (SSE ``data:`` lines with
``?alt=sse``, or the elements of a JSON array / JSON lines). A chunk's parts continue
the answer: the *first* part of a chunk continues the part still open in its candidate
when both are text of the same kind (answer or thought) and the chunk's part carries
nothing but text (and at most the one signature the open part lacks); any other part
starts a new canonical part, numbered by the decoder (never by the chunk, whose
positions restart at 0: clients that trust them overwrite parallel calls). So a
trailing chunk that carries only a ``thoughtSignature`` on an empty text lands on the
part it signs, as in the non-streamed body, and two signed parts are never joined.

Function calls arrive whole, except on Vertex with streamed arguments: ``functionCall
{name, willContinue}`` opens the call, ``{partialArgs: [{jsonPath, stringValue...,
willContinue}]}`` chunks fill its arguments, and an empty ``functionCall {}`` ends it
(:mod:`.partial_args`). Other parts (media, code execution) are given whole.

``usageMetadata`` repeats totals so far on many chunks: later values replace earlier
ones, key by key; the counts are emitted whenever they change (live usage), and the
whole usage (with its bag) once at the end, when it is final. A candidate's
``logprobsResult`` steps are joined over its chunks and given with its finish
(:mod:`.logprobs`). A chunk with no candidate and a
``promptFeedback.blockReason`` is a blocked prompt; ``{"error": {...}}`` is an error event.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chatcodec import StreamError, ValidationError
from chatcodec._providers.gemini.call_ids import response_prefix
from chatcodec._providers.gemini.finish_reason import decode_block_reason, decode_finish_reason
from chatcodec._providers.gemini.grounding import METADATA, read_grounding
from chatcodec._providers.gemini.logprobs import RESULT, join_results, take_logprobs
from chatcodec._providers.gemini.markers import NO_ARGS, NO_CANDIDATES, PROVIDER
from chatcodec._providers.gemini.partial_args import PartialCall
from chatcodec._providers.gemini.parts import PartDecoding, decode_call, decode_part
from chatcodec._providers.gemini.response import (
    CANDIDATE_MAPPED,
    REPEATED_INDEX,
    content_rest,
    read_create_time,
    repeated_index,
    response_bag,
)
from chatcodec._providers.gemini.usage import decode_usage
from chatcodec._providers.gemini.wire import ErrorBody, Response, is_error_body, validated
from chatcodec.codec_kit import FeedByReading, json_path, leftovers, mark_absent, read_event
from chatcodec.contract import AnyStreamRecord, DecodeContext, ErrorRecord, PartBuilder, StreamBuilder

if TYPE_CHECKING:
    from chatcodec import PartEvent

_TEXT_KEYS = frozenset({"text", "thought", "thoughtSignature"})
_PIECE_KEYS = frozenset({"partialArgs", "willContinue"})
"""What a piece of a Vertex streamed call holds (:mod:`.partial_args`)."""


def _empty() -> dict[str, Any]:
    return {}  # a factory, not dict[str, Any]: calling a generic alias raises and clears an error inside


def _fragments() -> list[str]:
    return []


@dataclass
class _OpenText:
    """A text or thought part that may still grow."""

    kind: str
    part: PartBuilder
    signed: bool
    end_metadata: dict[str, Any] = field(default_factory=_empty)
    text: list[str] = field(default_factory=_fragments)
    """An answer text's fragments, for the grounding that may cite it at the end."""


@dataclass
class _Choice:
    """One candidate's state across chunks."""

    next_index: int = 0
    extras: dict[str, Any] = field(default_factory=_empty)
    """Candidate fields without a canonical home (``safetyRatings``, ``citationMetadata``,
    ``groundingMetadata``...), gathered over the chunks, given with the finish reason (or,
    for a candidate that never finished, on its own at the end)."""
    message: dict[str, Any] = field(default_factory=_empty)
    """The ``content`` fields other than ``parts`` (and ``role: model``): the message's bag."""
    open: _OpenText | None = None
    partial: PartialCall | None = None
    has_calls: bool = False


STREAM_END = "a candidate with its finishReason"
"""A ``streamGenerateContent`` stream ends with the chunk whose candidate carries
``finishReason`` (or, for a blocked prompt, ``promptFeedback.blockReason``;
ai.google.dev/api/generate-content#method:-models.streamgeneratecontent): a candidate
without one was cut."""


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each chunk as it arrives, then :meth:`close`."""

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(PROVIDER)
        """The decode's shared state (:class:`~chatcodec._providers.contract.context.DecodeContext`)."""
        self.position: int = -1
        self.started: bool = False
        self.model: str | None = None
        self.prefix: str = response_prefix(None)
        self.usage: dict[str, Any] | None = None
        self.counts: dict[str, Any] = {}
        self.choices: dict[int, _Choice] = {}
        self.finished: set[int] = set()
        self.finishes: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        """Finish reasons read but not yet given: a candidate's parts stay open after its
        ``finishReason`` (Gemini 3 sends a trailing chunk with only the last part's
        ``thoughtSignature``), and canonical streams end a part before the finish, so the
        finish is given at :meth:`close`, after the parts end (every stream encoder
        closes its blocks at the finish)."""

    def close(self) -> list[AnyStreamRecord]:
        """Close what is still open, give the candidates' bags and finishes, and the final usage."""
        for choice, state in sorted(self.choices.items()):
            self._close_open(state, cite=True)
            if state.partial is not None:
                self._end_partial(choice, state)
        for choice, state in sorted(self.choices.items()):
            self._choice_data(choice, state)
        for choice, (reason, bag) in sorted(self.finishes.items()):
            bag.update(self.choices[choice].extras)  # a chunk after the finish may add fields
            tokens = take_logprobs(bag) if RESULT in bag else None
            self.builder.finish(choice, reason, choice_metadata={PROVIDER: bag} if bag else None, logprobs=tokens)
        self.finishes.clear()
        if self.usage is not None:
            self.builder.usage(decode_usage(self.usage))  # validated there as Usage unless plain counts
        unfinished = sorted(self.choices.keys() - self.finished)
        if self.finished and not unfinished:
            self.builder.end()
        self.builder.stream_closed(f"a finishReason for candidate {unfinished[0]}" if unfinished else STREAM_END)
        return self.builder.take_events()

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read chunks into the builder (the whole stream, for ``accumulate_stream``)."""
        for event in events:
            self.position += 1
            read_event(self._read, event, self.position)

    # --- one chunk -----------------------------------------------------------------------

    def _read(self, event: object) -> None:
        if is_error_body(event):
            body = self._validated(ErrorBody, event)
            error: dict[str, Any] = body["error"]
            kind = error.get("status") or (str(error["code"]) if "code" in error else None)
            self.builder.error(ErrorRecord(message=error.get("message", ""), error_type=kind, body=body))
            return
        chunk = self._validated(Response, event)
        if not self.started:
            self._start(chunk)
        candidates: list[dict[str, Any]] = chunk.get("candidates") or []
        repeated = repeated_index(candidates)
        if repeated is not None:
            raise StreamError(REPEATED_INDEX, f"$.candidates[{repeated}].index", self.position)
        for position, candidate in enumerate(candidates):
            self._candidate(candidate, position)
        if not candidates and not self.choices and 0 not in self.finished:
            self._blocked(chunk)
        if "usageMetadata" in chunk:
            self.usage = {**(self.usage or {}), **chunk["usageMetadata"]}
            counts = decode_usage(self.usage)
            counts.pop("provider_metadata", None)
            if counts != self.counts:  # most chunks repeat the totals so far
                self.counts = counts
                self.builder.usage(counts)  # validated there as Usage unless plain counts

    def _validated(self, shape: Any, event: object) -> dict[str, Any]:
        try:
            checked, _ = validated(shape, event, "Gemini stream chunk")
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            raise StreamError(first["msg"], json_path(first["loc"]), self.position) from None
        fields: dict[str, Any] = checked  # the chunk adapter accepts objects only
        return fields

    def _start(self, chunk: dict[str, Any]) -> None:
        self.started = True
        self.model = chunk.get("modelVersion") or None
        self.prefix = response_prefix(chunk.get("responseId"))
        bag = response_bag(chunk)
        known: dict[str, Any] = {}
        read_create_time(chunk.get("createTime"), known, bag)
        self.builder.start(
            id=chunk.get("responseId"),
            model=chunk.get("modelVersion"),
            created=known.get("created"),
            metadata={PROVIDER: bag} if bag else None,
        )

    def _blocked(self, chunk: dict[str, Any]) -> None:
        feedback: dict[str, Any] = chunk.get("promptFeedback") or {}
        reason = feedback.get("blockReason")
        if not isinstance(reason, str):
            return
        marker = {PROVIDER: {NO_CANDIDATES: "empty" if "candidates" in chunk else "absent"}}
        self.builder.finish(0, decode_block_reason(reason), marker)
        self.finished.add(0)

    def _candidate(self, candidate: dict[str, Any], position: int) -> None:
        choice: int = candidate.get("index", position)
        state = self.choices.get(choice)
        if state is None:  # not setdefault: a state built per chunk to be thrown away is most of a chunk's cost
            state = self.choices[choice] = _Choice()
        content: dict[str, Any] = candidate.get("content") or {}
        parts: list[dict[str, Any]] = content.get("parts") or []
        for number, part in enumerate(parts):
            self._part(choice, state, part, continues=number == 0)
        extras = leftovers(candidate, CANDIDATE_MAPPED)
        if RESULT in extras and RESULT in state.extras:  # each chunk's steps follow the earlier ones'
            extras[RESULT] = join_results(state.extras[RESULT], extras[RESULT])
        state.extras.update(extras)
        state.message.update(content_rest(content))
        if "finishReason" in candidate:
            bag = dict(state.extras)
            mark_absent(bag, candidate, "index")
            reason = decode_finish_reason(candidate["finishReason"], bag, has_tool_calls=state.has_calls)
            assert reason is not None
            self.finishes[choice] = (reason, bag)
            self.finished.add(choice)

    def _choice_data(self, choice: int, state: _Choice) -> None:
        """At the end, before the finishes: the message's bag, and the candidate fields of a
        candidate that never finished (a finished one has them on its finish), on a
        :class:`~chatcodec.ChoiceMetadataEvent`."""
        unfinished = state.extras if choice not in self.finished else {}
        if unfinished or state.message:
            self.builder.choice_data(
                choice,
                choice_metadata={PROVIDER: dict(unfinished)} if unfinished else None,
                message_metadata={PROVIDER: dict(state.message)} if state.message else None,
            )
        state.message = {}
        if choice not in self.finished:
            state.extras = {}

    # --- parts ---------------------------------------------------------------------------

    def _part(self, choice: int, state: _Choice, part: dict[str, Any], *, continues: bool) -> None:
        if "text" in part:
            kind = "thinking" if part.get("thought") is True else "text"
            if continues and self._continues(state, kind, part):
                self._grow(state, part)
                return
        call = part.get("functionCall")
        if call is not None and state.partial is not None and self._partial_piece(choice, state, call):
            return
        self._close_open(state)
        if "text" in part:
            self._open_text(choice, state, part)
        elif call is not None and "name" in call and call.get("willContinue") is True and "partialArgs" not in call:
            self._start_partial(choice, state, part)
        else:
            self._whole(choice, state, part)

    def _continues(self, state: _Choice, kind: str, part: dict[str, Any]) -> bool:
        open_part = state.open
        if open_part is None or open_part.kind != kind or not set(part) <= _TEXT_KEYS:
            return False
        if kind == "text" and "thought" in part:
            return False
        return not (open_part.signed and "thoughtSignature" in part)

    def _grow(self, state: _Choice, part: dict[str, Any]) -> None:
        open_part = state.open
        assert open_part is not None
        open_part.part.append(part["text"])
        if open_part.kind == "text":
            open_part.text.append(part["text"])
        signature = part.get("thoughtSignature")
        if signature is None:
            return
        open_part.signed = True
        if open_part.kind == "thinking":
            self.builder.signature(open_part.part, signature)
        else:
            open_part.end_metadata["thoughtSignature"] = signature

    def _open_text(self, choice: int, state: _Choice, part: dict[str, Any]) -> None:
        context = PartDecoding(model=self.model, id_prefix=self.prefix, container=choice)
        decoded = decode_part(part, "model", context, state.next_index)
        metadata = decoded.get("provider_metadata")
        index = self._next(state)
        if decoded["type"] == "thinking":
            builder = self.builder.open_thinking(
                choice, index, provider=PROVIDER, model=decoded.get("model"), metadata=metadata
            )
            builder.append(decoded["text"])
            if "signature" in decoded:
                self.builder.signature(builder, decoded["signature"])
            state.open = _OpenText("thinking", builder, "signature" in decoded)
        else:
            builder = self.builder.open_text(choice, index, metadata)
            builder.append(decoded["text"])
            state.open = _OpenText("text", builder, "thoughtSignature" in part, text=[decoded["text"]])

    def _close_open(self, state: _Choice, *, cite: bool = False) -> None:
        """End the open part; at the stream's end (``cite``) an answer text with the citations
        the candidate's ``groundingMetadata`` gives it (:func:`_cited`)."""
        open_part = state.open
        if open_part is None:
            return
        metadata = {PROVIDER: open_part.end_metadata} if open_part.end_metadata else None
        citations = _cited(state, open_part) if cite and METADATA in state.extras else None
        self.builder.close(open_part.part, metadata=metadata, citations=citations)
        state.open = None

    def _whole(self, choice: int, state: _Choice, part: dict[str, Any]) -> None:
        context = PartDecoding(model=self.model, id_prefix=self.prefix, container=choice)
        index = state.next_index
        decoded = decode_part(part, "model", context, index)
        self._next(state)
        if decoded["type"] == "tool_use":
            state.has_calls = True
            self._tool_call(choice, index, decoded)
            return
        self.builder.whole(_part_event({"index": index, "choice": choice, "part": decoded}))

    def _tool_call(self, choice: int, index: int, decoded: dict[str, Any]) -> None:
        builder = self.builder.open_tool_call(
            choice, index, id=decoded["id"], name=decoded["name"], metadata=decoded.get("provider_metadata")
        )
        if decoded["arguments"]:
            builder.append(decoded["arguments"])
        self.builder.close(builder)

    def _next(self, state: _Choice) -> int:
        index = state.next_index
        state.next_index += 1
        return index

    # --- Vertex streamed arguments ----------------------------------------------------------

    def _start_partial(self, choice: int, state: _Choice, part: dict[str, Any]) -> None:
        """A call whose arguments stream: it is given (opened, filled, closed) when it ends,
        so the events are those of the same call arriving whole."""
        context = PartDecoding(model=self.model, id_prefix=self.prefix, container=choice)
        index = self._next(state)
        call = {key: value for key, value in part["functionCall"].items() if key != "willContinue"}
        decoded = decode_call({**part, "functionCall": call}, context, index)
        metadata: dict[str, dict[str, Any]] = decoded.get("provider_metadata") or {}
        bag = metadata.get(PROVIDER, {})
        bag.pop(NO_ARGS, None)
        decoded["provider_metadata"] = {PROVIDER: bag} if bag else None
        state.has_calls = True
        state.partial = PartialCall(index, decoded)

    def _partial_piece(self, choice: int, state: _Choice, call: dict[str, Any]) -> bool:
        """Read one piece of a streamed call; False when ``call`` is not one.

        A piece holding only ``willContinue: true`` says more of the call follows (Vertex
        ``FunctionCall.willContinue``: "If true, another partial message for the current
        FunctionCall is expected to follow"): nothing to add, and no part of its own."""
        partial = state.partial
        assert partial is not None
        if not call:
            self._end_partial(choice, state)
            return True
        if "name" in call or not set(call) <= _PIECE_KEYS:
            return False
        if "partialArgs" in call:
            partial.add(call["partialArgs"], self.position)
        elif call["willContinue"] is not True:  # the last piece, saying so
            self._end_partial(choice, state)
        return True

    def _end_partial(self, choice: int, state: _Choice) -> None:
        partial = state.partial
        assert partial is not None
        state.partial = None
        partial.call["arguments"] = partial.arguments_text()
        self._tool_call(choice, partial.index, partial.call)


def _cited(state: _Choice, open_part: _OpenText) -> list[dict[str, Any]] | None:
    """The citations the candidate's ``groundingMetadata`` (on its last chunks) gives the
    answer text still open at the stream's end, as a body's reader gives them
    (:func:`.grounding.read_grounding`: a segment's ``partIndex`` counts the answer's parts,
    as the decoder numbers them); the candidate's bag then keeps what has no canonical place.
    None when the grounding cites another part too (one already ended), or does not map: it
    then stays whole in the bag."""
    if open_part.kind != "text":
        return None
    parts: list[dict[str, Any]] = [{"type": "opaque"}] * open_part.part.index
    parts.append({"type": "text", "text": "".join(open_part.text)})
    bag = dict(state.extras)
    read_grounding(bag, parts)
    citations: list[dict[str, Any]] | None = parts[-1].get("citations")
    if citations:
        state.extras = bag
    return citations


def _part_event(fields: dict[str, Any]) -> PartEvent:
    """A part that arrives whole, checked by its model where it arrives (the one place this
    decoder loads the event models)."""
    from chatcodec import PartEvent

    return PartEvent.model_validate(fields)
