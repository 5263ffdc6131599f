"""Conversations at dataset scale: an exact columnar form, and the engines that read it.

- :mod:`~chatcodec.datasets._layout`: the columnar form (content always a list of parts,
  free-form values as JSON text), published as ``schemas/request.arrow.json`` and
  ``schemas/response.arrow.json``;
- :mod:`~chatcodec.datasets._columnar`: canonical dicts to its rows and back, exactly;
- :mod:`~chatcodec.datasets._arrow_form`: its :class:`pyarrow.Schema` and tables;
- :mod:`~chatcodec.datasets._arrow_rows`: wire payloads as Arrow wrote them (``null``-filled);
- :mod:`~chatcodec.datasets._engines`: :class:`ArrowConverter`, for Hugging Face
  ``datasets.map`` and Ray Data ``map_batches``, from and to every name of
  :func:`row_formats` (wire formats, batch envelopes, training dialects);
- :mod:`~chatcodec.datasets._analyst_view`: flat tables of exchanges, messages and parts
  for SQL and dataframe queries (:func:`analyst_tables`);
- :mod:`~chatcodec.datasets._parquet_files` and :mod:`~chatcodec.datasets._parquet_sink`:
  the command line's Parquet input and output.

pyarrow (the ``arrow`` extra) is imported on first use of a name that needs it, never by
``import chatcodec`` or ``import chatcodec.datasets``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec.datasets._arrow_rows import without_arrow_nulls
from chatcodec.datasets._columnar import from_columnar, to_columnar
from chatcodec.datasets._layout import COLUMNAR_KINDS, ColumnarKind, columnar_layout, layout_document

if TYPE_CHECKING:
    from chatcodec.batch._row_formats import row_formats
    from chatcodec.datasets._analyst_view import analyst_tables
    from chatcodec.datasets._arrow_form import arrow_schema, form_of, from_table, to_table
    from chatcodec.datasets._engines import ArrowConverter

_LAZY = {
    "ArrowConverter": "chatcodec.datasets._engines",
    "analyst_tables": "chatcodec.datasets._analyst_view",
    "arrow_schema": "chatcodec.datasets._arrow_form",
    "form_of": "chatcodec.datasets._arrow_form",
    "from_table": "chatcodec.datasets._arrow_form",
    "row_formats": "chatcodec.batch._row_formats",
    "to_table": "chatcodec.datasets._arrow_form",
}


if not TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is an error

    def __getattr__(name: str) -> Any:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module 'chatcodec.datasets' has no attribute {name!r}")
        import importlib

        return getattr(importlib.import_module(module), name)


__all__ = [
    "COLUMNAR_KINDS",
    "ArrowConverter",
    "ColumnarKind",
    "analyst_tables",
    "arrow_schema",
    "columnar_layout",
    "form_of",
    "from_columnar",
    "from_table",
    "layout_document",
    "row_formats",
    "to_columnar",
    "to_table",
    "without_arrow_nulls",
]
