"""An answer's id, model and creation time where the upstream's body does not name them.

A ``ConverseResponse`` and its stream carry no id and no model: the model is in the URL
and the id in the ``x-amzn-RequestId`` header (the upstream edge's ``answer_id_header``).
A caller of the OpenAI or Anthropic API reads both from the body (the OpenAI SDK's
``completion.id``, Claude Code's ``message.model``), so the answer converted for it gets
the header's id and the model the route called, never an empty string. An upstream whose
body has them keeps its own.

The creation time is the gateway's own fact: an Anthropic, Bedrock or Gemini answer has no
``created``, and an OpenAI ``ChatCompletion`` (``created``) or Responses ``Response``
(``created_at``) requires one. The gateway gives the time the upstream's answer arrived,
so the writer has nothing to invent (it reports what it invents) and the caller's
``chatcodec-losses`` header does not name a time on every such answer. Where chatcodec
renders (a token upstream, ``_steps/sample.py``), the answer is the gateway's own making and
takes its id, model and time from here alike.

The same model is the one that thought: its thinking parts (a ``reasoningContent``
block, a stream's reasoning deltas) name it too. Claude on Bedrock signs with
Anthropic's scheme, and a writer replays a Bedrock signature only for a part whose model
is a Claude model (``families/claude/wire_rules.claude_signed``): without it, an
Anthropic caller got ``"signature": ""`` and its next request was refused.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chatcodec._error_shapes import failed_answer
from chatcodec._losses import Loss, LossRecorder
from chatcodec._model.stream_records import (
    RECORD_CLASSES,
    AnyStreamRecord,
    PartRecord,
    ResponseStartRecord,
    ThinkingStartRecord,
)
from chatcodec._narrow import as_dict
from chatcodec._registry import get_codec
from chatcodec.serve._own_reasoning import signed_response
from chatcodec.serve._upstream import upstream_side


@dataclass(frozen=True, slots=True)
class Identity:
    """The id, model and creation time an answer gets where its body has none."""

    id: str | None
    model: str | None
    created: int = field(default_factory=lambda: int(time.time()))
    """When the upstream's answer reached the gateway (Unix seconds)."""

    def _missing(self) -> tuple[tuple[str, str | int | None], ...]:
        return (("id", self.id), ("model", self.model), ("created", self.created))

    def fill(self, canonical: dict[str, Any]) -> dict[str, Any]:
        """Canonical response data with its missing (or empty) id, model and creation time
        filled, its thinking parts' model too."""
        for key, value in self._missing():
            if value and not canonical.get(key):
                canonical[key] = value
        if self.model:
            for part in _thinking_parts(canonical):
                part.setdefault("model", self.model)
        return canonical

    def started(self, event: AnyStreamRecord) -> AnyStreamRecord:
        """A stream's start event with its missing id, model and creation time filled, a
        thinking part's model too; other events as they are. Its caller asks only for the
        kinds it fills (not in :data:`AS_THEY_ARE`, most of a stream's events)."""
        if isinstance(event, ThinkingStartRecord):
            return event.replaced(model=self.model) if self.model and not event.model else event
        if isinstance(event, PartRecord):
            part = event.part
            if self.model and part.get("type") == "thinking" and not part.get("model"):
                return event.replaced(part=_with_model(part, self.model))
            return event
        if not isinstance(event, ResponseStartRecord) or (event.id and event.model and event.created):
            return event
        update = {key: value for key, value in self._missing() if value and not getattr(event, key)}
        return event.replaced(**update) if update else event


AS_THEY_ARE = RECORD_CLASSES - {ThinkingStartRecord, PartRecord, ResponseStartRecord}
"""The record classes :meth:`Identity.started` never fills (none subclasses the three it does):
a caller with many events (serve's stream step) looks here before calling it."""


def _with_model(part: dict[str, Any], model: str) -> dict[str, Any]:
    """A thinking part's canonical data naming ``model``, its keys in the model's order
    (what ``ThinkingPart.model_copy(update=...).model_dump()`` gave: a rare event, read
    through the model)."""
    from chatcodec._model.content import ThinkingPart

    named: dict[str, Any] = ThinkingPart.model_validate(part).model_copy(update={"model": model}).model_dump()
    return named


def _thinking_parts(canonical: dict[str, Any]) -> list[dict[str, Any]]:
    """The thinking parts of a canonical response's messages that name no model."""
    found: list[dict[str, Any]] = []
    for choice in canonical.get("choices") or ():
        message = as_dict((as_dict(choice) or {}).get("message")) or {}
        for part in message.get("content") or ():
            fields = as_dict(part)
            if fields is not None and fields.get("type") == "thinking" and not fields.get("model"):
                fields.pop("model", None)
                found.append(fields)
    return found


def answer_identity(upstream: str, headers: Mapping[str, str], model: str) -> Identity:
    """What an answer of ``upstream`` lacks: the id its response ``headers`` give, the
    ``model`` called (none where its body names them itself), and the time it arrived."""
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
    own_signature: str | None = None,
) -> dict[str, Any]:
    """``convert_response`` with the answer's missing id and model filled in between the
    reading and the writing (losses gathered into ``losses``, never raised); the gateway's own
    model's unsigned reasoning given ``own_signature`` (:mod:`chatcodec.serve._own_reasoning`)."""
    canonical = signed_response(identity.fill(get_codec(source).read_response(fields)), own_signature)
    failure = failed_answer(source, canonical, fields) if target != source else None
    if failure is not None:
        raise failure
    recorder = LossRecorder()
    written = get_codec(target).write_response(canonical, recorder, options=options)
    recorder.settle("ignore", losses)
    return written
