"""Batch conversion: BatchConverter on columnar batches, line batches, the worker window
and the progress bar."""

from __future__ import annotations

import io
import json
import pickle
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import chatcodec
from chatcodec import BatchConverter
from chatcodec.batch._convert import ConvertOptions, LineBatch, convert_lines, convert_payload, iter_line_batches
from chatcodec.batch._parallel import convert_batches, usable_cores
from chatcodec.cli._progress import ProgressBar


def _request(text: str) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 4096, "messages": [{"role": "user", "content": text}]}


def _exact_request(text: str) -> dict[str, Any]:
    """Exact into Anthropic: an OpenAI Chat ``max_tokens`` converted to another provider
    reports its spelling."""
    return {"model": "m", "max_completion_tokens": 4096, "messages": [{"role": "user", "content": text}]}


def _lossy_request(text: str) -> dict[str, Any]:
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "low"}}
    return {
        "model": "m",
        "max_completion_tokens": 4096,  # max_tokens would report its OpenAI spelling too
        "messages": [{"role": "user", "content": [{"type": "text", "text": text}, image]}],
    }


def _to_anthropic(**options: Any) -> BatchConverter:
    return BatchConverter(source="openai-chat", target="anthropic", column="request", **options)


# BatchConverter


def test_every_row_comes_back_converted_or_with_its_error() -> None:
    batch = {
        "id": [1, 2, 3, 4],
        "request": [_exact_request("dict"), json.dumps(_exact_request("text")), '{"model": ', [1, 2]],
    }
    result = _to_anthropic()(batch)
    assert result["id"] == [1, 2, 3, 4]  # other columns pass through: Ray keeps only what is returned
    assert result["request"] == batch["request"]
    converted = result["anthropic_request"]
    assert converted[0]["messages"] == [{"role": "user", "content": "dict"}]  # a dict stays a dict
    assert json.loads(converted[1])["messages"] == [{"role": "user", "content": "text"}]  # JSON text stays text
    assert converted[2:] == [None, None]
    errors = result["chatcodec_error"]
    assert errors[:2] == [None, None]
    assert errors[2].startswith("at $: not valid JSON")
    assert errors[3] == "at $: the openai-chat request must be a JSON object, got list"
    assert result["chatcodec_losses"] == [[], [], [], []]


def test_validation_errors_name_the_json_path() -> None:
    bad = {
        "model": "m",
        "max_tokens": 4096,
        "messages": [{"role": "user", "content": "hi"}, {"role": "wizard", "content": "hi"}],
    }
    (error,) = _to_anthropic()({"request": [bad]})["chatcodec_error"]
    assert "at $.messages[1]" in error


def test_losses_are_listed_and_strict_turns_them_into_errors() -> None:
    batch = {"request": [_lossy_request("a"), _exact_request("b")]}
    loss = "$.messages[0].content[1].detail: image detail 'low' (Anthropic has no resolution hint)"
    lenient = _to_anthropic()(batch)
    assert lenient["chatcodec_losses"] == [[loss], []]
    assert lenient["chatcodec_error"] == [None, None]
    strict = _to_anthropic(strict=True)(batch)
    assert strict["anthropic_request"][0] is None
    assert strict["anthropic_request"][1] is not None
    assert strict["chatcodec_error"][0] == f"not converted under strict: 1 loss(es):\n  {loss}"
    assert strict["chatcodec_losses"] == [[loss], []]


def test_numpy_object_arrays_as_ray_gives_them() -> None:
    requests = np.array([_request("a"), json.dumps(_request("b")), None], dtype=object)
    nested = {
        "model": "m",
        "max_tokens": 4096,
        "messages": np.array([{"role": "user", "content": np.str_("c")}], dtype=object),
    }
    batch = {"id": np.arange(4), "request": np.concatenate([requests, np.array([nested], dtype=object)])}
    result = _to_anthropic()(batch)
    assert result["id"] is batch["id"]
    assert result["chatcodec_error"][:2] == [None, None]
    assert "got NoneType" in result["chatcodec_error"][2]
    assert result["chatcodec_error"][3] is None
    assert result["anthropic_request"][3]["messages"] == [{"role": "user", "content": "c"}]


