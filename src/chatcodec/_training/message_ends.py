"""Where each message's text starts in a rendering, read in the one run that renders it.

Finding where a message ends by rendering the conversation up to it costs one render per
message, quadratic in the conversation (agent trajectories of hundreds of calls). A
template writes a conversation in one loop over ``messages``, so this run hands it a list
that notes, for each message the loop yields, how much text the render had written when the
template first read that message: where its text starts, and so where the one before it
ends. On a template whose shorter renders are prefixes of the longer
(``TemplateProfile.prefix_stable``) that is the end a render of the shorter conversation
gives (``render``'s tests hold the two equal on every family and the check corpus).

The writing loop is told apart from the template's other reads: an index or a slice
(``messages[0]``, ``messages[::-1]`` to find the last question) hands out the plain
messages, unwatched, as do the loop's ``nextitem`` and ``previtem`` (a template that closes a
message once it sees the next one's role reads that one early), and of the passes over the
list itself the loop is the one pass that reads every message while the text grows. Where no
single pass is that (two writing loops, a message never read), the run says so (None) and
the caller renders the prefixes.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, SupportsIndex, overload

from chatcodec._training import jinja
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits


class _Read(dict[str, Any]):
    """A message after its first read: a plain dict again (its reads cost what a dict's do)."""

    __slots__ = ("_index", "_reads", "_written")

    def chatcodec_unwatched(self) -> dict[str, Any]:
        """The message as a plain dict, its reads noted nowhere: what ``loop.nextitem`` and
        ``loop.previtem`` hand the template (the bounded sandbox asks for it)."""
        return dict(self)


class _Watched(_Read):
    """One message as a pass yields it: its first read notes the render's length so far, and
    makes it a :class:`_Read`."""

    __slots__ = ()

    def __init__(self, message: Mapping[str, Any], reads: list[int | None], index: int, written: jinja.Written) -> None:
        super().__init__(message)
        self._reads = reads
        self._index = index
        self._written = written

    def _read(self) -> None:
        if self._reads[self._index] is None:
            self._reads[self._index] = self._written.length
        object.__setattr__(self, "__class__", _Read)  # hence super(_Read, ...) below, not super()

    def __getitem__(self, key: str) -> Any:
        self._read()
        return super(_Read, self).__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._read()
        return super(_Read, self).get(key, default)

    def __contains__(self, key: object) -> bool:
        self._read()
        return super(_Read, self).__contains__(key)


class _Messages(list[dict[str, Any]]):
    """The conversation as the template sees it: each pass over it watched, the rest plain.

    A slice that drops the first messages (``messages[1:]``, Llama's template once it has
    written the system prompt) is watched too, its reads noted at the whole list's indices."""

    def __init__(
        self,
        messages: Sequence[dict[str, Any]],
        written: jinja.Written,
        passes: list[tuple[int, list[int | None]]],
        offset: int = 0,
    ) -> None:
        super().__init__(messages)
        self.written = written
        self.passes = passes
        """Each pass: the index of its first message in the whole list, and each message's first read."""
        self.offset = offset

    def __iter__(self) -> Iterator[dict[str, Any]]:
        reads: list[int | None] = [None] * len(self)
        self.passes.append((self.offset, reads))
        for index, message in enumerate(super().__iter__()):
            yield _Watched(message, reads, index, self.written)

    @overload
    def __getitem__(self, key: SupportsIndex) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, key: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, key: SupportsIndex | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if not isinstance(key, slice):
            return super().__getitem__(key)
        sliced = super().__getitem__(key)
        start: object = key.start
        if key.step not in (None, 1) or key.stop is not None or not isinstance(start, int):
            return sliced
        dropped = min(max(start if start >= 0 else len(self) + start, 0), len(self))
        return _Messages(sliced, self.written, self.passes, self.offset + dropped)


def run(
    template: str,
    messages: Sequence[dict[str, Any]],
    *,
    tools: Sequence[Mapping[str, Any]] | None,
    add_generation_prompt: bool,
    variables: Mapping[str, Any] | None,
    limits: TemplateLimits = DEFAULT_LIMITS,
) -> tuple[str, list[tuple[int, int]], list[int | None] | None]:
    """:func:`.jinja.run`'s text and generation spans, with where each message's text starts
    in that text (None for a message the run does not show; None for all where it shows no loop)."""
    written = jinja.Written()
    watched = _Messages(messages, written, [])
    text, spans = jinja.run(
        template,
        watched,
        tools=tools,
        add_generation_prompt=add_generation_prompt,
        variables=variables,
        limits=limits,
        written=written,
    )
    return text, spans, _loop_starts(watched.passes, len(messages))


def _loop_starts(passes: list[tuple[int, list[int | None]]], count: int) -> list[int | None] | None:
    """The reads of the one pass that is the writing loop (None before its first message:
    those the template wrote before its loop), or None where none or several passes are."""
    complete: list[list[int | None]] = []
    for offset, reads in passes:
        starts = [read for read in reads if read is not None]
        in_order = all(before <= after for before, after in itertools.pairwise(starts))
        if starts and offset + len(starts) == count and len(starts) == len(reads) and in_order:
            complete.append([None] * offset + list(starts))
    if len(complete) == 1:
        return complete[0]
    writing = [starts for starts in complete if starts[-1] != next(read for read in starts if read is not None)]
    return writing[0] if len(writing) == 1 else None
