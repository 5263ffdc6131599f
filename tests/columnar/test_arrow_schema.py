"""The columnar form's Arrow schema: published in ``schemas/``, checked for drift, and
loaded only with pyarrow, which ``import chatcodec.datasets`` does not import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import chatcodec
from chatcodec.cli import main
from chatcodec.datasets import COLUMNAR_KINDS, ColumnarKind, arrow_schema

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
SOURCE = Path(chatcodec.__file__).parent.parent


def _arrow_type(document: dict[str, Any]) -> pa.DataType:
    kind = document["type"]
    if kind == "struct":
        return pa.struct([pa.field(field["name"], _arrow_type(field)) for field in document["fields"]])
    if kind == "list":
        return pa.list_(_arrow_type(document["item"]))
    return {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}[kind]


@pytest.mark.parametrize("kind", COLUMNAR_KINDS)
def test_the_committed_arrow_schema_is_the_one_tables_are_written_with(kind: ColumnarKind) -> None:
    committed = json.loads((SCHEMAS / f"{kind}.arrow.json").read_text(encoding="utf-8"))
    fields = [pa.field(field["name"], _arrow_type(field)) for field in committed["fields"]]
    metadata = {key.encode(): value.encode() for key, value in committed["metadata"].items()}
    assert pa.schema(fields, metadata=metadata) == arrow_schema(kind)
    assert arrow_schema(kind).metadata == metadata


def test_schema_check_catches_a_drifted_arrow_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert main(["schema", "--out", str(tmp_path), "--check"]) == 0
    drifted = tmp_path / "request.arrow.json"
    drifted.write_text(drifted.read_text(encoding="utf-8").replace('"int64"', '"float64"', 1), encoding="utf-8")
    assert main(["schema", "--out", str(tmp_path), "--check"]) == 1
    assert f"{drifted} is out of date" in capsys.readouterr().err


def test_importing_the_datasets_package_loads_no_pyarrow() -> None:
    probe = (
        f"import sys; sys.path.insert(0, {str(SOURCE)!r})\n"
        "import chatcodec, chatcodec.datasets\n"
        "chatcodec.datasets.to_columnar([{'messages': [{'role': 'user', 'content': 'hi'}]}])\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('pyarrow', 'datasets', 'ray')))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.strip() == "[]"