def test_output_columns_and_forms_can_be_chosen() -> None:
    converter = _to_anthropic(
        output_column="out", error_column="why", losses_column=None, output_format="json", kind="request"
    )
    result = converter({"request": [_request("a")]})
    assert set(result) == {"request", "out", "why"}
    assert json.loads(result["out"][0])["messages"][0]["content"] == "a"
    as_dicts = _to_anthropic(output_format="dict")({"request": [json.dumps(_request("a")).encode()]})
    assert as_dicts["anthropic_request"][0]["model"] == "m"


def test_responses_convert_too() -> None:
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
    }
    converter = BatchConverter(source="openai-chat", target="anthropic", kind="response", column="response")
    result = converter({"response": [response]})
    assert result["chatcodec_error"] == [None]
    assert result["anthropic_response"][0]["content"] == [{"type": "text", "text": "hi"}]


def test_an_empty_batch_gives_empty_columns() -> None:
    assert _to_anthropic()({"request": []}) == {
        "request": [],
        "anthropic_request": [],
        "chatcodec_error": [],
        "chatcodec_losses": [],
    }


def test_the_converter_pickles_for_worker_processes() -> None:
    converter = _to_anthropic(strict=True)
    copy = pickle.loads(pickle.dumps(converter))
    assert repr(copy) == repr(converter)
    assert copy({"request": [_request("a")]}) == converter({"request": [_request("a")]})


