"""pyarrow, as the rest of the package sees it.

pyarrow (26.0) ships no type information (no ``py.typed``, no stubs), so under strict
checking every use of it would be Unknown: it is imported here once, as ``Any``, and the
table types are named aliases of ``Any`` that say in a signature what is meant.
Importing this module imports pyarrow (without it: :class:`~chatcodec._extras.MissingExtraError`);
``pyarrow.parquet`` loads on its first use.
"""

from __future__ import annotations

import importlib
from array import array
from collections.abc import Sequence
from typing import Any, TypeAlias

from chatcodec._extras import missing_extra


def _pyarrow() -> Any:
    """pyarrow, or the one-line error naming the extra to install (``_extras.py``)."""
    try:
        return importlib.import_module("pyarrow")
    except ModuleNotFoundError as error:
        if error.name != "pyarrow":
            raise
        raise missing_extra("Parquet (and any Arrow table)", "arrow", "pyarrow") from None


pa: Any = _pyarrow()
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


def string_array(values: Sequence[bytes | None]) -> Array:
    """A string array of ``values`` (UTF-8 text), built from its buffers.

    ``pa.array`` on Python values first asks whether they are pandas objects, which
    imports pandas (1-2 s of a command's start where it is installed, for a column of
    strings that never needed it); the buffers of a string array are the UTF-8 bytes
    joined, their offsets and a validity bit per value.
    """
    encoded = [b"" if value is None else value for value in values]
    offsets = array("i", [0])
    total = 0
    for item in encoded:
        total += len(item)
        offsets.append(total)
    validity = None
    if None in values:
        bits = sum(1 << index for index, value in enumerate(values) if value is not None)
        validity = pa.py_buffer(bits.to_bytes((len(values) + 7) // 8, "little"))
    buffers = [validity, pa.py_buffer(offsets.tobytes()), pa.py_buffer(b"".join(encoded))]
    return pa.Array.from_buffers(pa.string(), len(values), buffers)
