"""Law: the columnar form holds every canonical conversation exactly, through Parquet.

Every recorded request and response, read into canonical data, and every generated
request and response, written as the columnar form into a Parquet file and read back, is
the same canonical data; encoded again, a recorded payload is the recorded payload.
"""

from __future__ import annotations

import io
from typing import Any

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings

import chatcodec
import chatcodec.testing as strategies
from chatcodec._registry import get_codec
from chatcodec.datasets import ColumnarKind, from_table, to_table
from conformance.entry import ProviderEntry
from conformance.providers import case_id, fixture_cases


def _through_parquet(rows: list[dict[str, Any] | None], kind: ColumnarKind) -> list[dict[str, Any] | None]:
    file = io.BytesIO()
    pq.write_table(to_table(rows, kind), file)
    file.seek(0)
    return from_table(pq.read_table(file))


@pytest.mark.parametrize(("provider", "name"), fixture_cases("request"), ids=case_id)
def test_a_recorded_request_survives_parquet_exactly(provider: ProviderEntry, name: str) -> None:
    payload = provider.load("request", name)
    codec = get_codec(provider.name)
    canonical = codec.read_request(payload)
    assert _through_parquet([canonical], "request") == [canonical]
    assert chatcodec.encode_request(provider.name, canonical, on_loss="ignore") == payload


@pytest.mark.parametrize(("provider", "name"), fixture_cases("response"), ids=case_id)
def test_a_recorded_response_survives_parquet_exactly(provider: ProviderEntry, name: str) -> None:
    payload = provider.load("response", name)
    canonical = get_codec(provider.name).read_response(payload)
    assert _through_parquet([canonical], "response") == [canonical]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request=strategies.chat_requests(), response=strategies.chat_responses())
def test_a_generated_conversation_survives_parquet_exactly(
    request: chatcodec.ChatRequest, response: chatcodec.ChatResponse
) -> None:
    """A row of nulls between two (the placeholder of a rejected row) stays one."""
    request_data, response_data = request.model_dump(), response.model_dump()
    assert _through_parquet([request_data, None, request_data], "request") == [request_data, None, request_data]
    assert _through_parquet([response_data], "response") == [response_data]
