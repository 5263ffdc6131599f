"""A front whose answers are the server's own resources (its edge's ``Front.answering``:
the Responses API): the server's id and the request's settings on every answer, and an
earlier answer continued from the store, or refused.

For such a front, each call is *prepared* before it is converted: a request continuing
an earlier answer (``previous_response_id``) gets that answer's conversation from the
:class:`~chatcodec.serve.response_store.ResponseStore` put before its input, or is
refused with a 400 that says why (no store, or the answer is not in it): never sent on
with its history silently lost. The target encoder's options get the fields the server
sets (:meth:`Answering.server_options`), so the plain answer and every streamed event
carrying the response are the server's resource, written by the one encoder. Once the
answer is complete it is kept in the store, when there is one and the caller allows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from chatcodec.providers.kit.edge import Answering, Call
from chatcodec.registry import get_edge
from chatcodec.serve.response_store import ResponseStore
from chatcodec.streams.framing import WireEventReader

__all__ = ["AnswerRefusedError", "Answerer", "Prepared", "StreamWatch"]


class AnswerRefusedError(ValueError):
    """A request the front cannot answer (a continued answer not kept, ``background``): a 400."""


@dataclass(frozen=True, slots=True)
class Prepared:
    """One call as it is converted and answered."""

    call: Call
    """The call to convert (its payload continued, its options the server's)."""
    answer_id: str | None = None
    """The id of the answer (None: the front's answers have none of the server's)."""
    kept: bool = False
    """Whether the answer is to be kept in the store."""


class Answerer:
    """The answering duties of the ``api`` front, with the store (None: no store)."""

    def __init__(self, api: str, store: ResponseStore | None) -> None:
        front = get_edge(api).front
        self.api = api
        self.answering: Answering | None = None if front is None else front.answering
        self.store = store

    def prepare(self, call: Call) -> Prepared:
        """``call`` continued and given the server's options (raises :class:`AnswerRefusedError`)."""
        answering = self.answering
        if answering is None:
            return Prepared(call)
        payload = call.payload
        previous = answering.continues(payload)
        if previous is not None:
            payload = answering.continued(payload, self._history(previous))
        answer_id = answering.new_id()
        kept = self.store is not None and answering.wants_stored(call.payload)
        try:
            options = answering.server_options(call.payload, answer_id, kept)
        except ValueError as error:
            raise AnswerRefusedError(str(error)) from None
        prepared = replace(call, payload=payload, options={**(call.options or {}), **options})
        return Prepared(prepared, answer_id, kept)

    def _history(self, previous: str) -> list[Any]:
        if self.store is None:
            raise AnswerRefusedError(
                f"previous_response_id {previous!r} cannot be continued: this server keeps no responses "
                "(start chatcodec serve with --store memory to keep them), so send the conversation itself"
            )
        history = self.store.get(previous)
        if history is None:
            raise AnswerRefusedError(
                f"previous_response_id {previous!r} is not a response this server keeps (it keeps the last "
                f"{self.store.capacity} responses stored, in memory, since it started)"
            )
        return history

    def answered(self, prepared: Prepared, answer: Mapping[str, Any]) -> None:
        """Keep a complete plain answer, when it is to be kept."""
        if prepared.kept and self.store is not None and self.answering is not None and prepared.answer_id:
            conversation = self.answering.conversation(prepared.call.payload, answer)
            self.store.put(prepared.answer_id, conversation)

    def watch(self, prepared: Prepared) -> StreamWatch | None:
        """A reader of the converted stream that keeps its answer at the end (None: nothing to keep)."""
        if not prepared.kept:
            return None
        return StreamWatch(self, prepared)


class StreamWatch:
    """Reads the stream written to the caller, to keep the answer its last event holds."""

    def __init__(self, answerer: Answerer, prepared: Prepared) -> None:
        self._answerer = answerer
        self._prepared = prepared
        self._reader = WireEventReader(answerer.api, prepared.call.framing)

    def feed(self, chunk: bytes) -> None:
        answering = self._answerer.answering
        if answering is None:
            return
        for event in self._reader.feed(chunk):
            answer = answering.final_answer(event)
            if answer is not None:
                self._answerer.answered(self._prepared, answer)
