"""Batch envelopes in ``chatcodec convert`` and ``validate``: every batch file layout is read
and written with one command, and a row in an envelope given as a bare body is refused.

The example files (``tests/fixtures/envelopes/``, provenance in its README) follow each
provider's batch documentation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from anthropic.types.messages import MessageBatchIndividualResponse, batch_create_params

import chatcodec
from chatcodec._registry import get_codec
from chatcodec.batch import _envelopes as envelopes
from chatcodec.batch._convert import ConvertOptions, convert_payload
from chatcodec.cli import main
from sdk_oracle import assert_matches

FIXTURES = Path(__file__).parent / "fixtures" / "envelopes"
REQUEST_ENVELOPES = [envelope.name for envelope in envelopes.ENVELOPES if envelope.kind == "request"]
RESPONSE_ENVELOPES = [envelope.name for envelope in envelopes.ENVELOPES if envelope.kind == "response"]


def _rows(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _convert(tmp_path: Path, source: Path, *arguments: str) -> tuple[int, Path]:
    out = tmp_path / f"out{len(list(tmp_path.glob('out*.jsonl')))}.jsonl"  # each call its own output
    code = main(["convert", str(source), *arguments, "--out", str(out), "--rejects", str(tmp_path / "rejects.jsonl")])
    return code, out


def test_every_envelope_has_a_documented_example_file() -> None:
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    for envelope in envelopes.ENVELOPES:
        assert (FIXTURES / f"{envelope.name}.jsonl").is_file()
        assert f"`{envelope.name}.jsonl`" in readme


@pytest.mark.parametrize("name", envelopes.ENVELOPE_NAMES)
def test_an_envelope_file_round_trips_through_convert_in_one_command(tmp_path: Path, name: str) -> None:
    source = FIXTURES / f"{name}.jsonl"
    code, out = _convert(tmp_path, source, "--from", name, "--to", name)
    assert code == 0
    assert _rows(out) == _rows(source)


@pytest.mark.parametrize("name", envelopes.ENVELOPE_NAMES)
def test_validate_reads_each_envelope_named_or_not(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    source = FIXTURES / f"{name}.jsonl"
    assert main(["validate", str(source), "--format", name]) == 0
    named = capsys.readouterr().out
    assert main(["validate", str(source)]) == 0
    assert capsys.readouterr().out == named
    assert "ok, 0 messages" not in named


def test_an_openai_batch_file_becomes_an_anthropic_batch_file_with_the_model_given(tmp_path: Path) -> None:
    code, out = _convert(
        tmp_path,
        FIXTURES / "openai-batch.jsonl",
        "--from",
        "openai-batch",
        "--to",
        "anthropic-batch",
        "--model",
        "claude-x",
    )
    assert code == 0
    rows = _rows(out)
    assert [row["custom_id"] for row in rows] == ["request-1", "request-2", "request-3"]
    assert {row["params"]["model"] for row in rows} == {"claude-x"}  # not gpt-4o left inside
    assert rows[0]["params"]["system"] == "You are a helpful assistant."
    for row in rows:
        assert_matches(row, batch_create_params.Request)


def test_anthropic_results_become_openai_batch_output(tmp_path: Path) -> None:
    source = FIXTURES / "anthropic-batch-results.jsonl"
    code, out = _convert(tmp_path, source, "--from", "anthropic-batch-results", "--to", "openai-batch-output")
    assert code == 0
    row = _rows(out)[0]
    assert list(row) == ["custom_id", "response", "error"]
    assert row["response"]["status_code"] == 200
    assert row["response"]["body"]["choices"][0]["message"]["content"].startswith("Hello again!")
    code, back = _convert(tmp_path, out, "--from", "openai-batch-output", "--to", "anthropic-batch-results")
    assert code == 0
    for converted in _rows(back):
        MessageBatchIndividualResponse.model_validate(converted)


@pytest.mark.parametrize("target", REQUEST_ENVELOPES)
@pytest.mark.parametrize("source", REQUEST_ENVELOPES)
def test_every_request_envelope_pair_converts_and_keeps_ids(tmp_path: Path, source: str, target: str) -> None:
    options = ConvertOptions(
        "openai-chat",
        "openai-chat",
        envelope=source,
        out_envelope=target,
        model="m",
        encoder_options=(("max_tokens", 64),),
    )
    _every_row_converts(source, target, options)


@pytest.mark.parametrize("target", RESPONSE_ENVELOPES)
@pytest.mark.parametrize("source", RESPONSE_ENVELOPES)
def test_every_response_envelope_pair_converts_and_keeps_ids(tmp_path: Path, source: str, target: str) -> None:
    options = ConvertOptions("openai-chat", "openai-chat", "response", envelope=source, out_envelope=target)
    _every_row_converts(source, target, options)


def _every_row_converts(source: str, target: str, options: ConvertOptions) -> None:
    """Each row is written in the target envelope, which reads it back; its id is kept
    where both envelopes have one, and a target that needs one (a service requires it, or
    an answer written anew says which request it answers) refuses a row without."""
    target_envelope, _ = envelopes.envelope_named(target)
    source_envelope, _ = envelopes.envelope_named(source)
    for row in _rows(FIXTURES / f"{source}.jsonl"):
        options = _with_target_format(options, target_envelope)
        outcome = convert_payload(row, options)
        source_id = envelopes.open_row(row, source_envelope).id
        if source_id is None and envelopes.needs_id(target_envelope, new_row=source != target):
            assert outcome.converted is None
            assert "[rule: envelope_id]" in (outcome.error or "")
            continue
        assert outcome.converted is not None, outcome.error
        opened = envelopes.open_row(outcome.converted, target_envelope)
        if target_envelope.pointer_of(envelopes.ID_SLOT) is not None:
            assert opened.id == source_id


def _with_target_format(options: ConvertOptions, target: envelopes.Envelope) -> ConvertOptions:
    """``options`` for the target envelope's body format, with the encoder options that
    format takes (``max_tokens`` is Anthropic's; another format would refuse the name)."""
    from dataclasses import replace

    body_format = target.formats[0]
    taken = get_codec(body_format).options
    return replace(
        options, target=body_format, encoder_options=tuple(item for item in options.encoder_options if item[0] in taken)
    )


def test_a_failed_batch_row_is_rejected_not_converted_to_nothing(tmp_path: Path) -> None:
    source = tmp_path / "output.jsonl"
    failed = {
        "id": "batch_req_9",
        "custom_id": "r9",
        "response": None,
        "error": {"code": "batch_expired", "message": "This request could not be executed before the window expired."},
    }
    lines = [json.dumps(failed), (FIXTURES / "openai-batch-output.jsonl").read_text(encoding="utf-8").splitlines()[0]]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = _convert(tmp_path, source, "--from", "openai-batch-output", "--to", "anthropic-batch-results")
    assert code == 1
    assert len(_rows(out)) == 1
    reject = _rows(tmp_path / "rejects.jsonl")[0]
    assert reject["line"] == 1
    assert "at $.error:" in reject["error"]
    assert "batch_expired: This request could not be executed before the window expired." in reject["error"]
    assert "[rule: envelope_failed]" in reject["error"]


def test_an_errored_anthropic_result_is_rejected(tmp_path: Path) -> None:
    errored = {
        "custom_id": "c",
        "result": {
            "type": "errored",
            "error": {
                "type": "error",
                "error": {"type": "invalid_request_error", "message": "max_tokens: Field required"},
            },
        },
    }
    source = tmp_path / "results.jsonl"
    source.write_text(json.dumps(errored) + "\n", encoding="utf-8")
    code, _ = _convert(tmp_path, source, "--from", "anthropic-batch-results", "--to", "gemini-batch-output")
    assert code == 1
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert (
        "at $.result.error: the batch reports this row failed: invalid_request_error: max_tokens: Field required"
        in error
    )


@pytest.mark.parametrize(
    ("name", "body_format", "kind"),
    [
        ("bedrock-batch", "bedrock-converse", "request"),
        ("bedrock-batch", "anthropic", "request"),
        ("gemini-batch-output", "gemini", "response"),
        ("vertex-batch-output", "gemini", "response"),
        ("openai-batch", "openai-chat", "request"),
        ("anthropic-batch", "anthropic", "request"),
    ],
)
def test_an_envelope_given_as_a_bare_body_exits_non_zero(
    tmp_path: Path, name: str, body_format: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FIXTURES / f"{name}.jsonl"
    code, out = _convert(tmp_path, source, "--from", body_format, "--to", "openai-chat", "--kind", kind)
    assert code == len(_rows(source))
    assert out.read_text(encoding="utf-8") == ""
    assert f"give --from {name} [rule: envelope_mistaken]" in capsys.readouterr().err
    assert main(["validate", str(source), "--format", body_format]) == 1
    assert f"give --format {name}" in capsys.readouterr().err


def test_the_body_format_follows_each_row(tmp_path: Path) -> None:
    """OpenAI Batch's ``url`` and Bedrock's ``anthropic_version`` tell each row's body format."""
    code, out = _convert(tmp_path, FIXTURES / "openai-batch.jsonl", "--from", "openai-batch", "--to", "gemini-batch")
    assert code == 0
    assert _rows(out)[2]["request"]["contents"][0]["parts"] == [
        {"text": "Tell me a three sentence bedtime story about a unicorn."}
    ]
    code, out = _convert(
        tmp_path, FIXTURES / "bedrock-batch.jsonl", "--from", "bedrock-batch", "--to", "anthropic-batch", "--model", "c"
    )
    assert code == 0
    params = [row["params"] for row in _rows(out)]
    assert all("anthropic_version" not in body for body in params)  # Bedrock's, not the Messages API's
    assert [body["max_tokens"] for body in params] == [1024, 1024]


def test_writing_bedrock_batch_takes_the_model_out_with_a_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _convert(
        tmp_path, FIXTURES / "anthropic-batch.jsonl", "--from", "anthropic-batch", "--to", "bedrock-batch:anthropic"
    )
    assert code == 0
    body = _rows(out)[0]["modelInput"]
    assert next(iter(body.items())) == ("anthropic_version", "bedrock-2023-05-31")
    assert "model" not in body
    assert "loss (metadata): $.model: model (bedrock-batch bodies hold none" in capsys.readouterr().err


def test_an_anthropic_custom_id_is_checked(tmp_path: Path) -> None:
    row = {
        "custom_id": "task:1",
        "method": "POST",
        "url": "/v1/chat/completions",
        "body": {"model": "m", "messages": []},
    }
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    code, _ = _convert(
        tmp_path, source, "--from", "openai-batch", "--to", "anthropic-batch", "--option", "max_tokens=5"
    )
    assert code == 1
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert "at $.custom_id: 'task:1' is no anthropic-batch id" in error


def test_fields_another_envelope_has_no_place_for_are_losses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FIXTURES / "openai-batch-output.jsonl"
    assert _convert(tmp_path, source, "--from", "openai-batch-output", "--to", "gemini-batch-output")[0] == 0
    err = capsys.readouterr().err
    assert "loss (metadata): $.id: openai-batch-output field (gemini-batch-output rows have no place for it)" in err
    assert "loss (metadata): $.response.request_id: openai-batch-output field" in err


def test_a_bare_body_out_of_an_envelope_keeps_its_id_under_id_field(tmp_path: Path) -> None:
    code, out = _convert(
        tmp_path,
        FIXTURES / "anthropic-batch.jsonl",
        "--from",
        "anthropic-batch",
        "--to",
        "openai-chat",
        "--id-field",
        "id",
    )
    assert code == 0
    assert [list(row)[:2] for row in _rows(out)] == [["id", "model"], ["id", "model"]]
    code, back = _convert(tmp_path, out, "--from", "openai-chat", "--to", "anthropic-batch", "--id-field", "id")
    assert code == 0
    assert _rows(back) == _rows(FIXTURES / "anthropic-batch.jsonl")


def test_a_custom_layout_is_read_and_written_by_json_pointers(tmp_path: Path) -> None:
    rows = [
        {
            "meta": {"id": "a/1", "split": "train"},
            "payload": {"request": {"model": "m", "messages": [{"role": "user", "content": "Hi"}]}},
        }
    ]
    source = tmp_path / "custom.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    layout = ("--body-at", "/payload/request", "--id-at", "/meta/id")
    out_layout = ("--out-body-at", "/payload/request", "--out-id-at", "/meta/id")
    code, out = _convert(tmp_path, source, "--from", "openai-chat", "--to", "openai-chat", *layout, *out_layout)
    assert code == 0
    assert _rows(out) == rows  # the same layout keeps every other field (meta.split)
    code, out = _convert(tmp_path, source, "--from", "openai-chat", "--to", "gemini-batch", *layout)
    assert code == 0
    assert _rows(out)[0]["key"] == "a/1"


def test_bad_envelope_arguments_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    source = str(FIXTURES / "openai-batch.jsonl")
    with pytest.raises(SystemExit) as exit_info:
        main(["convert", source, "--from", "openai-batch", "--to", "anthropic-batch-results"])
    assert exit_info.value.code == 64
    assert "the row kinds disagree" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["convert", source, "--from", "openai-batch:gemini", "--to", "anthropic"])
    assert exit_info.value.code == 64
    assert "openai-batch carries openai-chat, openai-responses bodies, not gemini" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["convert", source, "--from", "openai-chat", "--to", "anthropic", "--body-at", "body"])
    assert "a JSON pointer starts with '/'" in capsys.readouterr().err


