"""Step 8: what an answer leaves in the store (``--store``): the answer itself (a front
whose answers are the server's own, the Responses API) and the signed thinking of its
canonical message (every front; :mod:`chatcodec.serve._kept_thinking`), handed here once
by :mod:`.answer` or :mod:`.stream`. The upstream has answered and the caller paid for it,
so a store that fails here never takes the answer's place: it is reported beside it, in
the log line (``store_error``), on the span, and on a plain answer in the
``chatcodec-store-error`` header (a stream's headers are sent before its answer is
complete)."""

from __future__ import annotations

from typing import Any

from chatcodec.serve import _kept_thinking as kept_thinking
from chatcodec.serve._fronts import answering
from chatcodec.serve._request_log import LOGGER, RequestRecord
from chatcodec.serve._response_store import StoreError
from chatcodec.serve._steps.shared import Server


async def kept(
    server: Server,
    record: RequestRecord,
    prepared: answering.Prepared,
    answer: answering.KeptAnswer | None,
    message: dict[str, Any] | None,
) -> None:
    """Keep a complete ``answer`` (Responses) and the signed thinking of its canonical
    ``message`` (not for a Responses caller that sent ``store: false``); a store that
    fails is reported on ``record``."""
    answerer = server.answerer
    store = answerer.store
    wanted = prepared.kept or answerer.answering is None
    try:  # the thinking first: the answer, kept last, is the most recent record
        if message is not None and wanted and server.keeps_thinking and store is not None:
            await kept_thinking.keep(store, prepared.owner, message, server.config.api)
        if answer is not None:
            await answerer.keep(answer)
    except StoreError as error:
        record.store_error = str(error)
        LOGGER.warning("an answer was delivered but not kept: %s", error)
