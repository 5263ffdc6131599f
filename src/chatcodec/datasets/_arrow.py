"""pyarrow, as the rest of the package sees it.

pyarrow (26.0) ships no type information (no ``py.typed``, no stubs), so under strict
checking every use of it would be Unknown: it is imported here once, as ``Any``, and the
table types are named aliases of ``Any`` that say in a signature what is meant.
Importing this module imports pyarrow; ``pyarrow.parquet`` loads on its first use.
"""

from __future__ import annotations

import importlib
from typing import Any, TypeAlias

pa: Any = importlib.import_module("pyarrow")
"""The ``pyarrow`` module."""

Table: TypeAlias = Any
"""A :class:`pyarrow.Table`."""
RecordBatch: TypeAlias = Any
"""A :class:`pyarrow.RecordBatch`."""
Schema: TypeAlias = Any
"""A :class:`pyarrow.Schema`."""
DataType: TypeAlias = Any
"""A :class:`pyarrow.DataType`."""
Field: TypeAlias = Any
"""A :class:`pyarrow.Field`."""
Array: TypeAlias = Any
"""A :class:`pyarrow.Array`."""


def parquet() -> Any:
    """The ``pyarrow.parquet`` module, imported on first use."""
    return importlib.import_module("pyarrow.parquet")