def test_batch_converter_moves_a_column_of_batch_rows_between_envelopes() -> None:
    from chatcodec import BatchConverter

    to_anthropic = BatchConverter(
        source="openai-chat",
        target="anthropic",
        column="row",
        envelope="openai-batch",
        out_envelope="anthropic-batch",
        model="claude-x",
    )
    rows = (FIXTURES / "openai-batch.jsonl").read_text(encoding="utf-8").splitlines()
    converted = to_anthropic({"row": rows})
    assert converted["chatcodec_error"] == [None, None, None]
    first = json.loads(converted["anthropic_request"][0])
    assert (first["custom_id"], first["params"]["model"]) == ("request-1", "claude-x")


def test_strict_all_does_not_refuse_a_bedrock_body_for_the_model_the_job_names(tmp_path: Path) -> None:
    source = FIXTURES / "bedrock-batch.jsonl"
    code, out = _convert(tmp_path, source, "--from", "bedrock-batch", "--to", "bedrock-batch", "--strict-all")
    assert code == 0
    assert _rows(out) == _rows(source)


def test_a_parquet_column_of_batch_rows_converts_through_the_same_rows(tmp_path: Path) -> None:
    import pyarrow as pa
    from pyarrow import parquet

    source = tmp_path / "batch.parquet"
    lines = (FIXTURES / "anthropic-batch.jsonl").read_text(encoding="utf-8").splitlines()
    parquet.write_table(pa.table({"row": lines}), source)
    code, out = _convert(tmp_path, source, "--from", "anthropic-batch", "--to", "openai-batch", "--model", "gpt-4o")
    assert code == 0
    assert [(row["custom_id"], row["body"]["model"]) for row in _rows(out)] == [
        ("my-first-request", "gpt-4o"),
        ("my-second-request", "gpt-4o"),
    ]


