"""The analyst's view (``chatcodec.datasets.analyst_tables``): the docs' DuckDB and Polars
queries, run over recorded exchanges written as Parquet, with the answers they must give."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest

from chatcodec._registry import get_codec
from chatcodec.datasets import analyst_tables

FIXTURES = Path(__file__).parent.parent / "fixtures"

EXCHANGES = [
    ("openai-chat", "tools_strict_system", "parallel_tool_calls"),
    ("anthropic", None, "thinking_text_tool_use"),
    ("openai-chat", "system_and_user_text", "text_stop"),
]
"""(format, request fixture, response fixture): recorded exchanges with tool calls, thinking and usage."""


def _canonical(provider: str, kind: str, name: str | None) -> dict[str, Any] | None:
    if name is None:
        return None
    payload = json.loads((FIXTURES / provider / kind / f"{name}.json").read_text(encoding="utf-8"))
    codec = get_codec(provider)
    return codec.read_request(payload) if kind == "request" else codec.read_response(payload)


@pytest.fixture
def view(tmp_path: Path) -> Path:
    """The three tables as Parquet files in a folder, with the dataset's ``id`` column."""
    requests = [_canonical(provider, "request", request) for provider, request, _ in EXCHANGES]
    responses = [_canonical(provider, "response", response) for provider, _, response in EXCHANGES]
    tables = analyst_tables(requests, responses, columns={"id": ["a", "b", "c"]})
    for name, table in tables.items():
        pq.write_table(table, tmp_path / f"{name}.parquet", compression="zstd")
    return tmp_path


def _expected_tool_users() -> list[str]:
    """The ids of the exchanges whose response calls a tool, read from the fixtures."""
    found = []
    for (provider, _, response), row_id in zip(EXCHANGES, "abc", strict=True):
        answer = _canonical(provider, "response", response) or {}
        parts = [
            part for choice in answer["choices"] for part in choice["message"]["content"] if isinstance(part, dict)
        ]
        if any(part["type"] == "tool_use" for part in parts):
            found.append(row_id)
    return found


def test_duckdb_finds_the_exchanges_that_used_a_tool(view: Path) -> None:
    (tool,) = duckdb.sql(f"SELECT tool_name FROM '{view}/parts.parquet' WHERE type = 'tool_use' LIMIT 1").fetchall()
    query = f"SELECT id FROM '{view}/exchanges.parquet' WHERE list_contains(tools_used, $tool) ORDER BY id"
    ids = [row[0] for row in duckdb.execute(query, {"tool": tool[0]}).fetchall()]
    assert ids
    assert set(ids) <= set(_expected_tool_users())


def test_duckdb_counts_turns_and_finds_thinking(view: Path) -> None:
    rows = duckdb.sql(
        f"SELECT id, turns, messages, has_thinking FROM '{view}/exchanges.parquet' ORDER BY id"
    ).fetchall()
    requests = [_canonical(provider, "request", request) for provider, request, _ in EXCHANGES]
    expected_turns = [
        sum(message["role"] == "user" for message in request["messages"]) if request else 0 for request in requests
    ]
    assert [row[1] for row in rows] == expected_turns
    assert [row[3] for row in rows] == [False, True, False]  # only the Anthropic answer thinks
    thinking = duckdb.sql(
        f"SELECT DISTINCT id FROM '{view}/parts.parquet' WHERE type = 'thinking' AND side = 'response'"
    ).fetchall()
    assert thinking == [("b",)]


def test_duckdb_sums_tokens_per_model(view: Path) -> None:
    query = f"""
        SELECT response_model, sum(input_tokens) AS input, sum(output_tokens) AS output
        FROM '{view}/exchanges.parquet' GROUP BY response_model ORDER BY response_model
    """
    totals = {
        model: (input_tokens, output_tokens) for model, input_tokens, output_tokens in duckdb.sql(query).fetchall()
    }
    expected: dict[str, tuple[int, int]] = {}
    for provider, _, response in EXCHANGES:
        answer = _canonical(provider, "response", response) or {}
        before = expected.get(answer["model"], (0, 0))
        usage = answer["usage"]
        expected[answer["model"]] = (before[0] + usage["input_tokens"], before[1] + usage["output_tokens"])
    assert totals == expected


