"""A front whose answers are the server's own resources (its edge's ``Front.answering``:
the Responses API): the server's id and the request's settings on every answer, and an
earlier answer continued from the store, or refused.

The store is asynchronous (:mod:`chatcodec.serve._response_store`): the history of a
continued answer is read between reading the request and writing it upstream
(:meth:`Answerer.recalled`), and an answer is kept by the caller of :meth:`Answerer.keep`
once it is complete (a store that fails then is reported beside the answer).

For such a front, each call is *prepared* before it is converted: a request continuing
an earlier answer (``previous_response_id``) is detached from it, and that answer's kept
canonical conversation is put before the request's own messages once they are read
(:meth:`Answerer.continued`), or the request is refused with a 400 that says why (no
store, or no such answer for this caller): never sent on with its history silently lost.
The target encoder's options get the fields the server sets
(:meth:`Answering.server_options`), so the plain answer and every streamed event carrying
the response are the server's resource, written by the one encoder. Once the answer is
complete it is kept (:mod:`chatcodec.serve._response_store`) when there is a store and the
caller allows it: the canonical messages it added (the upstream's answer as canonical
data, so a Claude signature the caller never saw is kept), and the body the caller got.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from chatcodec._losses import LossRecorder
from chatcodec._model.stream_records import AnyStreamRecord
from chatcodec._providers.contract.edge import Answering, Call
from chatcodec._registry import get_codec, get_edge
from chatcodec.serve._response_store import ResponseStore
from chatcodec.streams._accumulator import StreamAccumulator
from chatcodec.streams._framing import WireEventReader

__all__ = ["AnswerRefusedError", "Answerer", "KeptAnswer", "Prepared", "StreamWatch"]


class AnswerRefusedError(ValueError):
    """A request the front cannot answer (a continued answer not kept, ``background``): a 400."""


@dataclass(frozen=True, slots=True)
class KeptAnswer:
    """An answer to keep, once it is complete."""

    answer_id: str
    owner: str
    parent: str | None
    messages: list[dict[str, Any]]
    """The canonical messages it added: its new input, then its answer."""
    response: Mapping[str, Any]
    """The body its caller got."""


@dataclass(frozen=True, slots=True)
class Prepared:
    """One call as it is converted and answered."""

    call: Call
    """The call to convert (its payload detached from the answer it continues, its options the server's)."""
    answer_id: str | None = None
    """The id of the answer (None: the front's answers have none of the server's)."""
    kept: bool = False
    """Whether the answer is to be kept in the store."""
    owner: str = ""
    """The digest of the caller's key (:func:`~chatcodec.serve._response_store.owner_of`)."""
    parent: str | None = None
    """The answer this call continues."""
    history: list[dict[str, Any]] = field(default_factory=lambda: [])
    """That answer's canonical conversation, put before the call's own messages."""


class Answerer:
    """The answering duties of the ``api`` front, with the store (None: no store)."""

    def __init__(self, api: str, store: ResponseStore | None) -> None:
        front = get_edge(api).front
        self.api = api
        self.answering: Answering | None = None if front is None else front.answering
        self.store = store
        self.seal_key: str | None = None
        """The key the answers' seals carry a MAC under (None: none yet, so they seal nothing:
        :mod:`chatcodec.serve._seals`)."""

    def prepare(self, call: Call, owner: str = "") -> Prepared:
        """``call`` detached and given the server's options (raises :class:`AnswerRefusedError`);
        the history of the answer it continues is read by :meth:`recalled`."""
        answering = self.answering
        if answering is None:
            return Prepared(call)
        payload = call.payload
        try:
            previous = answering.continues(payload)
        except ValueError as error:
            raise AnswerRefusedError(str(error)) from None
        if previous is not None:
            self._check_store(previous)
            payload = answering.detached(payload)
        answer_id = answering.new_id()
        kept = self.store is not None and answering.wants_stored(call.payload)
        try:
            options = answering.server_options(call.payload, answer_id, kept)
        except ValueError as error:
            raise AnswerRefusedError(str(error)) from None
        options.update(answering.seal_options(self.seal_key))
        prepared = replace(call, payload=payload, options={**(call.options or {}), **options})
        return Prepared(prepared, answer_id, kept, owner, previous)

    @property
    def _reference(self) -> str:
        return "the answer continued" if self.answering is None else self.answering.reference

    @property
    def noun(self) -> str:
        """What the front calls its answers, read off the field that continues one
        (``previous_response_id``: response; ``previous_interaction_id``: interaction), so a
        refusal names the caller's own resource."""
        if self.answering is None:
            return "answer"
        return self.answering.reference.removeprefix("previous_").removesuffix("_id").replace("_", " ")

    def _check_store(self, previous: str) -> None:
        if self.store is None:
            raise AnswerRefusedError(
                f"{self._reference} {previous!r} cannot be continued: this server keeps no {self.noun}s "
                "(start chatcodec serve with --store memory, or --store sqlite:PATH, to keep them), "
                "so send the conversation itself"
            )

    async def recalled(self, prepared: Prepared) -> Prepared:
        """``prepared`` with the conversation of the answer it continues, read from the store
        in one query (raises :class:`AnswerRefusedError` when it is not kept for this caller,
        :class:`~chatcodec.serve._response_store.StoreError` when the store fails)."""
        previous, store = prepared.parent, self.store
        if previous is None or store is None:
            return prepared
        history = await store.conversation(previous, prepared.owner)
        if history is None:
            raise AnswerRefusedError(
                f"{self._reference} {previous!r} is not {_article(self.noun)} {self.noun} this server keeps for your "
                f"key (it keeps the last {store.capacity} {self.noun}s stored, {store.backend.description})"
            )
        return replace(prepared, history=history)

    def continued(self, prepared: Prepared, canonical: dict[str, Any]) -> None:
        """Put the continued answer's conversation before the request's own messages (after
        its instructions) in ``canonical``, the request as read."""
        if not prepared.history or self.answering is None:
            return
        messages: list[dict[str, Any]] = canonical.get("messages") or []
        own = self.answering.carried_over(messages)
        lead = [message for message in messages if not any(message is kept for kept in own)]
        canonical["messages"] = [*lead, *prepared.history, *own]

    def to_keep(
        self, prepared: Prepared, answer: Mapping[str, Any], canonical: dict[str, Any], message: dict[str, Any]
    ) -> KeptAnswer | None:
        """What a complete answer keeps (the body the caller got, the request as converted,
        the upstream's answer as a canonical message), when it is to be kept."""
        answering = self.answering
        if not prepared.kept or self.store is None or answering is None or not prepared.answer_id:
            return None
        carried = answering.carried_over(canonical.get("messages") or [])
        added = [*carried[len(prepared.history) :], message]
        return KeptAnswer(prepared.answer_id, prepared.owner, prepared.parent, added, answer)

    async def keep(self, kept: KeptAnswer) -> None:
        """Keep an answer (raises :class:`~chatcodec.serve._response_store.StoreError`)."""
        if self.store is not None:
            await self.store.keep(
                kept.answer_id, owner=kept.owner, parent=kept.parent, messages=kept.messages, response=kept.response
            )

    async def read(self, answer_id: str, owner: str) -> dict[str, Any] | None:
        """A kept answer as its caller got it (None: not kept, or another caller's)."""
        return None if self.store is None else await self.store.response(answer_id, owner)

    def watch(self, prepared: Prepared, canonical: Callable[[], dict[str, Any]]) -> StreamWatch | None:
        """A reader of the stream that keeps its answer at the end (None: nothing to keep);
        ``canonical`` gives the request as canonical data, asked for only then."""
        if not prepared.kept:
            return None
        return StreamWatch(self, prepared, canonical)


class StreamWatch:
    """Reads a stream both ways, to keep its answer: the canonical events (the answer as
    canonical data) and the stream written to the caller (its last event holds the body)."""

    def __init__(self, answerer: Answerer, prepared: Prepared, canonical: Callable[[], dict[str, Any]]) -> None:
        self._answerer = answerer
        self._prepared = prepared
        self._canonical = canonical
        self._reader = WireEventReader(answerer.api, prepared.call.framing)
        self._events = StreamAccumulator()

    def observe(self, event: AnyStreamRecord) -> None:
        """One canonical event on its way to the caller."""
        self._events.add(event)

    def feed(self, chunk: bytes) -> KeptAnswer | None:
        """Bytes written to the caller; the answer to keep once its last event is among them."""
        answering = self._answerer.answering
        if answering is None:
            return None
        found: KeptAnswer | None = None
        for event in self._reader.feed(chunk):
            answer = answering.final_answer(event)
            if answer is not None and not self._events.errors:
                response = self._events.response().model_dump(mode="json", exclude_none=True)
                if not answering.streamed_whole:  # its last event holds no output: the answer written whole
                    answer = self._written(response)
                message = response["choices"][0]["message"]
                found = self._answerer.to_keep(self._prepared, answer, self._canonical(), message) or found
        return found

    def _written(self, response: dict[str, Any]) -> dict[str, Any]:
        """The streamed answer as the front's plain answer, with the server's fields (its
        losses were the stream's, reported there)."""
        options = self._prepared.call.options
        return get_codec(self._answerer.api).write_response(response, LossRecorder(), options=options)


def _article(noun: str) -> str:
    return "an" if noun[:1] in ("a", "e", "i", "o", "u") else "a"
