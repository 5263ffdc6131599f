"""An answer's id and model where the upstream's body names neither (Bedrock Converse).

A ``ConverseResponse`` and its stream carry no id and no model: the model is in the URL
and the id in the ``x-amzn-RequestId`` header (the upstream edge's ``answer_id_header``).
A caller of the OpenAI or Anthropic API reads both from the body (the OpenAI SDK's
``completion.id``, Claude Code's ``message.model``), so the answer converted for it gets
the header's id and the model the route called, never an empty string. An upstream whose
body has them keeps its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chatcodec.api import output_options
from chatcodec.losses import Loss, LossRecorder
from chatcodec.model.stream_events import AnyStreamEvent, ResponseStartEvent
from chatcodec.registry import get_codec
from chatcodec.serve.upstream import upstream_side


@dataclass(frozen=True, slots=True)
class Identity:
    """The id and model an answer gets where its body has none."""

    id: str | None
    model: str | None

    def fill(self, canonical: dict[str, Any]) -> dict[str, Any]:
        """Canonical response data with its missing (or empty) id and model filled."""
        for key, value in (("id", self.id), ("model", self.model)):
            if value and not canonical.get(key):
                canonical[key] = value
        return canonical

    def started(self, event: AnyStreamEvent) -> AnyStreamEvent:
        """A stream's start event with its missing id and model filled; other events as they are."""
        if not isinstance(event, ResponseStartEvent) or (event.id and event.model):
            return event
        update = {
            key: value for key, value in (("id", self.id), ("model", self.model)) if value and not getattr(event, key)
        }
        return event.model_copy(update=update) if update else event


def answer_identity(upstream: str, headers: Mapping[str, str], model: str) -> Identity:
    """What an answer of ``upstream`` lacks: the id its response ``headers`` give, the
    ``model`` called; none where its body names them itself."""
    header = upstream_side(upstream).answer_id_header
    if header is None:
        return Identity(None, None)
    found = next((value for name, value in headers.items() if name.lower() == header), None)
    return Identity(found, model or None)


def convert_answer(
    fields: dict[str, Any],
    *,
    source: str,
    target: str,
    losses: list[Loss],
    options: Mapping[str, Any] | None,
    identity: Identity,
) -> dict[str, Any]:
    """``convert_response`` with the answer's missing id and model filled in between the
    reading and the writing (losses gathered into ``losses``, never raised)."""
    canonical = identity.fill(get_codec(source).read_response(fields))
    recorder = LossRecorder()
    written = get_codec(target).write_response(canonical, recorder, options=output_options(options))
    recorder.settle("ignore", losses)
    return written
