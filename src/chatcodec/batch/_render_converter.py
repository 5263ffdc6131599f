"""Rendering a column of conversations to token columns: :class:`RenderConverter`.

What :class:`~chatcodec.BatchConverter` is for conversion, this is for :func:`~chatcodec.render`:
one picklable callable that takes a columnar batch (the lists ``Dataset.map(batched=True)``
passes, Ray Data's numpy batches, an Arrow table or record batch) and returns it with the
rendering's columns added (the ids, the mask of trained tokens, each token's message) beside an
error column, so no row is dropped or silently changed::

    from chatcodec import RenderConverter

    to_tokens = RenderConverter(template="qwen3-training", tokenizer="tokenizer.json")
    dataset = dataset.map(to_tokens, batched=True, num_proc=8)   # Hugging Face datasets
    dataset = dataset.map_batches(to_tokens)                     # Ray Data
    frame.mapInArrow(to_tokens.record_batches, schema)           # Spark (RENDER_SPARK_SCHEMA's columns)

A tokenizer named by its path is read once per worker process (:func:`chatcodec._training.tokens.loaded`),
and the template is resolved at construction, so a misspelt family fails once, not per row.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, cast

from chatcodec._errors import ChatcodecError, PayloadError
from chatcodec._payloads import JSONValueError, read_json_text
from chatcodec._public_label import shown_as
from chatcodec._training import families
from chatcodec._training.render import render
from chatcodec._training.train_on import TrainOnGiven
from chatcodec._training.train_on import choice as train_on_choice
from chatcodec.batch._converter import plain_value

RENDER_SPARK_SCHEMA = (
    "token_ids array<int>, sampled_mask array<boolean>, message_indices array<int>, chatcodec_error string"
)
"""The DDL of the columns :class:`RenderConverter` adds, under its default names, for Spark's
``mapInArrow`` (prefix the input's own columns)."""


class RenderConverter:
    """Render the conversations in one column of a columnar batch, row by row.

    ``column`` holds each row's conversation: a list of messages in any shape
    :func:`~chatcodec.validate_messages` reads, a canonical request's dict, or with ``source`` a
    request in that wire format (dicts, or JSON text). ``template``, ``tokenizer`` (an object
    or a ``tokenizer.json`` path), ``train_on``, ``add_generation_prompt`` and
    ``template_variables`` are :func:`~chatcodec.render`'s.

    Returns every column of the batch unchanged plus ``ids_column``, ``mask_column`` (the tokens
    trained), ``indices_column`` (each token's message, -1 for a generation prompt) and
    ``error_column`` (``None``, or why the row was not rendered, naming the JSON path); the
    token columns of a row that failed are ``None``. Unless ``losses_column`` is ``None``, each
    row's losses (what the template could not show) as a list of strings.
    """

    def __init__(
        self,
        *,
        template: str,
        tokenizer: object,
        column: str = "messages",
        source: str | None = None,
        train_on: TrainOnGiven = "last_assistant_message",
        add_generation_prompt: bool = False,
        template_variables: Mapping[str, Any] | None = None,
        ids_column: str = "token_ids",
        mask_column: str = "sampled_mask",
        indices_column: str = "message_indices",
        error_column: str = "chatcodec_error",
        losses_column: str | None = "chatcodec_losses",
    ) -> None:
        families.resolve(template, dict(template_variables or {}) or None)  # a misspelt family fails here, once
        if isinstance(tokenizer, str | os.PathLike):
            path = os.fspath(cast("str | os.PathLike[str]", tokenizer))
            if not os.path.isfile(path):
                raise PayloadError(f"{path}: no such file", "$.tokenizer")
        train_on_choice(train_on)  # a misspelt choice fails here, once
        self.template = template
        self.tokenizer: object = tokenizer
        """The tokenizer, or the path each worker reads once."""
        self.column = column
        self.source = source
        self.train_on: TrainOnGiven = train_on
        self.add_generation_prompt = add_generation_prompt
        self.template_variables: dict[str, Any] = dict(template_variables or {})
        self.ids_column = ids_column
        self.mask_column = mask_column
        self.indices_column = indices_column
        self.error_column = error_column
        self.losses_column = losses_column
        written = [ids_column, mask_column, indices_column, error_column, *([losses_column] if losses_column else [])]
        if len(set(written)) != len(written):
            raise ValueError(f"RenderConverter: the columns it writes must differ, got {written}")

    def __call__(self, batch: Any) -> Any:
        """Render ``batch[column]``; returns the batch with the new columns added (an Arrow
        table for an Arrow table or record batch, else a dict of lists)."""
        if isinstance(batch, Mapping):
            return self._columns(cast("Mapping[str, Iterable[Any]]", batch))
        from chatcodec.datasets._arrow import pa

        return pa.Table.from_pydict(self._columns(batch.to_pydict()))

    def record_batches(self, batches: Iterable[Any]) -> Iterator[Any]:
        """Spark's ``mapInArrow`` form: Arrow record batches in, record batches out."""
        from chatcodec.datasets._arrow import pa

        for batch in batches:
            yield pa.RecordBatch.from_pydict(self._columns(batch.to_pydict()))

    def _columns(self, batch: Mapping[str, Iterable[Any]]) -> dict[str, Any]:
        if self.column not in batch:
            raise ValueError(f"RenderConverter: the batch has no column {self.column!r}; it has {sorted(batch)}")
        result: dict[str, Any] = dict(batch)
        written: dict[str, list[Any]] = {
            name: [] for name in (self.ids_column, self.mask_column, self.indices_column, self.error_column)
        }
        losses: list[list[str]] = []
        for item in batch[self.column]:
            ids, mask, indices, error, row_losses = self._row(plain_value(item))
            written[self.ids_column].append(ids)
            written[self.mask_column].append(mask)
            written[self.indices_column].append(indices)
            written[self.error_column].append(error)
            losses.append(row_losses)
        result.update(written)
        if self.losses_column is not None:
            result[self.losses_column] = losses
        return result

    def _row(self, conversation: object) -> tuple[Any, Any, Any, str | None, list[str]]:
        losses: list[Any] = []
        try:
            if isinstance(conversation, str | bytes | bytearray):
                conversation = read_json_text(conversation)  # JSON's reader: nesting too deep is refused
            rendering = render(
                conversation,
                template=self.template,
                source=self.source,
                tokenizer=self.tokenizer,
                train_on=self.train_on,
                add_generation_prompt=self.add_generation_prompt,
                template_variables=self.template_variables or None,
                on_loss="ignore",
                losses=losses,
            )
        except (ChatcodecError, json.JSONDecodeError) as error:  # a row's own fault: its error column says why
            return None, None, None, _error_text(error), [str(loss) for loss in losses]
        return (
            rendering.token_ids,
            rendering.trainable,
            rendering.message_indices,
            None,
            [str(loss) for loss in rendering.losses],
        )

    def __repr__(self) -> str:
        return (
            f"RenderConverter(template={self.template[:40]!r}, column={self.column!r}, source={self.source!r}, "
            f"train_on={self.train_on!r})"
        )


def _error_text(error: Exception) -> str:
    if isinstance(error, JSONValueError):
        return f"at {error.path}: {error.reason}"
    if isinstance(error, json.JSONDecodeError):
        return f"$: not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
    return str(error)


shown_as("chatcodec", RenderConverter)