def test_polars_gives_the_same_answers(view: Path) -> None:
    exchanges = pl.read_parquet(view / "exchanges.parquet")
    tool = pl.read_parquet(view / "parts.parquet").filter(pl.col("type") == "tool_use")["tool_name"][0]
    used = exchanges.filter(pl.col("tools_used").list.contains(tool))["id"].to_list()
    assert used
    assert set(used) <= set(_expected_tool_users())
    assert exchanges.filter(pl.col("has_thinking"))["id"].to_list() == ["b"]
    per_model = exchanges.group_by("response_model").agg(pl.col("output_tokens").sum()).sort("response_model")
    duck = duckdb.sql(
        f"SELECT response_model, sum(output_tokens) FROM '{view}/exchanges.parquet' GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert [tuple(row) for row in per_model.iter_rows()] == duck


def test_messages_and_parts_join_back_to_their_exchange(view: Path) -> None:
    query = f"""
        SELECT e.id, count(*) FROM '{view}/messages.parquet' m JOIN '{view}/exchanges.parquet' e USING (exchange)
        WHERE m.side = 'request' GROUP BY e.id ORDER BY e.id
    """
    counts = dict(duckdb.sql(query).fetchall())
    messages = dict(duckdb.sql(f"SELECT id, messages FROM '{view}/exchanges.parquet'").fetchall())
    assert {key: value for key, value in messages.items() if value} == counts


def test_the_exchange_keeps_its_canonical_request_and_response_exactly(view: Path) -> None:
    row = pl.read_parquet(view / "exchanges.parquet").filter(pl.col("id") == "b").row(0, named=True)
    assert row["request"] is None
    assert json.loads(row["response"]) == _canonical("anthropic", "response", "thinking_text_tool_use")


def test_duckdb_reads_the_parquet_the_command_line_writes(tmp_path: Path) -> None:
    """The typed id column filters as a number; the payload column is JSON text DuckDB reads."""
    from chatcodec.cli import main

    payloads = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((FIXTURES / "openai-chat" / "request").glob("*.json"))
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"id": index, **row}) + "\n" for index, row in enumerate(payloads)))
    out = tmp_path / "anthropic.parquet"
    command = ["convert", str(source), "--from", "openai-chat", "--to", "anthropic", "--out", str(out), "--quiet"]
    assert main([*command, "--option", "max_tokens=64", "--keep-lines", "--id-field", "id"]) == 0
    query = f"""
        SELECT id, json_extract_string(anthropic_request, '$.model') FROM '{out}' WHERE id >= 2 ORDER BY id
    """
    rows = duckdb.sql(query).fetchall()
    assert rows == [(index, payloads[index].get("model")) for index in range(2, len(payloads))]


def test_the_command_line_writes_the_view_of_requests_and_of_responses_which_join_on_the_id(tmp_path: Path) -> None:
    from chatcodec.cli import main

    def wire(kind: str, name: str) -> dict[str, Any]:
        return json.loads((FIXTURES / "openai-chat" / kind / f"{name}.json").read_text(encoding="utf-8"))

    requests = [wire("request", "tools_strict_system"), wire("request", "system_and_user_text")]
    responses = [wire("response", "parallel_tool_calls"), wire("response", "text_stop")]
    for kind, payloads in (("request", requests), ("response", responses)):
        source = tmp_path / f"{kind}s.jsonl"
        source.write_text("".join(json.dumps({"row": f"x{index}", **row}) + "\n" for index, row in enumerate(payloads)))
        command = ["convert", str(source), "--from", "openai-chat", "--to", "canonical", "--kind", kind, "--quiet"]
        options = ["--layout", "analyst", "--out", str(tmp_path / kind), "--keep-lines", "--id-field", "row"]
        assert main([*command, *options]) == 0
    query = f"""
        SELECT q.row, q.turns, r.response_model, r.output_tokens, r.tools_used
        FROM '{tmp_path}/request/exchanges.parquet' q JOIN '{tmp_path}/response/exchanges.parquet' r USING (row)
        ORDER BY q.row
    """
    rows = duckdb.sql(query).fetchall()
    canonical = [_canonical("openai-chat", "response", name) or {} for name in ("parallel_tool_calls", "text_stop")]
    assert [(row[0], row[2], row[3]) for row in rows] == [
        (f"x{index}", answer["model"], answer["usage"]["output_tokens"]) for index, answer in enumerate(canonical)
    ]
    assert rows[0][4]  # the tool calls of the first answer
    assert rows[1][4] == []


def test_the_analyst_layout_needs_canonical_output_and_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chatcodec.cli import main

    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"messages": [{"role": "user", "content": "hi"}]}) + "\n")
    for target, out in (("anthropic", ["--out", str(tmp_path / "v")]), ("canonical", [])):
        with pytest.raises(SystemExit) as raised:
            main(["convert", str(source), "--from", "openai-chat", "--to", target, "--layout", "analyst", *out])
        assert raised.value.code == 64
    assert "--layout analyst needs --out FOLDER" in capsys.readouterr().err


