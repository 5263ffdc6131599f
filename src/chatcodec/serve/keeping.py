"""The store's part in a request (``--store``): what is read before the request is sent
upstream, and what is kept once its answer is complete.

Before: the conversation of the answer a Responses request continues
(``previous_response_id``, :mod:`.fronts.answering`), and the thinking a client dropped
from the current turn (:mod:`.kept_thinking`). A store that fails here is a 503 for a
continued answer (nothing was sent upstream: the caller may try again) and nothing for
thinking (the request goes on as the client sent it; the upstream says whether it
needed it).

After: the answer (Responses), and its signed thinking (every front). The upstream has
answered and the caller paid for it, so a store that fails here never takes the answer's
place: it is reported beside it, in the log line (``store_error``), on the span, and on
a plain answer in the ``chatcodec-store-error`` header (a stream's headers are sent before
its answer is complete).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from chatcodec.errors import ChatcodecError
from chatcodec.model.stream_events import AnyStreamEvent
from chatcodec.serve import kept_thinking
from chatcodec.serve.fronts import answering
from chatcodec.serve.refusal import RefusalError
from chatcodec.serve.request_log import LOGGER, RequestRecord
from chatcodec.serve.response_store import StoreError
from chatcodec.streams.accumulator import StreamAccumulator


class Keeper:
    """The store's duties for one server (``keep_thinking``: ``--no-keep-thinking`` not given)."""

    def __init__(self, answerer: answering.Answerer, *, keep_thinking: bool, front: str) -> None:
        self.answerer: answering.Answerer = answerer
        self.front: str = front
        self.keeps_thinking: bool = keep_thinking and answerer.store is not None

    async def recalled(
        self, answer: answering.Prepared, canonical: dict[str, Any], upstream: str, owner: str
    ) -> answering.Prepared:
        """``answer`` with the conversation it continues; ``canonical`` with the thinking
        its current turn came without."""
        try:
            answer = await self.answerer.recalled(replace(answer, owner=owner))
        except answering.AnswerRefusedError as refusal:
            raise RefusalError(400, str(refusal)) from None
        except StoreError as error:
            LOGGER.warning("the store could not be read: %s", error)
            raise RefusalError(503, f"the store of kept answers cannot be read: {error}; try again") from None
        store = self.answerer.store
        if self.keeps_thinking and store is not None:
            try:
                await kept_thinking.restore(store, owner, canonical, upstream)
            except StoreError as error:
                LOGGER.warning("kept thinking could not be read: %s", error)
        return answer

    async def kept(
        self,
        record: RequestRecord,
        prepared: answering.Prepared,
        answer: answering.KeptAnswer | None,
        message: dict[str, Any] | None,
    ) -> None:
        """Keep a complete ``answer`` (Responses) and the signed thinking of its canonical
        ``message`` (not for a Responses caller that sent ``store: false``); a store that
        fails is reported on ``record``."""
        store = self.answerer.store
        wanted = prepared.kept or self.answerer.answering is None
        try:  # the thinking first: the answer, kept last, is the most recent record
            if message is not None and wanted and self.keeps_thinking and store is not None:
                await kept_thinking.keep(store, prepared.owner, message, self.front)
            if answer is not None:
                await self.answerer.keep(answer)
        except StoreError as error:
            record.store_error = str(error)
            LOGGER.warning("an answer was delivered but not kept: %s", error)

    def stream(self, prepared: answering.Prepared, canonical: dict[str, Any], record: RequestRecord) -> StreamKeeping:
        """What keeps a streamed answer, fed as the stream goes."""
        return StreamKeeping(self, prepared, record, self.answerer.watch(prepared, canonical))


class StreamKeeping:
    """Keeps one streamed answer: its canonical events gathered (for its thinking), the
    bytes written read back (for the Responses answer), both kept before the last bytes
    are written, so a caller that continues at once finds them."""

    def __init__(
        self,
        keeper: Keeper,
        prepared: answering.Prepared,
        record: RequestRecord,
        watch: answering.StreamWatch | None,
    ) -> None:
        self._keeper = keeper
        self._prepared = prepared
        self._record = record
        self._watch = watch
        self._events = StreamAccumulator() if keeper.keeps_thinking else None

    @property
    def active(self) -> bool:
        return self._watch is not None or self._events is not None

    def observe(self, event: AnyStreamEvent) -> None:
        """One canonical event on its way to the caller."""
        if self._watch is not None:
            self._watch.observe(event)
        if self._events is not None:
            self._events.add(event)

    async def written(self, converted: bytes, *, last: bool) -> None:
        """Bytes about to be written to the caller (``last``: the stream's end)."""
        answer = None if self._watch is None else self._watch.feed(converted)
        message = self._message() if last else None
        if answer is not None or message is not None:
            await self._keeper.kept(self._record, self._prepared, answer, message)

    def _message(self) -> dict[str, Any] | None:
        events = self._events
        if events is None or events.errors:
            return None
        try:
            message: dict[str, Any] = events.response().choices[0].message.model_dump(mode="json", exclude_none=True)
        except (ChatcodecError, ValueError, IndexError):
            return None
        return message
