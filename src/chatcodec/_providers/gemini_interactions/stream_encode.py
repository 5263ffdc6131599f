"""Encoding a stream: canonical events -> the SSE events of the steps schema.

Each canonical part is a step of its own: a text a ``model_output`` step (``step.start``,
its ``text`` deltas, ``step.stop``), thinking a ``thought`` step (``thought_summary`` and
``thought_signature`` deltas), a call a ``function_call`` step (``arguments_delta``), a
media part or this provider's kept step whole; the answer starts with
``interaction.created`` and ends with ``interaction.completed``, which carries the status
and the usage (https://ai.google.dev/gemini-api/docs/interactions/streaming). The SSE
framing is the edge's (``event:`` named by ``event_type``), never written here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, assert_never

from chatcodec._providers.gemini_interactions.finish_reason import encode_finish_reason
from chatcodec._providers.gemini_interactions.markers import DISPLAY, KIT, PROVIDER, STATUS
from chatcodec._providers.gemini_interactions.messages import encode_thought
from chatcodec._providers.gemini_interactions.parts import encode_part, is_step
from chatcodec._providers.gemini_interactions.response import NO_CHOICE_DATA, served_fields
from chatcodec._providers.gemini_interactions.usage import encode_usage
from chatcodec.codec_kit import as_list, wire_fields
from chatcodec.contract import (
    AnyStreamRecord,
    ChoiceMetadataRecord,
    EncodeContext,
    ErrorRecord,
    FinishRecord,
    PartRecord,
    RefusalDeltaRecord,
    ResponseStartRecord,
    Steps,
    TextDeltaRecord,
    TextEndRecord,
    TextStartRecord,
    ThinkingDeltaRecord,
    ThinkingEndRecord,
    ThinkingSignatureDeltaRecord,
    ThinkingStartRecord,
    ToolCallDeltaRecord,
    ToolCallEndRecord,
    ToolCallStartRecord,
    UsageRecord,
)


def delta_of(
    event: TextDeltaRecord | ThinkingDeltaRecord | ThinkingSignatureDeltaRecord | ToolCallDeltaRecord,
) -> dict[str, Any]:
    """The ``step.delta`` payload of a canonical delta."""
    match event:
        case TextDeltaRecord():
            return {"type": "text", "text": event.delta}
        case ThinkingDeltaRecord():
            return {"type": "thought_summary", "content": {"type": "text", "text": event.delta}}
        case ThinkingSignatureDeltaRecord():
            return {"type": "thought_signature", "signature": event.delta}
        case ToolCallDeltaRecord():
            return {"type": "arguments_delta", "arguments": event.delta}


NO_STREAMED_DATA = "a streamed step carries its content only: a part's own data has no place"
"""Why a streamed part's bag is reported."""