def test_parts_say_which_tool_results_failed(tmp_path: Path) -> None:
    """Anthropic's ``tool_result.is_error`` (https://docs.claude.com/en/docs/agents-and-tools/tool-use/handle-tool-calls):
    which calls failed is one SQL filter."""
    call = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    second = {**call, "id": "toolu_2", "input": {"city": "Oslo"}}
    results = [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "timeout", "is_error": True},
        {"type": "tool_result", "tool_use_id": "toolu_2", "content": "12 C"},
    ]
    wire = {
        "model": "claude-x",
        "max_tokens": 64,
        "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": [call, second]},
            {"role": "user", "content": results},
        ],
    }
    tables = analyst_tables([get_codec("anthropic").read_request(wire)])
    pq.write_table(tables["parts"], tmp_path / "parts.parquet")
    failed = duckdb.sql(f"SELECT tool_use_id FROM '{tmp_path}/parts.parquet' WHERE is_error").fetchall()
    assert failed == [("toolu_1",)]
    flags = duckdb.sql(f"SELECT type, is_error FROM '{tmp_path}/parts.parquet' ORDER BY message, part").fetchall()
    assert flags == [
        ("text", None),
        ("tool_use", None),
        ("tool_use", None),
        ("tool_result", True),
        ("tool_result", False),
    ]


def test_a_tool_result_names_the_tool_of_the_call_it_answers(tmp_path: Path) -> None:
    """Anthropic's and OpenAI's results name no tool: the error rate per tool needed a self-join."""
    calls = [
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
        {"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": {"city": "Oslo"}},
        {"type": "tool_use", "id": "toolu_3", "name": "get_weather", "input": {"city": "Oslo"}},
    ]
    results = [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "timeout", "is_error": True},
        {"type": "tool_result", "tool_use_id": "toolu_2", "content": "12:00"},
        {"type": "tool_result", "tool_use_id": "toolu_3", "content": "12 C"},
    ]
    wire = {
        "model": "claude-x",
        "max_tokens": 64,
        "messages": [
            {"role": "user", "content": "weather and time?"},
            {"role": "assistant", "content": calls},
            {"role": "user", "content": results},
        ],
    }
    tables = analyst_tables([get_codec("anthropic").read_request(wire)])
    pq.write_table(tables["parts"], tmp_path / "parts.parquet")
    rates = duckdb.sql(
        f"SELECT tool_name, avg(is_error::INT) FROM '{tmp_path}/parts.parquet' WHERE type = 'tool_result' "
        "GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert rates == [("get_time", 0.0), ("get_weather", 0.5)]


def test_input_tokens_says_it_counts_cache_reads(tmp_path: Path) -> None:
    """Anthropic's ``input_tokens`` leaves cache reads out; the canonical count (OpenAI's meaning) holds them."""
    wire = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [{"type": "text", "text": "Hi."}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "cache_read_input_tokens": 100, "output_tokens": 3},
    }
    tables = analyst_tables([None], [get_codec("anthropic").read_response(wire)])
    pq.write_table(tables["exchanges"], tmp_path / "exchanges.parquet")
    counted = duckdb.sql(f"SELECT input_tokens, cache_read_tokens FROM '{tmp_path}/exchanges.parquet'").fetchall()
    assert counted == [(110, 100)]
    field = pq.read_schema(tmp_path / "exchanges.parquet").field("input_tokens")
    assert b"cache reads and writes included" in (field.metadata or {})[b"description"]


def test_every_choice_of_an_n_greater_than_one_answer_is_a_row_with_its_finish_reason(tmp_path: Path) -> None:
    """OpenAI Chat's ``n`` asks for several choices, each with its own ``finish_reason``
    (https://platform.openai.com/docs/api-reference/chat/object)."""
    wire = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "Short."}, "finish_reason": "stop"},
            {
                "index": 1,
                "message": {"role": "assistant", "content": "A longer answer that"},
                "finish_reason": "length",
            },
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 7, "total_tokens": 10},
    }
    tables = analyst_tables([None], [get_codec("openai-chat").read_response(wire)])
    for name, table in tables.items():
        pq.write_table(table, tmp_path / f"{name}.parquet")
    rows = duckdb.sql(
        f"SELECT choice, finish_reason, text FROM '{tmp_path}/messages.parquet' WHERE side = 'response' ORDER BY choice"
    ).fetchall()
    assert rows == [(0, "stop", "Short."), (1, "length", "A longer answer that")]
    assert duckdb.sql(f"SELECT choices, finish_reason FROM '{tmp_path}/exchanges.parquet'").fetchall() == [(2, "stop")]
