"""Converting or validating a column of an Arrow batch: Hugging Face ``datasets`` and Ray Data.

:class:`ArrowConverter` takes an Arrow batch (a :class:`pyarrow.Table` or
:class:`~pyarrow.RecordBatch`) and returns it with three columns added: the converted
payload (JSON text, or the columnar form for ``target="canonical"``), the error of each
row that was not converted (``null`` when it was) and its losses (a list of strings), so no
row is dropped or silently changed::

    from chatcodec.datasets import ArrowConverter

    to_anthropic = ArrowConverter(source="openai-chat", target="anthropic", options={"max_tokens": 1024})
    dataset.with_format("arrow").map(to_anthropic, batched=True, num_proc=8)   # Hugging Face datasets
    dataset.map_batches(to_anthropic, batch_format="pyarrow")                  # Ray Data

Arrow batches, not the engines' default formats, for three reasons measured on a 1M-row
dataset: Ray's numpy and pandas formats turn a nested integer into a float when
another row has a ``null`` there (``max_tokens: 4096.0``, which a strict reader refuses);
the per-row Python objects they build cost more than the conversion; and the columnar
form (:mod:`chatcodec.datasets._arrow_form`) is already Arrow. Conversion goes through
:func:`chatcodec.batch._convert.convert_payload` on plain data, as the command line's does: no
model is built per row.

The payloads are read from ``column`` when it is given (JSON text, or structs as Arrow
stores JSON objects; for ``source="canonical"`` a struct column is the columnar form, as
``output_form="columnar"`` writes it), else from the whole row: the columnar form's columns for
``source="canonical"`` (other columns pass through), every column otherwise. Structs
come with a ``null`` for every key another row had: :func:`without_arrow_nulls` drops
them and reports those it dropped from a tool schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal, cast

from chatcodec._losses import LOSS_KINDS, Loss
from chatcodec._narrow import is_dict
from chatcodec._public_label import shown_as
from chatcodec._registry import CANONICAL
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._convert_records import ConvertOptions, Outcome, PayloadKind
from chatcodec.batch._json_dump import dump_json
from chatcodec.batch._row_formats import row_options
from chatcodec.datasets._arrow import Array, DataType, RecordBatch, Table, pa
from chatcodec.datasets._arrow_form import arrow_schema
from chatcodec.datasets._arrow_rows import without_arrow_nulls
from chatcodec.datasets._canonical_rows import convert_canonical, settled
from chatcodec.datasets._columnar import from_columnar_row, to_columnar_row

OutputForm = Literal["json", "columnar"]
"""How converted payloads are written: JSON text, or (for ``target="canonical"``) the
columnar form as a struct column."""

Payload = tuple[object, list[Loss]]
"""One row's payload and the losses reading it from Arrow found (dropped ``null``\\ s)."""


