"""What a provider folder says about the rows its bodies ride in: batch envelopes and
training datasets (its optional ``batch_rows.py``, read by :mod:`chatcodec.batch`).

A batch service wraps each body in a row of its own. The row's *layout* is a fact of the
service (OpenAI's Batch API, Anthropic's Message Batches, Bedrock's batch inference,
Gemini's and Vertex's batch prediction), declared once by the folder or family that owns
the service (:class:`EnvelopeLayout`); which body formats a layout carries, and what a
body holds differently inside it, is a fact of each body format's folder
(:class:`EnvelopeBody`): a Bedrock batch row holds a Converse body, an Anthropic body
(with ``anthropic_version`` and no ``model``) or a Nova body, each declared beside its
codec. :mod:`chatcodec.batch._envelopes` assembles the table from every registered folder's
:data:`BatchRows`, so a new provider's batch rows need no shared edit.

A layout is a tuple of (JSON pointer, what is there) in the order a written row holds
them: :data:`BODY_SLOT`, :data:`ID_SLOT`, :data:`FORMAT` (a field whose value names the body's
format, told by each :class:`EnvelopeBody`'s ``told_by``) or a constant the service sets
(a row holding another value there is refused: ``status_code`` 500, ``result.type``
``errored``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from chatcodec._public_label import shown_as

EnvelopeKind = Literal["request", "response"]
"""What an envelope's body is."""


class Slot:
    """A place in a row that is not a constant: the body, the id, or the body's format."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name.upper()


BODY_SLOT: Final = Slot("body")
"""The layout slot holding the body."""
ID_SLOT: Final = Slot("id")
"""The layout slot holding the row's id."""
FORMAT: Final = Slot("format")
"""The layout slot whose value names the body's format (OpenAI Batch's ``url``)."""


@dataclass(frozen=True, slots=True)
class IdRule:
    """What a target accepts as a row id, with its source."""

    pattern: str
    """A regular expression the whole id must match."""
    source: str
    """Where the rule is documented."""


@dataclass(frozen=True, slots=True)
class EnvelopeLayout:
    """One batch file row layout, as the service documents it (whatever body it holds)."""

    name: str
    """The preset's name (``--from``/``--to``)."""
    kind: EnvelopeKind
    """Requests or responses."""
    layout: tuple[tuple[str, object], ...]
    """(JSON pointer, what is there) in the order a written row holds them (module docstring)."""
    source: str
    """The documentation the layout follows."""
    id_required: bool = False
    """Whether every row must have an id (OpenAI's and Anthropic's ``custom_id``)."""
    id_rule: IdRule | None = None
    """The ids the service accepts, when it says."""
    extras: tuple[str, ...] = ()
    """Documented top-level fields the layout does not write (a response's service id, an
    ``error`` in place of the body), so a row given where a bare body was expected is known."""
    failures: tuple[str, ...] = ()
    """Pointers where a failed row says why (OpenAI's ``error``, Bedrock's ``error`` with its
    ``errorMessage``, Vertex's ``status``): a row holding one is refused quoting it."""
    row_lists: tuple[str, ...] = ()
    """Pointers where one results document holds a list of these rows, read row by row
    (Gemini's inlined batch results)."""
    lists_for: tuple[str, ...] = ()
    """Other envelopes whose name reads such a document too (the results file's)."""


@dataclass(frozen=True, slots=True)
class EnvelopeBody:
    """A body format carried by a layout, and what the body holds differently inside it."""

    envelope: EnvelopeLayout
    """The layout the body rides in."""
    format: str
    """The body's format (the folder's registry name)."""
    default: bool = False
    """Whether a row of this layout is read as this format when nothing tells (one body per
    layout says so; the others follow in registry order)."""
    told_by: str | None = None
    """The value the layout's :data:`FORMAT` field holds for this format."""
    marks: tuple[str, ...] = ()
    """Pointers whose presence in a row says the body is of this format
    (``/modelInput/anthropic_version``)."""
    fixed: tuple[tuple[str, object], ...] = ()
    """Fields the body holds inside this envelope (written first)."""
    dropped: tuple[str, ...] = ()
    """Body fields the envelope holds elsewhere (the model, named by the batch job)."""


@dataclass(frozen=True, slots=True)
class BatchRows:
    """A folder's ``batch_rows.py`` record: the envelopes its bodies ride in, and whether the
    training dialects' rows hold its messages."""

    bodies: tuple[EnvelopeBody, ...] = ()
    """Each envelope this format's bodies ride in."""
    training_dialects: bool = False
    """Whether the training dialects (ShareGPT, TRL, OpenAI's DPO, Hugging Face chat) hold
    this format's message shapes, so a dialect's row is written from it (one format says so)."""


NO_BATCH_ROWS: Final = BatchRows()
"""A folder without a ``batch_rows.py``: in no envelope, holding no training dialect."""


shown_as("chatcodec.contract", BatchRows, EnvelopeBody, EnvelopeLayout, IdRule)
