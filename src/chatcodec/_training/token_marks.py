"""A rendering's tokens and their marks: the ids, whether each is trained, the message it belongs to.

The text is tokenized piece by piece, cut where a message ends and where sampled text starts and
ends (:func:`.tokens.tokenize_pieces`), so no token straddles a bound; each piece's marks are then
found in one sweep over the pieces, the ends and the spans, never a scan of every span per token
(a rendering of thousands of messages).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from chatcodec._training import tokens

if TYPE_CHECKING:
    from chatcodec._training.render import SampledSpan


def marked_tokens(
    tokenizer: object,
    text: str,
    *,
    ends: list[int | None],
    origins: list[int],
    sampled: Sequence[SampledSpan],
    trained: list[SampledSpan],
) -> tuple[list[int], list[bool], list[int]]:
    """The ids of ``text``, one trained flag per id and one message index per id (-1 after the
    last message: the generation prompt). ``ends`` are where each template message ends (None
    where not known), ``origins`` each template message's canonical message."""
    known = [(end, origins[position]) for position, end in enumerate(ends) if end is not None]
    cuts = [end for end, _ in known]
    for span in sampled:
        cuts += [span.start, span.end]
    ids, piece_starts, counts = tokens.tokenize_pieces(tokens.batch_encoder(tokenizer), text, cuts)
    trainable: list[bool] = []
    owners: list[int] = []
    for count, (is_trained, owner) in zip(counts, piece_marks(piece_starts, known, sampled, trained), strict=True):
        trainable += [is_trained] * count
        owners += [owner] * count
    return ids, trainable, owners


def piece_marks(
    piece_starts: list[int],
    known: list[tuple[int, int]],
    sampled: Sequence[SampledSpan],
    trained: list[SampledSpan],
) -> list[tuple[bool, int]]:
    """For each piece (by its start, ascending): whether a trained span holds it, and its
    message: the first sampled span holding it, else the first message (in order) ending
    after it, else -1 (the generation prompt). One sweep over the pieces, the ends and the
    spans, since a piece never straddles an end or a span's bound."""
    # the first end after a start, in the ends' order: the first whose running maximum passes it
    reach = list(itertools.accumulate((end for end, _ in known), max))
    opened = sorted(range(len(sampled)), key=lambda index: sampled[index].start)
    trained_spans = sorted((span.start, span.end) for span in trained)
    holding: list[tuple[int, int]] = []  # (order, end) of the spans begun, the first in order on top
    next_end = next_span = next_trained = 0
    trained_reach = -1
    marks: list[tuple[bool, int]] = []
    for start in piece_starts:
        while next_end < len(reach) and reach[next_end] <= start:
            next_end += 1
        while next_span < len(opened) and sampled[opened[next_span]].start <= start:
            heapq.heappush(holding, (opened[next_span], sampled[opened[next_span]].end))
            next_span += 1
        while holding and holding[0][1] <= start:
            heapq.heappop(holding)
        while next_trained < len(trained_spans) and trained_spans[next_trained][0] <= start:
            trained_reach = max(trained_reach, trained_spans[next_trained][1])
            next_trained += 1
        owner = known[next_end][1] if next_end < len(known) else -1
        marks.append((trained_reach > start, sampled[holding[0][0]].message if holding else owner))
    return marks
