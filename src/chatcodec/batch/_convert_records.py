"""The records a batch conversion passes around: its options, one payload's outcome, the lines
of a JSONL batch and what became of them.

Plain data, picklable, importing nothing of the conversion, so a worker process, a Parquet
writer and the command line's report share them without importing each other (and
:mod:`chatcodec.batch._convert`, which names them too, stays a module of one job).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from chatcodec._losses import LOSS_KINDS, Loss
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits

if TYPE_CHECKING:
    from chatcodec._training.train_on import TrainOn

PayloadKind = Literal["request", "response"]
"""What the payloads are: request bodies or response bodies."""

RowNumbering = Literal["line", "index"]
"""How rows are numbered: by JSON Lines line (from 1), or by JSON array index (from 0)."""


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """What to convert from and to; small and picklable, so workers receive it."""

    source: str
    """The input format (a registry name such as ``openai-chat``, or ``canonical``)."""
    target: str
    """The output format."""
    kind: PayloadKind = "request"
    """Whether the payloads are requests or responses."""
    strict: bool = False
    """Refuse a payload with a loss of a kind in ``strict_kinds`` (its losses become the error)."""
    encoder_options: tuple[tuple[str, Any], ...] = ()
    """Settings for the target's request encoder (``options`` of
    :func:`~chatcodec.convert_request`), as pairs so the options stay hashable."""
    keep_lines: bool = False
    """Write a placeholder line for each rejected line, so output line N is input line N
    (blank input lines are no payload and have none)."""
    id_field: str | None = None
    """The top-level field holding a row's id, not its payload: taken out before the
    conversion (no loss, no strict refusal for it) and written first in the converted row;
    with ``keep_lines`` the placeholder of a rejected row is ``{id_field: value}`` (``null``
    when the line holds no such field)."""
    strict_kinds: tuple[str, ...] = LOSS_KINDS
    """The loss kinds ``strict`` refuses (every kind unless narrowed; the CLI's ``--strict``
    narrows it to ``content`` and ``rule``)."""
    columns: tuple[str, ...] = ()
    """Top-level fields that are the dataset's columns, not payload (a source, a split, a
    score): taken out before the conversion as ``id_field`` is, and written after it in
    the converted row (a Parquet output gives each its own column)."""
    envelope: str | None = None
    """The batch envelope each row is in (:mod:`chatcodec.batch._envelopes`: a preset such as
    ``openai-batch``, ``NAME:FORMAT``, or ``body=/pointer,id=/pointer``); ``source`` is then
    the body format when the row does not tell it."""
    out_envelope: str | None = None
    """The batch envelope each converted body is written in (``target`` is the body format)."""
    model: str | None = None
    """The model every converted request names, replacing the source's (a batch moved to
    another provider needs that provider's model)."""
    dialect_layout: str | None = None
    """The ShareGPT-style layout of a ``sharegpt`` row, as JSON text of LLaMA-Factory's or
    axolotl's configuration (:func:`chatcodec._row_dialects.dialects.layout_from_config`)."""
    id_from_line: bool = False
    """Give a row whose envelope holds no id ``line-N`` as its id (N its line number in a
    JSON Lines input): a Vertex batch input, which has no ids, becomes an OpenAI batch."""
    extra_fields: tuple[tuple[str, Any], ...] = ()
    """Wire fields every converted request sends as they are (``extra_fields`` of
    :func:`~chatcodec.convert_request`), as pairs so the options stay hashable."""
    template: str | None = None
    """The chat template (a family chatcodec knows, or a template's text) an ``hf-chat``,
    ``trl-prompt-completion`` or ``rollout`` row is written for: its messages in that
    template's shapes (a rollout's tokens rendered by it)."""
    tokenizer: str | None = None
    """The ``tokenizer.json`` a ``rollout`` row's tokens are rendered with (a path, so the
    options stay picklable; each worker reads it once)."""
    train_on: TrainOn = "last_assistant_message"
    """Which answers a ``rollout`` row's ``sampled_mask`` marks (``render``'s ``train_on``)."""
    template_limits: TemplateLimits = DEFAULT_LIMITS
    """The bounds on each run of ``template`` (``--template-seconds``, ``--template-output-chars``)."""
    numbered: RowNumbering = "line"
    """What a row's number is: its JSON Lines line (from 1), or its index in a JSON array
    (from 0, ``item-N`` as the id ``id_from_line`` gives, ``index`` in a reject record)."""

    @property
    def row_fields(self) -> tuple[str, ...]:
        """The fields that are the row's, not the payload's: ``id_field``, then ``columns``."""
        return tuple(dict.fromkeys(self.columns if self.id_field is None else (self.id_field, *self.columns)))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one payload: the converted body, or why there is none."""

    converted: dict[str, Any] | None
    """The payload in the target format; ``None`` when ``error`` is set."""
    error: str | None
    """Why the payload was not converted, naming the JSON path; ``None`` when it was."""
    losses: tuple[Loss, ...] = ()
    """What the target format could not carry (under ``strict`` these are the error)."""


@dataclass(frozen=True, slots=True)
class Reject:
    """A line that was not converted, ready for the rejects file."""

    line: int
    """Its line number in the input, counting from 1."""
    error: str
    """Why, naming the JSON path."""
    record: bytes
    """The rejects-file record: one JSON object and a newline (see :func:`reject_record`)."""


@dataclass(frozen=True, slots=True)
class RawLine:
    """One non-blank line of a JSONL input, unparsed."""

    number: int
    """Its line number, counting from 1 (blank lines count too)."""
    text: bytes
    """The line as read, without its terminator (``\\n`` or ``\\r\\n``)."""


@dataclass(slots=True)
class LineBatch:
    """Consecutive lines of a JSONL input, sent to a worker together."""

    lines: list[RawLine] = field(default_factory=lambda: [])
    """The non-blank lines, in input order."""
    size: int = 0
    """Bytes of input the batch covers, blank lines included (for progress)."""


@dataclass(slots=True)
class BatchResult:
    """What became of a :class:`LineBatch`, in input order."""

    output: bytes = b""
    """The converted payloads, one JSON document per line, already serialized."""
    converted: int = 0
    """How many lines were converted."""
    rejects: list[Reject] = field(default_factory=lambda: [])
    """The lines that were not, in input order."""
    losses: list[tuple[int, Loss]] = field(default_factory=lambda: [])
    """Losses of converted lines, with their line numbers."""
    size: int = 0
    """Bytes of input the batch covered."""
    placeholders: list[int] = field(default_factory=lambda: [])
    """Which lines of ``output`` (counting from 0) are ``keep_lines`` placeholders, so a
    writer of another format (Parquet) can tell them from converted payloads."""
