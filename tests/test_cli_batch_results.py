"""Failed batch rows and whole results documents: each failed row is refused quoting the
batch's own reason, and a results document holding every row (Gemini's inlined batch)
is read row by row, as its JSON-lines twin is.

The row shapes are the providers' documented ones: Bedrock's output line with ``error``
in place of ``modelOutput`` ("View the results of a batch inference job",
https://docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-results.html), OpenAI's
output line with ``response: null`` and ``error`` (the batch request output object), and
Gemini's ``InlinedResponse`` (``tests/fixtures/envelopes/README.md``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from google.genai import types as genai_types

from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "envelopes"
INLINE_RESULTS = FIXTURES / "gemini-batch-inline-results.json"

BEDROCK_FAILED = {
    "recordId": "1223213ABCD",
    "modelInput": {"inputText": "Hello world"},
    "error": {"errorCode": 400, "errorMessage": "bad request"},
}
OPENAI_FAILED = {
    "id": "batch_req_9",
    "custom_id": "r9",
    "response": None,
    "error": {"code": "batch_expired", "message": "This request could not be executed before the window expired."},
}
OPENAI_FAILED_STATUS = {
    "id": "batch_req_10",
    "custom_id": "r10",
    "response": {
        "status_code": 400,
        "request_id": "req_1",
        "body": {"error": {"message": "Invalid 'messages': empty array.", "type": "invalid_request_error"}},
    },
    "error": None,
}


def _rows(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, *rows: object) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_a_bedrock_error_row_is_rejected_quoting_its_error_message(tmp_path: Path) -> None:
    source = _write(tmp_path / "out.jsonl", BEDROCK_FAILED)
    rejects = tmp_path / "rejects.jsonl"
    arguments = ["--from", "bedrock-batch-output", "--to", "openai-batch-output", "--rejects", str(rejects)]
    assert main(["convert", str(source), *arguments, "--out", str(tmp_path / "x.jsonl")]) == 1
    error = _rows(rejects)[0]["error"]
    assert "at $.error: the batch reports this row failed: 400: bad request" in error
    assert "[rule: envelope_failed]" in error


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        (OPENAI_FAILED, "at $.error: the batch reports this row failed: batch_expired: This request could not"),
        (OPENAI_FAILED_STATUS, "at $.response.body.error: the batch reports this row failed: invalid_request_error"),
        (BEDROCK_FAILED, "at $.error: the batch reports this row failed: 400: bad request"),
    ],
)
def test_validate_gives_a_failed_rows_own_reason_not_a_body_format(
    tmp_path: Path, row: dict[str, Any], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "row.jsonl", row, row)
    assert main(["validate", str(source)]) == 1
    err = capsys.readouterr().err
    assert reason in err
    assert "looks like" not in err


def test_gemini_inline_results_are_read_row_by_row_with_failed_rows_rejected(tmp_path: Path) -> None:
    document = json.loads(INLINE_RESULTS.read_text(encoding="utf-8"))
    items = document["response"]["inlinedResponses"]["inlinedResponses"]
    for item in items:  # the SDK's own type reads each item
        genai_types.InlinedResponse.model_validate(item)
    out, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
    code = main(
        [
            "convert",
            str(INLINE_RESULTS),
            "--from",
            "gemini-batch-output",
            "--to",
            "openai-batch-output",
            "--out",
            str(out),
            "--rejects",
            str(rejects),
        ]
    )
    assert code == 1
    rows = _rows(out)
    assert [row["custom_id"] for row in rows] == ["request-1", "request-2"]
    answers = [row["response"]["body"]["choices"][0]["message"]["content"] for row in rows]
    assert answers[0].startswith("Photosynthesis turns light")
    assert answers[1].startswith("Tomatoes, mozzarella")
    [reject] = _rows(rejects)
    assert reject["line"] == 3
    assert "3: Request contains an invalid argument." in reject["error"]


def test_gemini_inline_results_convert_as_their_json_lines_twin(tmp_path: Path) -> None:
    twin = FIXTURES / "gemini-batch-inline-output.jsonl"
    outputs = []
    for source in (INLINE_RESULTS, twin):
        out = tmp_path / f"{source.stem}.out.jsonl"
        arguments = ["--from", "gemini-batch-inline-output", "--to", "anthropic-batch-results"]
        main(["convert", str(source), *arguments, "--out", str(out), "--rejects", str(tmp_path / "r.jsonl")])
        outputs.append(_rows(out))
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) == 2


def test_validate_reads_gemini_inline_results_row_by_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(INLINE_RESULTS)]) == 1
    captured = capsys.readouterr()
    assert captured.out.count(": ok, 1 messages") == 2
    assert f"{INLINE_RESULTS}:3: at $.error: the batch reports this row failed: 3: Request contains" in captured.err
