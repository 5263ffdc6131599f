"""The stream step's event size limit: :class:`ObservedConverter` notes a chunk with
:class:`EventSizeCheck` only when it can change something (bytes already pending, or no
event completed), so it must refuse at exactly the chunk where noting every chunk would."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from chatcodec import StreamConverter, StreamError
from chatcodec.serve._identity import Identity
from chatcodec.serve._limits import EventSizeCheck
from chatcodec.serve._steps.stream import ObservedConverter
from serve.harness import fixture_bytes

LIMIT = 300
_STREAM = fixture_bytes("anthropic", "stream", "text_basic.sse")
_HEAD, _DELTA, _TAIL = _STREAM.partition(b"event: content_block_delta")


def _body(padding: list[int]) -> bytes:
    """The recorded stream with a comment line of each ``padding`` size before its deltas
    (an SSE comment is no event, so its bytes stay pending until the next event ends)."""
    comments = b"".join(b":" + b"x" * size + b"\n" for size in padding)
    return _HEAD + comments + _DELTA + _TAIL


def _cuts(body: bytes, sizes: list[int]) -> list[bytes]:
    chunks: list[bytes] = []
    start = 0
    for size in sizes:
        if start >= len(body):
            break
        chunks.append(body[start : start + size])
        start += size
    return [*chunks, body[start:]] if start < len(body) else chunks


def _refused_at(feed: Callable[[bytes], bytes], chunks: list[bytes]) -> int | None:
    for number, chunk in enumerate(chunks):
        try:
            feed(chunk)
        except StreamError as error:
            return number if f"limit of {LIMIT} bytes" in str(error) else -1
    return None


def _observed() -> ObservedConverter:
    return ObservedConverter(
        "anthropic",
        "openai-chat",
        on_loss="ignore",
        watchers=(),
        on_error=lambda event: None,
        identity=Identity(id=None, model=None),
        max_event_bytes=LIMIT,
    )


def _noting_every_chunk() -> Callable[[bytes], bytes]:
    converter, sizes = StreamConverter("anthropic", "openai-chat", on_loss="ignore"), EventSizeCheck(LIMIT)

    def feed(chunk: bytes) -> bytes:
        before = converter.events_in
        converted = converter.feed(chunk)
        sizes.fed(chunk, converter.events_in > before)
        return converted

    return feed


@given(
    padding=st.lists(st.integers(min_value=0, max_value=2 * LIMIT), max_size=4),
    sizes=st.lists(st.integers(min_value=1, max_value=400), min_size=1, max_size=40),
)
def test_the_limit_refuses_at_the_chunk_where_noting_every_chunk_would(padding: list[int], sizes: list[int]) -> None:
    chunks = _cuts(_body(padding), sizes)
    assert _refused_at(_observed().feed, chunks) == _refused_at(_noting_every_chunk(), chunks)


def test_bytes_pending_across_chunks_that_end_no_event_are_refused() -> None:
    chunks = _cuts(_body([LIMIT + 50]), [len(_HEAD), 100, 100, 100, 100])
    assert _refused_at(_observed().feed, chunks) == 4  # 400 bytes of the comment pending, over 300
