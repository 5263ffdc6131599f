"""Converting a column of a dataset: :class:`BatchConverter`, for Hugging Face ``datasets``
and Ray Data.

One picklable callable takes a columnar batch (a mapping of column name to values: the
lists ``Dataset.map(batched=True)`` passes, or the numpy object arrays of Ray's default
batch format) and returns it with the converted payloads in a new column, beside an
error column and a losses column, so no row is ever dropped or silently changed::

    from chatcodec import BatchConverter

    to_anthropic = BatchConverter(source="openai-chat", target="anthropic", column="request")
    dataset = dataset.map(to_anthropic, batched=True, num_proc=8)   # Hugging Face datasets
    dataset = dataset.map_batches(to_anthropic)                      # Ray Data

Payloads may be dicts or JSON text. Arrow (under both libraries) fills keys missing from
some rows' objects with nulls, which a strict codec then rejects or keeps as ``null``:
to convert exactly, store payloads as JSON strings; the output is then JSON text too.

One Ray quirk to know: a column that is all ``None`` within a block (the error column of
a block where every row converted) reaches a *later* ``map_batches`` in numpy format as
``NaN``; test errors with ``isinstance(error, str)`` there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, cast

from chatcodec._public_label import shown_as
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._convert_records import ConvertOptions, Outcome, PayloadKind
from chatcodec.batch._json_dump import dump_json
from chatcodec.batch._row_formats import row_options

OutputFormat = Literal["auto", "dict", "json"]
"""How converted payloads are written: ``"auto"`` keeps each input's form (JSON text for
JSON text, a dict for a dict); ``"dict"`` and ``"json"`` force one form."""


class BatchConverter:
    """Convert the payloads in one column of a columnar batch, row by row.

    Returns every column of the batch unchanged (Ray keeps only what the function
    returns) plus ``output_column`` (the converted payload, ``None`` when the row failed),
    ``error_column`` (``None``, or why the row failed, naming the JSON path) and, unless
    ``losses_column`` is ``None``, the losses of each row as a list of strings. With
    ``strict=True`` a row with any loss fails. ``options`` go to the target's request
    encoder (as in :func:`~chatcodec.convert_request`: ``{"max_tokens": 1024}`` for Anthropic).

    ``source`` and ``target`` take every name ``chatcodec convert --from/--to`` takes
    (:func:`chatcodec.datasets.row_formats`): a wire format, a batch envelope
    (``"openai-batch"``, whose rows also say the ``kind``) or a training dialect
    (``"sharegpt"``, ``"alpaca"``, ``"trl-prompt-completion"``, ...; ``dialect_config`` is
    a LLaMA-Factory ``dataset_info`` entry or axolotl's keys, as ``--dialect-config``).
    ``envelope``/``out_envelope`` give a custom layout beside a body format
    (``"body=/pointer,id=/pointer"``), and ``model`` replaces the model every converted
    request names. ``template`` (a family or a template's text) writes ``hf-chat``,
    ``trl-prompt-completion`` and ``rollout`` rows in that template's shapes, as
    ``--template``; ``rollout`` rows also need ``tokenizer`` (a ``tokenizer.json`` path):
    without them such a converter is refused at construction. For token columns alone,
    :class:`~chatcodec.RenderConverter`.
    """

    def __init__(
        self,
        *,
        source: str,
        target: str,
        column: str,
        kind: PayloadKind | None = None,
        output_column: str | None = None,
        error_column: str = "chatcodec_error",
        losses_column: str | None = "chatcodec_losses",
        strict: bool = False,
        output_format: OutputFormat = "auto",
        options: Mapping[str, Any] | None = None,
        envelope: str | None = None,
        out_envelope: str | None = None,
        model: str | None = None,
        dialect_config: Mapping[str, Any] | None = None,
        template: str | None = None,
        tokenizer: str | None = None,
    ) -> None:
        self.options: ConvertOptions = row_options(
            source,
            target,
            kind=kind,
            strict=strict,
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
        """The column holding the payloads."""
        self.output_column: str = output_column or f"{target}_{self.options.kind}"
        """Where converted payloads go (default ``<target>_<kind>``, e.g. ``anthropic_request``)."""
        self.error_column = error_column
        """Where each row's error goes: ``None`` when it converted."""
        self.losses_column = losses_column
        """Where each row's losses go (a list of strings), or ``None`` for no such column."""
        self.output_format: OutputFormat = output_format
        """The form of the converted payloads."""
        written = [self.output_column, error_column, *([losses_column] if losses_column else [])]
        if len(set(written)) != len(written):
            raise ValueError(f"BatchConverter: the output, error and losses columns must differ, got {written}")

    def __call__(self, batch: Mapping[str, Iterable[Any]]) -> dict[str, Any]:
        """Convert ``batch[column]``; returns the batch with the new columns added."""
        if self.column not in batch:
            raise ValueError(f"BatchConverter: the batch has no column {self.column!r}; it has {sorted(batch)}")
        converted: list[object] = []
        errors: list[str | None] = []
        losses: list[list[str]] = []
        for item in batch[self.column]:
            payload = plain_value(item)
            outcome = convert_payload(payload, self.options)
            converted.append(self._written(outcome, as_text=isinstance(payload, str | bytes | bytearray)))
            errors.append(outcome.error)
            losses.append([str(loss) for loss in outcome.losses])
        result: dict[str, Any] = dict(batch)
        result[self.output_column] = converted
        result[self.error_column] = errors
        if self.losses_column is not None:
            result[self.losses_column] = losses
        return result

    def __repr__(self) -> str:
        options = self.options
        return (
            f"BatchConverter(source={options.source!r}, target={options.target!r}, kind={options.kind!r}, "
            f"column={self.column!r}, output_column={self.output_column!r}, strict={options.strict!r})"
        )

    def _written(self, outcome: Outcome, *, as_text: bool) -> object:
        if outcome.converted is None:
            return None
        if self.output_format == "json" or (self.output_format == "auto" and as_text):
            return dump_json(outcome.converted).decode("utf-8")
        return outcome.converted


def plain_value(value: object) -> object:
    """``value`` as plain JSON data: numpy arrays and scalars and Arrow scalars unwrapped.

    A value nested past Python's recursion limit is given back as it is: the conversion that
    reads it next refuses it at its path (``too_deep``: how deep, and the route in), where
    unwrapping it here would raise a bare ``RecursionError`` out of the whole batch."""
    try:
        return _unwrapped(value)
    except RecursionError:
        return value


def _unwrapped(value: object) -> object:
    if value is None or isinstance(value, str | bytes | bytearray | bool | int | float):
        return value
    as_py = getattr(value, "as_py", None)  # a pyarrow scalar
    if callable(as_py):
        return _unwrapped(as_py())
    if isinstance(value, Mapping):
        mapping = cast("Mapping[object, object]", value)
        return {key: _unwrapped(item) for key, item in mapping.items()}
    tolist = getattr(value, "tolist", None)  # a numpy array or scalar
    if callable(tolist):
        return _unwrapped(tolist())
    if isinstance(value, list | tuple):
        items = cast("list[object] | tuple[object, ...]", value)
        return [_unwrapped(item) for item in items]
    return value


shown_as("chatcodec", BatchConverter)  # shown as chatcodec.BatchConverter (it is imported from there)