class StreamEncoder:
    """Feed canonical events with :meth:`feed`, then :meth:`close` for ``interaction.completed``."""

    stream_contract: ClassVar[int] = 2
    """It reads records, not the public models."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.interaction: dict[str, Any] = {"id": "", "status": "in_progress"}
        self.started = False
        self.steps: dict[tuple[int, int], int] = {}
        """The step index of each canonical part (choice, index)."""
        self.count = 0
        """How many steps were started (the next one's index)."""
        self.skipped: set[tuple[int, int]] = set()
        """Parts not sent (another provider's thinking, another answer), reported once."""
        self.position = 0
        self.extra: dict[str, Any] = {}
        """The response's own fields its bag held, for ``interaction.completed``."""
        self.served = served_fields(context)
        """A server's own fields (its id...), over the answer's on the first and last event."""
        self.refusing: list[int] = []
        """The steps refusal deltas write to, stopped before any other event."""
        self.start: ResponseStartRecord | None = None
        """The start whose fields ``interaction.created`` carries."""

    def feed(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """The events ``event`` completes."""
        at: Steps = ("events", self.position)
        self.position += 1
        yield from self._before(event)
        match event:
            case TextStartRecord() | ToolCallStartRecord() | ThinkingStartRecord():
                yield from self._start(event, at)
            case TextDeltaRecord() | ThinkingDeltaRecord() | ThinkingSignatureDeltaRecord() | ToolCallDeltaRecord():
                yield from self._delta(event.choice, event.index, delta_of(event))
            case TextEndRecord() | ThinkingEndRecord() | ToolCallEndRecord():
                yield from self._stop(event, at)
            case PartRecord():
                yield from self._whole(event, at)
            case FinishRecord() | UsageRecord():
                self._ending(event, at)
            case ErrorRecord():
                error: dict[str, Any] = {"message": event.message}
                if event.error_type:
                    error["code"] = event.error_type
                yield {"event_type": "error", "error": error}
            case RefusalDeltaRecord():
                yield from self._refusal(event, at)
            case ResponseStartRecord() if event is not self.start:
                self._response_data(event.provider_metadata, at)
            case ResponseStartRecord():
                pass  # written on interaction.created
            case ChoiceMetadataRecord():
                KIT.report_unplaced(self.context.losses, event.choice_metadata, (*at, "choice"), NO_CHOICE_DATA)
                KIT.report_unplaced(self.context.losses, event.message_metadata, (*at, "message"), NO_CHOICE_DATA)
            case _:
                assert_never(event)

    def _stop(
        self, event: TextEndRecord | ThinkingEndRecord | ToolCallEndRecord, at: Steps
    ) -> Iterator[dict[str, Any]]:
        if isinstance(event, ThinkingEndRecord) and event.encrypted:
            self.context.losses.add(at, "encrypted thinking", f"{DISPLAY} thoughts carry a signature only")
        step = self.steps.get((event.choice, event.index))
        if step is None:
            return
        if isinstance(event, TextEndRecord) and event.provider_metadata:
            yield from self._text_data(event.provider_metadata, step, at)
        yield {"event_type": "step.stop", "index": step}

    def _text_data(self, metadata: Mapping[str, Any], step: int, at: Steps) -> Iterator[dict[str, Any]]:
        """A text's citations (its bag's ``annotations``, as :mod:`.stream_decode` keeps them
        from the delta the API streams them in) as that delta; the rest of its bag has no place."""
        own = KIT.own(metadata)
        annotations = as_list(own.pop("annotations", None))
        if annotations:
            delta = {"type": "text_annotation_delta", "annotations": annotations}
            yield {"event_type": "step.delta", "index": step, "delta": delta}
        rest = {name: bag for name, bag in metadata.items() if name != PROVIDER}
        KIT.report_unplaced(self.context.losses, {**rest, PROVIDER: own} if own else rest, at, NO_STREAMED_DATA)

    def _response_data(self, metadata: Mapping[str, Any] | None, at: Steps) -> None:
        """The response's own fields (an Interaction's ``created``, ``object`` ...), written
        on ``interaction.completed``; another provider's reported."""
        own = wire_fields(KIT.claim(self.context.losses, metadata, (*at, "provider_metadata")))
        self.extra.update(own)

    def _ending(self, event: FinishRecord | UsageRecord, at: Steps) -> None:
        self._response_data(event.provider_metadata, at)
        if isinstance(event, UsageRecord):
            self.interaction["usage"] = encode_usage(dict(event.usage), self.context, (*at, "usage"))
        elif event.choice == 0:
            KIT.report_unplaced(self.context.losses, event.choice_metadata, (*at, "choice"), NO_CHOICE_DATA)
            reason = dict(event.finish_reason)  # canonical data, as the model dumps it
            start = None if self.start is None else self.start.provider_metadata
            status = {STATUS: KIT.marker(event.provider_metadata, STATUS) or KIT.marker(start, STATUS)}
            self.interaction["status"] = encode_finish_reason(reason, status, self.context, at)

    def _before(self, event: AnyStreamRecord) -> Iterator[dict[str, Any]]:
        """What ``event`` needs sent first: ``interaction.created``, the stop of a refusal's step."""
        if not self.started and not isinstance(event, ErrorRecord):
            yield from self._created(event if isinstance(event, ResponseStartRecord) else None)
        if self.refusing and not isinstance(event, RefusalDeltaRecord):
            yield from self._stop_refusals()

    def _refusal(self, event: RefusalDeltaRecord, at: Steps) -> Iterator[dict[str, Any]]:
        """A refusal is sent as text, as in a body (reported once per part): a ``model_output``
        step its deltas write to, stopped at the next event of another kind."""
        key = (event.choice, event.index)
        if key not in self.steps and key not in self.skipped:
            self.context.losses.add(at, "refusal", f"{DISPLAY} has no refusal content; sent as text")
            step = self._open(event.choice, event.index, at)
            if step is None:
                return
            self.refusing.append(step)
            yield {"event_type": "step.start", "index": step, "step": {"type": "model_output"}}
        yield from self._delta(event.choice, event.index, {"type": "text", "text": event.delta})

    def _stop_refusals(self) -> Iterator[dict[str, Any]]:
        yield from ({"event_type": "step.stop", "index": step} for step in self.refusing)
        self.refusing.clear()

    def close(self) -> Iterator[dict[str, Any]]:
        """``interaction.completed``, with the status and the usage."""
        yield from self._stop_refusals()
        if self.started:
            interaction = {**self.interaction, **self.extra, **self.served}
            yield {"event_type": "interaction.completed", "interaction": interaction}

    def _created(self, start: ResponseStartRecord | None) -> Iterator[dict[str, Any]]:
        """``interaction.created``, with the start's fields (its ``object`` ...: the fields the
        decoder kept of this event)."""
        self.started, self.start = True, start
        own: dict[str, Any] = {}
        if start is not None:
            if start.id is not None:
                self.interaction["id"] = start.id
            if start.model is not None:
                self.interaction["model"] = start.model
            own = wire_fields(
                KIT.claim(self.context.losses, start.provider_metadata, ("events", 0, "provider_metadata"))
            )
        yield {"event_type": "interaction.created", "interaction": {**self.interaction, **own, **self.served}}

    def _open(self, choice: int, index: int, at: Steps) -> int | None:
        if choice != 0:
            if (choice, index) not in self.skipped:
                self.context.losses.add(at, f"answer {choice}", f"an {DISPLAY} Interaction holds one answer")
                self.skipped.add((choice, index))
            return None
        step = self.steps[choice, index] = self.count
        self.count += 1
        return step

    def _start(
        self, event: TextStartRecord | ToolCallStartRecord | ThinkingStartRecord, at: Steps
    ) -> Iterator[dict[str, Any]]:
        if isinstance(event, ThinkingStartRecord):
            part = {"type": "thinking", "text": "", "provider": event.provider}
            if encode_thought(part, self.context, at) is None:
                self.skipped.add((event.choice, event.index))
                return
        step = self._open(event.choice, event.index, at)
        if step is None:
            return
        KIT.report_unplaced(self.context.losses, event.provider_metadata, at, NO_STREAMED_DATA)
        if isinstance(event, TextStartRecord):
            wire: dict[str, Any] = {"type": "model_output"}
        elif isinstance(event, ThinkingStartRecord):
            wire = {"type": "thought"}
        else:
            wire = {"type": "function_call", "id": event.id, "name": event.name, "arguments": {}}
        yield {"event_type": "step.start", "index": step, "step": wire}

    def _delta(self, choice: int, index: int, delta: dict[str, Any]) -> Iterator[dict[str, Any]]:
        step = self.steps.get((choice, index))
        if step is not None:
            yield {"event_type": "step.delta", "index": step, "delta": delta}

    def _whole(self, event: PartRecord, at: Steps) -> Iterator[dict[str, Any]]:
        part = event.part
        step = self._open(event.choice, event.index, at)
        if step is None:
            return
        if part["type"] == "opaque" and part["provider"] == PROVIDER and is_step(part["data"]):
            yield {"event_type": "step.start", "index": step, "step": dict(part["data"])}
        else:
            content = encode_part(part, self.context, (*at, "part"))
            if content is None:
                del self.steps[event.choice, event.index]
                return
            yield {"event_type": "step.start", "index": step, "step": {"type": "model_output"}}
            yield {"event_type": "step.delta", "index": step, "delta": content}
        yield {"event_type": "step.stop", "index": step}
