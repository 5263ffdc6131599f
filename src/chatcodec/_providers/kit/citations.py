"""Canonical citations a format has no place for, reported once for every writer (kit module).

A text part's ``citations`` (:class:`~chatcodec.UrlCitation`: OpenAI's ``url_citation``
annotations) are written by the formats whose
:attr:`Capabilities.citations <chatcodec._providers.contract.capabilities.Capabilities.citations>`
name the place (a request's history, an answer, a stream); everywhere else a writer never
reads the field, so :class:`~chatcodec._providers.contract.provider_codec.ProviderCodec`
reports them here, before or around the format's own writer, and no writer has to
remember to. A citation is what the model wrote (a source for a span of its answer), so
dropping one is a ``content`` loss.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, cast

from chatcodec._codec_protocols import NumbersStreamEvents, numbers_events
from chatcodec._narrow import as_list

if TYPE_CHECKING:  # annotations only: a codec loads no canonical model until one is asked for
    from chatcodec._codec_protocols import RecordStreamEncoder
    from chatcodec._losses import LossRecorder, Steps
    from chatcodec._model.stream_records import AnyStreamRecord, PartRecord, TextEndRecord

WHY = "{target} has no place for a text's url citations{where}"


def cited_texts(content: object, at: Steps) -> Iterator[Steps]:
    """The places of the text parts in ``content`` (a message's, or a tool result's inside
    it) that carry citations."""
    for index, part in enumerate(as_list(content) or ()):
        if part.get("type") == "text" and part.get("citations"):
            yield (*at, index)
        elif part.get("type") == "tool_result":
            yield from cited_texts(part.get("content"), (*at, index, "content"))


def report_message_citations(
    message: Mapping[str, Any], losses: LossRecorder, at: Steps, target: str, where: str = ""
) -> None:
    """A loss at each cited text part of ``message`` (``at`` is its place)."""
    for place in cited_texts(message.get("content"), (*at, "content")):
        losses.add((*place, "citations"), "url citations", WHY.format(target=target, where=where))


def report_request_citations(request: Mapping[str, Any], losses: LossRecorder, target: str) -> None:
    """The same for canonical request data's messages (a request's history)."""
    for index, message in enumerate(request.get("messages") or ()):
        report_message_citations(message, losses, ("messages", index), target, " in a request")


def report_response_citations(response: Mapping[str, Any], losses: LossRecorder, target: str) -> None:
    """The same for each choice's message of canonical response data."""
    for index, choice in enumerate(response.get("choices") or ()):
        message = choice.get("message")
        if message is not None:
            report_message_citations(message, losses, ("choices", index, "message"), target)


class WithoutCitations:
    """A stream encoder over a format's own, reporting a text's citations where they come:
    on its :class:`~chatcodec.TextEndEvent`, or on a whole text part's
    :class:`~chatcodec.PartEvent`, at ``events[i]``. Every event goes through as it is."""

    __slots__ = ("_encoder", "_losses", "_position", "_target")
    stream_contract: ClassVar[int] = 2

    def __init__(self, encoder: RecordStreamEncoder, losses: LossRecorder, target: str) -> None:
        self._encoder = encoder
        self._losses = losses
        self._target = target
        self._position = -1

    def feed(self, event: AnyStreamRecord) -> Iterable[dict[str, Any]]:
        """The wire events ``event`` completes (a text's citations, on its end event or a
        whole part's, reported)."""
        self._position += 1
        at: Steps | None = None
        kind = event.type  # told apart by tag: a request imports no record class through this module
        if kind == "text_end" and cast("TextEndRecord", event).citations:
            at = ("events", self._position, "citations")
        elif (
            kind == "part" and (part := cast("PartRecord", event).part).get("type") == "text" and part.get("citations")
        ):
            at = ("events", self._position, "part", "citations")
        if at is not None:
            self._losses.add(at, "url citations", WHY.format(target=self._target, where=" in a stream"))
        return self._encoder.feed(event)

    def close(self) -> Iterable[dict[str, Any]]:
        """The closing wire events."""
        return self._encoder.close()


class _NumberedWithoutCitations(WithoutCitations):
    """The same over an encoder that numbers its events (``NumbersStreamEvents``): an event
    written beside the stream still takes its next number through the wrapper."""

    __slots__ = ()

    def numbered(self, wire_event: dict[str, Any]) -> dict[str, Any]:
        """``wire_event`` with the stream's next number, from the format's own encoder."""
        encoder = self._encoder
        assert isinstance(encoder, NumbersStreamEvents)  # chosen so by :func:`without_citations`
        return encoder.numbered(wire_event)


def without_citations(encoder: RecordStreamEncoder, losses: LossRecorder, target: str) -> WithoutCitations:
    """``encoder`` wrapped to report a stream's citations, keeping what it offers beside
    ``feed`` and ``close`` (its event numbers)."""
    if numbers_events(encoder):
        return _NumberedWithoutCitations(encoder, losses, target)
    return WithoutCitations(encoder, losses, target)