def _without_codec(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The registry without ``name``'s codec: every known format has one now, so the
    "known format, no codec" path is tested on a registry that lacks one."""
    from chatcodec import _registry as registry

    # the tables swapped whole (deleting a key and putting it back would move it last in
    # the built-in order detection prefers), and the generation bumped for what is derived
    monkeypatch.setattr(registry, "_BUILT_IN", {k: v for k, v in registry._BUILT_IN.items() if k != name})
    monkeypatch.setattr(registry, "_loaded", {k: v for k, v in registry._loaded.items() if k != name})
    monkeypatch.setattr(registry, "_generation", [registry.generation() + 1])


def test_mistakes_in_the_set_up_fail_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    _without_codec(monkeypatch, "openai-responses")
    with pytest.raises(chatcodec.UnknownProviderError):
        BatchConverter(source="openai", target="anthropic", column="request")
    with pytest.raises(chatcodec.CodecNotAvailableError):
        BatchConverter(source="openai-chat", target="openai-responses", column="request")
    with pytest.raises(ValueError, match="must differ"):
        _to_anthropic(output_column="chatcodec_error")
    with pytest.raises(ValueError, match="has no column 'request'; it has \\['messages'\\]"):
        _to_anthropic()({"messages": []})


# One payload, one batch of lines


def test_convert_payload_reports_a_bug_instead_of_raising(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> dict[str, Any]:
        raise KeyError("role")

    monkeypatch.setattr("chatcodec.batch._convert.convert_request", broken)
    outcome = convert_payload(_request("a"), ConvertOptions("openai-chat", "anthropic"))
    assert outcome.converted is None
    assert outcome.error == "internal error, please report it: KeyError: 'role'"


def test_lines_are_batched_by_count_and_by_size() -> None:
    lines = [b'{"a": 1}\n', b"\n", b'{"b": 2}\r\n', b"x" * 50 + b"\n", b'{"c": 3}']
    by_count = list(iter_line_batches(iter(lines), max_lines=2, max_bytes=1_000))
    assert [[line.number for line in batch.lines] for batch in by_count] == [[1, 3], [4, 5]]
    assert [line.text for line in by_count[0].lines] == [b'{"a": 1}', b'{"b": 2}']
    assert sum(batch.size for batch in by_count) == sum(len(line) for line in lines)
    by_size = list(iter_line_batches(iter(lines), max_lines=100, max_bytes=40))
    assert [[line.number for line in batch.lines] for batch in by_size] == [[1, 3], [4], [5]]
    assert list(iter_line_batches(iter([]))) == []


def test_unpaired_surrogates_in_the_input_are_rejected_at_their_path() -> None:
    # One rule at every JSON reader: a lone surrogate escape is refused
    # where it is, as pydantic-core's own parser refuses it, never half-kept.
    line = json.dumps(_request("half \ud800 a pair")).encode()
    (batch,) = iter_line_batches([line])
    result = convert_lines(batch, ConvertOptions("canonical", "canonical"))
    assert result.output == b""
    (reject,) = result.rejects
    assert reject.error.startswith("at $.messages[0].content: a string holds a lone UTF-16 surrogate")


# Workers


def _numbered_batches(count: int, produced: list[int]) -> Iterator[LineBatch]:
    for index in range(count):
        produced.append(index)
        text = json.dumps(_request(str(index))).encode()
        yield LineBatch(next(iter(iter_line_batches([text]))).lines, len(text))


def test_workers_keep_the_order_and_read_at_most_a_window_ahead() -> None:
    produced: list[int] = []
    options = ConvertOptions("openai-chat", "anthropic")
    received: list[str] = []
    for result in convert_batches(_numbered_batches(40, produced), options, workers=2, window=3):
        received.append(json.loads(result.output)["messages"][0]["content"])
        assert len(produced) - len(received) <= 3
    assert received == [str(index) for index in range(40)]


def test_workers_start_from_a_fresh_interpreter_when_another_thread_runs() -> None:
    # forking a process with threads could deadlock a child: the forkserver starts them
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        produced: list[int] = []
        options = ConvertOptions("canonical", "canonical")
        results = list(convert_batches(_numbered_batches(6, produced), options, workers=2))
    finally:
        stop.set()
        other.join()
    assert [json.loads(result.output)["messages"][0]["content"] for result in results] == [str(i) for i in range(6)]


def test_closing_early_stops_reading_and_the_workers() -> None:
    produced: list[int] = []
    results = convert_batches(_numbered_batches(1_000, produced), ConvertOptions("canonical", "canonical"), 2, 4)
    assert next(results).converted == 1
    results.close()
    assert len(produced) <= 5


def test_one_batch_needs_no_pool_and_auto_counts_cores() -> None:
    produced: list[int] = []
    (result,) = convert_batches(_numbered_batches(1, produced), ConvertOptions("canonical", "canonical"), workers=8)
    assert result.converted == 1
    assert usable_cores() >= 1


# Progress bar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_redraws_at_most_ten_times_a_second() -> None:
    now = [0.0]
    screen = _Terminal()
    bar = ProgressBar(screen, 1_000, clock=lambda: now[0])
    for _ in range(100):
        now[0] += 0.001
        bar.advance(1, 5)
    assert screen.getvalue().count("\r") == 1  # the first update only: 0.1 s have not passed
    now[0] += 0.2
    bar.advance(100, 500)
    assert screen.getvalue().endswith("\r\x1b[Kconverting: 200 lines, 667 lines/s, 100% of 1.0 kB")
    bar.print("a message")
    bar.close()
    assert screen.getvalue().endswith("\r\x1b[Ka message\n")


def test_no_bar_unless_a_terminal() -> None:
    log = io.StringIO()
    bar = ProgressBar(log, None)
    bar.advance(10, 10)
    bar.print("only this")
    bar.close()
    assert log.getvalue() == "only this\n"
    assert bar.render(1.0).startswith("converting: 10 lines")
    assert "%" not in bar.render(1.0)


def test_encoder_options_reach_the_target_encoder() -> None:
    """Anthropic requires ``max_tokens``; ``options`` set it for every row."""
    converter = BatchConverter(source="openai-chat", target="anthropic", column="request", options={"max_tokens": 64})
    result = converter({"request": [{"model": "m", "messages": [{"role": "user", "content": "hi"}]}]})
    assert result["anthropic_request"][0]["max_tokens"] == 64
    assert result["chatcodec_losses"] == [[]]


# Every name --from/--to takes (issue 63)

TRAINING = Path(__file__).parent / "fixtures" / "training"
ENVELOPES = Path(__file__).parent / "fixtures" / "envelopes"


def test_every_row_format_the_command_line_takes_is_listed_with_what_it_is() -> None:
    from chatcodec.cli._presets import row_format
    from chatcodec.datasets import row_formats

    names = row_formats()
    assert (names["openai-chat"], names["canonical"]) == ("format", "format")
    assert (names["anthropic-batch-results"], names["sharegpt"], names["alpaca"]) == ("envelope", "dialect", "dialect")
    assert [row_format(name) for name in names] == list(names)  # --from/--to take each


def test_a_dialect_row_converts_in_a_column_with_its_configuration() -> None:
    rows = (TRAINING / "alpaca-renamed.jsonl").read_text(encoding="utf-8").splitlines()
    config = json.loads((TRAINING / "alpaca-info.json").read_text(encoding="utf-8"))
    converter = BatchConverter(source="alpaca", target="openai-chat", column="row", dialect_config=config)
    result = converter({"row": rows})
    assert result["chatcodec_error"] == [None] * len(rows)
    first = json.loads(result["openai-chat_request"][0])
    assert first["messages"][0] == {"role": "system", "content": "You are a translator."}
    assert first["messages"][-1] == {"role": "assistant", "content": "Guten Morgen"}
    unmapped = BatchConverter(source="alpaca", target="openai-chat", column="row")({"row": rows})
    assert all(error is not None for error in unmapped["chatcodec_error"])  # the keys are the configuration's


def test_an_envelope_name_is_the_rows_envelope_and_says_their_kind() -> None:
    rows = (ENVELOPES / "anthropic-batch-results.jsonl").read_text(encoding="utf-8").splitlines()
    converter = BatchConverter(source="anthropic-batch-results", target="openai-batch-output", column="row")
    assert (converter.options.kind, converter.options.envelope) == ("response", "anthropic-batch-results")
    assert converter.output_column == "openai-batch-output_response"
    result = converter({"row": rows})
    pairs = zip(rows, result[converter.output_column], result["chatcodec_error"], strict=True)
    kept = [
        (json.loads(row)["custom_id"], json.loads(written)["custom_id"]) for row, written, error in pairs if not error
    ]
    assert kept
    assert all(given == written for given, written in kept)


@pytest.mark.parametrize(
    ("source", "target", "kind", "said"),
    [
        ("sharegpt", "openai-evals", None, "openai-evals is read, not written"),
        ("sharegpt", "openai-chat", "response", "holds conversations: kind request"),
        (
            "anthropic-batch-results",
            "openai-chat",
            "request",
            r"the row kinds disagree: kind \(requests\), source anthropic-batch-results \(responses\)",
        ),
        ("sharegpt", "openai-batch", None, "is a row of its own, not a body in an envelope"),
    ],
)
def test_names_that_do_not_go_together_fail_at_once(source: str, target: str, kind: Any, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        BatchConverter(source=source, target=target, column="row", kind=kind)


def _nested(depth: int) -> list[Any]:
    deep: list[Any] = []
    for _ in range(depth):
        deep = [deep]
    return deep


def test_a_row_nested_past_the_recursion_limit_is_that_rows_error_not_the_batchs() -> None:
    """Issue 108: unwrapping a 1,500-deep row raised RecursionError out of ``BatchConverter``."""
    deep = {"messages": [{"role": "user", "content": "hi", "x": _nested(1500)}]}
    plain = {"messages": [{"role": "user", "content": "hi"}]}
    result = BatchConverter(source="openai-chat", target="anthropic", column="request")(
        {"request": np.array([deep, plain], dtype=object)}
    )
    error, none = result["chatcodec_error"]
    assert error.startswith("at $.messages[0].x[0][0]")
    assert "[rule: recursion_depth_exceeded]" in error
    assert none is None


def test_a_render_converter_row_nested_past_the_recursion_limit_is_that_rows_error() -> None:
    from training.qwen3_tokenizer import qwen3_encoding

    rows = [
        [{"role": "user", "content": "hi", "x": _nested(1500)}, {"role": "assistant", "content": "yo"}],
        "[" * 1500 + "]" * 1500,
        json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]),
    ]
    result = chatcodec.RenderConverter(template="qwen3", tokenizer=qwen3_encoding())({"messages": rows})
    errors = result["chatcodec_error"]
    assert "at $[0].x" in errors[0]
    assert errors[1] == "at $: JSON nested too deeply to read"
    assert errors[2] is None
