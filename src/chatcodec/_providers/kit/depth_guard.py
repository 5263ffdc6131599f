"""The depth guard around every stream decoder, and how a pydantic refusal is told apart.

An event nested a thousand levels deep makes CPython raise ``RecursionError`` and
pydantic-core refuse with ``recursion_depth_exceeded``; either way the caller gets a
:class:`~chatcodec.StreamError` naming the event and the route into its deepest value,
never the bare error from inside a decoder.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from operator import length_hint
from typing import TYPE_CHECKING, Any, cast

import pydantic_core

from chatcodec._errors import StreamError, ValidationError
from chatcodec._payloads import too_deep
from chatcodec._providers.kit.errors import canonical_refusal

if TYPE_CHECKING:
    from chatcodec._codec_protocols import StreamDecoder
    from chatcodec._model.stream_events import AnyStreamEvent
    from chatcodec._model.stream_records import AnyStreamRecord
    from chatcodec.streams._builder import StreamBuilder


def refused(error: ValidationError, rule: str) -> bool:
    """Whether pydantic refused ``error``'s value by ``rule`` (its error type)."""
    return any(detail["type"] == rule for detail in error.errors(include_url=False))


def too_deep_error(error: ValidationError) -> bool:
    """Whether pydantic refused a value for its depth (pydantic-core's own limit)."""
    return refused(error, "recursion_depth_exceeded")


_DEPTH_RULE = "[rule: recursion_depth_exceeded]"
"""How :func:`~chatcodec._providers.kit.canonical_refusal` names pydantic-core's depth limit."""


class DepthGuard:
    """A stream decoder whose ``RecursionError`` (an event nested a thousand levels
    deep) is a :class:`~chatcodec.StreamError` naming the event and the route into its
    deepest value, and which refuses, when it is closed, a stream that said nothing
    (:meth:`close`). Written once here, so every provider's decoder has it
    (:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.stream_decoder` wraps each)."""

    __slots__ = ("_builder", "_decoder", "_fed", "_given", "_models", "_name")

    def __init__(self, decoder: StreamDecoder, builder: StreamBuilder | None, name: str) -> None:
        self._decoder = decoder
        self._builder = builder
        self._models = builder is None
        """Given no builder (``codec.stream_decoder()``, the public call), the decoder's
        events are handed back as the public models, as before records; given one (what
        a conversion passes), as the records its builder emits."""
        self._name = name
        self._fed = 0
        self._given = 0  # canonical events given back (emitting: no builder was passed)

    def feed(self, event: dict[str, Any]) -> Sequence[AnyStreamRecord | AnyStreamEvent]:
        self._fed += 1
        try:
            given = self._decoder.feed(event)
            self._given += len(given)
            return _models_of(given) if self._models else given
        except RecursionError:
            raise self._error(event) from None
        except StreamError as error:
            if error.path == "$" and _DEPTH_RULE in str(error):  # refused at a canonical place: name the event's
                raise self._error(event) from None
            raise
        except ValidationError as error:  # a canonical model built from the event refused a too-deep value
            if too_deep_error(error):
                raise self._error(event) from None
            raise

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        if type(events) is list:
            self._read_list(cast("list[dict[str, Any]]", events))
            return
        last: list[dict[str, Any] | None] = [None]
        try:
            self._decoder.read(self._counted(events, last))
        except RecursionError:
            raise self._error(last[0]) from None
        except ValidationError as error:
            if too_deep_error(error):
                raise self._error(last[0]) from None
            raise

    def _read_list(self, events: list[dict[str, Any]]) -> None:
        """:meth:`read` of a list with no step per event: the list's own iterator says how
        far the decoder got (``length_hint`` is exact for it), so the event being read when
        an error came is known without counting each one (the counting generator cost
        about a fifth of reading a delta)."""
        iterator = iter(events)
        try:
            self._decoder.read(iterator)
        except BaseException as error:
            consumed = len(events) - length_hint(iterator)
            self._fed += consumed
            if isinstance(error, RecursionError) or (isinstance(error, ValidationError) and too_deep_error(error)):
                raise self._error(events[consumed - 1] if consumed else None) from None
            raise
        self._fed += len(events)

    def _counted(self, events: Iterable[dict[str, Any]], last: list[dict[str, Any] | None]) -> Iterator[dict[str, Any]]:
        for event in events:
            self._fed += 1
            last[0] = event
            yield event

    def close(self) -> Sequence[AnyStreamRecord | AnyStreamEvent]:
        """The events the end of the stream gives; a stream of no events, or of none this
        format's decoder reads (a 200 answer holding a JSON body, which Anthropic's and
        Responses' decoders skip as an unknown event type), is a
        :class:`~chatcodec.StreamError`, not an empty answer that looks successful."""
        try:
            given = self._decoder.close()
        except RecursionError:
            raise self._error(None) from None
        except pydantic_core.ValidationError as error:  # an event built at the end (the finish) refused a kept value
            raise canonical_refusal(error, max(self._fed - 1, 0)) from None
        if not given and not self._given and (self._builder is None or self._builder.built_nothing()):
            raise self._said_nothing()
        return _models_of(given) if self._models else given

    def _said_nothing(self) -> StreamError:
        name = self._name
        if not self._fed:
            why = "no events: an answer that is not a stream (an error page, a JSON body) holds none"
            return StreamError(f"the {name} stream has {why}")
        why = f"none of its {self._fed} events is an event of the {name} stream format (a JSON body answered instead?)"
        return StreamError(f"the stream says nothing: {why}", "$", 0)

    def _error(self, event: object) -> StreamError:
        refused = too_deep(event)
        message = str(refused).partition(": ")[2]
        return StreamError(message, refused.path, max(self._fed - 1, 0))


def _models_of(events: Sequence[AnyStreamRecord | AnyStreamEvent]) -> list[AnyStreamEvent]:
    """:func:`~chatcodec._providers.kit.stream_boundary.models_of`, imported when a decoder
    is first fed (this module is imported by every codec; a request loads no record)."""
    from chatcodec._providers.kit.stream_boundary import models_of

    return models_of(events)
