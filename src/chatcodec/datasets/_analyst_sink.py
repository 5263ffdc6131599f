"""``chatcodec convert --to canonical --layout analyst --out FOLDER``: the analyst's view as files.

The view (:mod:`chatcodec.datasets._analyst_view`) of the converted rows, written as
``exchanges.parquet``, ``messages.parquet`` and ``parts.parquet`` in ``FOLDER`` (zstd, row
groups of :data:`~chatcodec.datasets._parquet_sink.ROWS_PER_GROUP` exchanges). Requests
fill the request side of each exchange, responses (``--kind response``) the response side;
the row's ``--id-field`` and ``--column`` values are columns of every table, so a request
view and a response view join on the id. A ``--keep-lines`` placeholder is an exchange with
neither side.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chatcodec._narrow import is_dict
from chatcodec.batch._convert_records import BatchResult, ConvertOptions
from chatcodec.datasets import _parquet_sink as parquet_sink
from chatcodec.datasets._analyst_view import ANALYST_TABLES, analyst_tables
from chatcodec.datasets._arrow import Table, parquet


class AnalystSink:
    """Where converted canonical JSON lines go with ``--layout analyst``."""

    def __init__(self, folder: Path, options: ConvertOptions) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self._folder = folder
        self._kind = options.kind
        self._row_fields = options.row_fields
        self._payloads: list[dict[str, Any] | None] = []
        self._values: dict[str, list[Any]] = {name: [] for name in self._row_fields}
        self._exchanges = 0
        self._writers: dict[str, Any] = {}

    def write(self, result: BatchResult) -> None:
        """Take the rows of one batch's output (written when a row group is full)."""
        placeholders = set(result.placeholders)
        for index, line in enumerate(result.output.splitlines()):
            parsed: object = json.loads(line)
            row = parsed if is_dict(parsed) else {}
            for name, values in self._values.items():
                values.append(row.get(name))
            kept = {key: item for key, item in row.items() if key not in self._values}
            self._payloads.append(None if index in placeholders else kept)
        if len(self._payloads) >= parquet_sink.ROWS_PER_GROUP:
            self._flush()

    def close(self) -> None:
        """Write what is left and the files' footers."""
        self._flush()
        if not self._writers:  # no row at all: empty files of the view's schemas
            self._write_tables(analyst_tables([]))
        for writer in self._writers.values():
            writer.close()

    def _flush(self) -> None:
        if not self._payloads:
            return
        payloads, self._payloads = self._payloads, []
        values = {name: list(column) for name, column in self._values.items()}
        for column in self._values.values():
            column.clear()
        requests = payloads if self._kind == "request" else [None] * len(payloads)
        responses = payloads if self._kind == "response" else None
        self._write_tables(analyst_tables(requests, responses, columns=values, first_exchange=self._exchanges))
        self._exchanges += len(payloads)

    def _write_tables(self, tables: dict[str, Table]) -> None:
        for name in ANALYST_TABLES:
            table = tables[name]
            writer = self._writers.get(name)
            if writer is None:
                path = self._folder / f"{name}.parquet"
                writer = parquet().ParquetWriter(path, table.schema, compression=parquet_sink.COMPRESSION)
                self._writers[name] = writer
            elif table.schema != writer.schema_arrow:
                try:
                    table = table.cast(writer.schema_arrow)
                except (ValueError, TypeError) as error:
                    raise parquet_sink.ColumnTypeError(
                        f"a row field's values do not fit the type of its column in {name}.parquet ({error})"
                    ) from None
            writer.write_table(table, row_group_size=max(len(table), 1))