def _with_split(tmp_path: Path, source: Path) -> Path:
    """``source`` with a dataset column of the user's own (``split``) beside each envelope."""
    rows = [{**row, "split": f"train-{index}"} for index, row in enumerate(_rows(source))]
    path = tmp_path / f"split-{source.name}"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_a_dataset_column_beside_an_envelope_row_is_carried_first_not_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _with_split(tmp_path, FIXTURES / "openai-batch.jsonl")
    arguments = ("--from", "openai-batch", "--to", "anthropic-batch", "--model", "claude-sonnet-4-5")
    code, out = _convert(tmp_path, source, *arguments, "--column", "split")
    assert code == 0
    rows = _rows(out)
    assert [(row["split"], row["custom_id"]) for row in rows] == [(f"train-{n}", f"request-{n + 1}") for n in range(3)]
    assert all(next(iter(row)) == "split" for row in rows)
    assert "$.split" not in capsys.readouterr().err
    assert _convert(tmp_path, source, *arguments)[0] == 0  # without --column: the envelope has no place for it
    assert "loss (metadata): $.split: openai-batch field" in capsys.readouterr().err


def test_a_dataset_column_follows_the_id_of_a_bare_body_out_of_an_envelope(tmp_path: Path) -> None:
    source = _with_split(tmp_path, FIXTURES / "anthropic-batch.jsonl")
    code, out = _convert(
        tmp_path, source, "--from", "anthropic-batch", "--to", "openai-chat", "--id-field", "id", "--column", "split"
    )
    assert code == 0
    assert [list(row)[:3] for row in _rows(out)] == [["id", "split", "model"], ["id", "split", "model"]]


