"""Law: the columnar form holds every recorded conversation exactly, through Parquet.

Every recorded request and response, read into canonical data, written as the columnar
form into a Parquet file and read back, is the same canonical data; encoded again, a
recorded request is the recorded request. The columnar form needs ``pyarrow`` (the arrow
extra): without it these laws have no case.
"""

from __future__ import annotations

import importlib.util
import io
from typing import Any

import chatcodec
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.registry import law
from chatcodec.testing._laws.suite import Suite


def _columnar(kind: str) -> Any:
    def cases(suite: Suite) -> list[tuple[ProviderEntry, str]]:
        return suite.recorded(kind) if importlib.util.find_spec("pyarrow") is not None else []

    return cases


def through_parquet(rows: list[dict[str, Any] | None], kind: Any) -> list[dict[str, Any] | None]:
    """``rows`` written as the columnar form into a Parquet file and read back."""
    import importlib

    from chatcodec.datasets import from_table, to_table

    pq: Any = importlib.import_module("pyarrow.parquet")  # untyped, and an optional dependency

    file = io.BytesIO()
    pq.write_table(to_table(rows, kind), file)
    file.seek(0)
    return from_table(pq.read_table(file))


@law(_columnar("request"))
def a_recorded_request_survives_parquet_exactly(provider: ProviderEntry, name: str) -> None:
    payload = provider.load("request", name)
    codec: Any = chatcodec.get_codec(provider.name)
    canonical = codec.read_request(payload)
    assert through_parquet([canonical], "request") == [canonical]
    assert chatcodec.encode_request(provider.name, canonical, on_loss="ignore") == payload


@law(_columnar("response"))
def a_recorded_response_survives_parquet_exactly(provider: ProviderEntry, name: str) -> None:
    codec: Any = chatcodec.get_codec(provider.name)
    canonical = codec.read_response(provider.load("response", name))
    assert through_parquet([canonical], "response") == [canonical]