class ArrowConverter:
    """Convert every row of an Arrow batch (see the module docstring); picklable, so each
    worker of an engine gets its own copy.

    ``strict``: a row with a loss (of a kind in ``strict_kinds``, every kind by default)
    is an error, not a conversion. ``options`` go to the target's request encoder, as in
    :func:`~chatcodec.convert_request`. ``validate_only``: read every row and report its
    error and losses, with no output column (what ``chatcodec validate`` does per row).

    ``source`` and ``target`` take every name ``chatcodec convert --from/--to`` takes
    (:func:`~chatcodec.datasets.row_formats`): a wire format, a batch envelope
    (``"openai-batch"``) or a training dialect (``"sharegpt"``, ``"alpaca"``, ...; a
    dialect's row is the whole Arrow row, its columns as the dataset has them, and
    ``dialect_config`` maps its keys as ``--dialect-config`` does). ``envelope``,
    ``out_envelope``, ``model``, ``template`` and ``tokenizer`` are as :class:`~chatcodec.BatchConverter`'s.
    """

    def __init__(
        self,
        *,
        source: str,
        target: str = CANONICAL,
        kind: PayloadKind | None = None,
        column: str | None = None,
        output_column: str | None = None,
        error_column: str = "chatcodec_error",
        losses_column: str = "chatcodec_losses",
        output_form: OutputForm = "json",
        strict: bool = False,
        strict_kinds: tuple[str, ...] = LOSS_KINDS,
        options: Mapping[str, Any] | None = None,
        validate_only: bool = False,
        envelope: str | None = None,
        out_envelope: str | None = None,
        model: str | None = None,
        dialect_config: Mapping[str, Any] | None = None,
        template: str | None = None,
        tokenizer: str | None = None,
    ) -> None:
        if output_form == "columnar" and target != CANONICAL:
            raise ValueError(
                "ArrowConverter: output_form='columnar' is the canonical form; it needs target='canonical'"
            )
        self.options: ConvertOptions = row_options(
            source,
            target,
            kind=kind,
            strict=strict,
            strict_kinds=strict_kinds,
            options=options,
            envelope=envelope,
            out_envelope=out_envelope,
            model=model,
            dialect_config=dialect_config,
            template=template,
            tokenizer=tokenizer,
        )
        """The conversion applied to every row."""
        self.column = column
        """The column holding the payloads, or ``None`` when each row is one."""
        self.output_column: str | None = None if validate_only else (output_column or f"{target}_{self.options.kind}")
        """Where converted payloads go (default ``<target>_<kind>``), ``None`` when only validating."""
        self.error_column = error_column
        """Where each row's error goes (``null`` when it converted)."""
        self.losses_column = losses_column
        """Where each row's losses go, as a list of strings."""
        self.output_form: OutputForm = output_form
        """The form of the converted payloads."""

    def __call__(self, batch: Table | RecordBatch) -> Table:
        """``batch`` with the output, error and losses columns added."""
        table = batch if isinstance(batch, pa.Table) else pa.Table.from_batches([batch])
        converted: list[object] = []
        errors: list[str | None] = []
        losses: list[list[str]] = []
        for payload, read_losses in self.payloads(table):
            outcome = self._outcome(payload, read_losses)
            converted.append(self._written(outcome))
            errors.append(outcome.error)
            losses.append([str(loss) for loss in outcome.losses])
        if self.output_column is not None:
            table = _with_column(table, self.output_column, pa.array(converted, self._output_type()))
        table = _with_column(table, self.error_column, pa.array(errors, pa.string()))
        return _with_column(table, self.losses_column, pa.array(losses, pa.list_(pa.string())))

    def payloads(self, table: Table) -> Iterator[Payload]:
        """Each row's payload, as :func:`~chatcodec.batch._convert.convert_payload` takes it."""
        if self.column is not None:
            values = table.column(self.column).to_pylist()
            if self.options.source == CANONICAL and pa.types.is_struct(table.schema.field(self.column).type):
                # a struct column of canonical data is the columnar form (``output_form="columnar"`` writes it)
                kind = self.options.kind
                yield from ((None if value is None else from_columnar_row(value, kind), []) for value in values)
                return
            yield from (_read(value) for value in values)
            return
        if self.options.source == CANONICAL:
            names = [name for name in arrow_schema(self.options.kind).names if name in table.schema.names]
            for row in cast("list[dict[str, Any]]", table.select(names).to_pylist()):
                yield from_columnar_row(row, self.options.kind), []
            return
        yield from (without_arrow_nulls(row) for row in cast("list[dict[str, Any]]", table.to_pylist()))

    def _outcome(self, payload: object, read_losses: list[Loss]) -> Outcome:
        if self.options.source == CANONICAL and is_dict(payload):
            outcome = convert_canonical(payload, self.options)  # a row of the columnar form: no model
        else:
            outcome = convert_payload(payload, self.options)
        if not read_losses:
            return outcome
        return settled(outcome.converted, (*read_losses, *outcome.losses), self.options, outcome.error)

    def _written(self, outcome: Outcome) -> object:
        if outcome.converted is None or self.output_column is None:
            return None
        if self.output_form == "columnar":
            return to_columnar_row(outcome.converted, self.options.kind)
        return dump_json(outcome.converted).decode("utf-8")

    def _output_type(self) -> DataType:
        if self.output_form == "columnar":
            return pa.struct(list(arrow_schema(self.options.kind)))
        return pa.string()

    def __repr__(self) -> str:
        options = self.options
        return (
            f"ArrowConverter(source={options.source!r}, target={options.target!r}, kind={options.kind!r}, "
            f"column={self.column!r}, output_column={self.output_column!r}, strict={options.strict!r})"
        )


def _read(value: object) -> Payload:
    """A payload column's value: JSON text as it is, a struct without Arrow's ``null``\\ s."""
    if isinstance(value, dict):
        return without_arrow_nulls(cast("dict[str, Any]", value))
    return value, []


def _with_column(table: Table, name: str, values: Array) -> Table:
    """``table`` with column ``name`` set to ``values`` (replaced when it is there already)."""
    if name in table.schema.names:
        return table.set_column(table.schema.get_field_index(name), name, values)
    return table.append_column(name, values)


shown_as("chatcodec.datasets", ArrowConverter)