def test_a_column_naming_an_envelopes_own_field_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    source = str(FIXTURES / "openai-batch.jsonl")
    with pytest.raises(SystemExit) as exit_info:
        main(["convert", source, "--from", "openai-batch", "--to", "anthropic-batch", "--column", "custom_id"])
    assert exit_info.value.code == 64
    assert "--column custom_id is a field of openai-batch rows" in capsys.readouterr().err
    options = ConvertOptions("openai-chat", "anthropic", envelope="openai-batch", columns=("body",))
    outcome = convert_payload(_rows(FIXTURES / "openai-batch.jsonl")[0], options)
    assert outcome.converted is None
    assert outcome.error is not None
    assert "$.body" in outcome.error
    assert "--column body" in outcome.error


@pytest.mark.parametrize(
    ("target", "id_path"),
    [
        ("openai-batch-output", "$.custom_id"),
        ("bedrock-batch-output:anthropic", "$.recordId"),
        ("gemini-batch-output", "$.key"),
        ("gemini-batch-inline-output", "$.metadata.key"),
    ],
)
def test_an_answer_written_into_an_output_envelope_has_its_id_or_is_refused(
    tmp_path: Path, target: str, id_path: str
) -> None:
    """Issue 63: canonical response rows into openai-batch-output or bedrock-batch-output
    were written with no custom_id/recordId and exit 0; an answer that names no request
    joins to nothing. With ``--id-field`` the row's own id is written."""
    answer = json.loads(
        (Path(__file__).parent / "fixtures" / "openai-chat" / "response" / "single_tool_call.json").read_text()
    )
    canonical = chatcodec.decode_response("openai-chat", answer).model_dump(mode="json", exclude_none=True)
    source = tmp_path / "answers.jsonl"
    source.write_text(json.dumps({"row": "r-1", **canonical}) + "\n", encoding="utf-8")
    arguments = ("--from", "canonical", "--kind", "response", "--to", target, "--column", "row")
    code, _ = _convert(tmp_path, source, *arguments)
    assert code == 1
    (reject,) = _rows(tmp_path / "rejects.jsonl")
    assert reject["error"].startswith(f"at {id_path}: ")
    assert "say which request they answer by its id" in reject["error"]
    code, out = _convert(
        tmp_path, source, "--from", "canonical", "--kind", "response", "--to", target, "--id-field", "row"
    )
    assert code == 0
    (written,) = _rows(out)
    envelope, _ = envelopes.envelope_named(target)
    assert envelopes.open_row(written, envelope).id == "r-1"
