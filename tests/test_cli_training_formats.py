"""The training and evaluation formats people hold that needed a script before (issue 51):
Hugging Face chat-template tool calls, LLaMA-Factory alpaca (with its ``columns``) and
multimodal rows, OpenAI Evals items, UltraChat's ``prompt`` column, axolotl's default
roles, and numbered rows for an envelope without ids. Each file is built from the
format's documentation (``tests/fixtures/training/README.md``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "training"
ENVELOPES = Path(__file__).parent / "fixtures" / "envelopes"


def _rows(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _convert(tmp_path: Path, source: Path, *arguments: str) -> tuple[int, Path]:
    out = tmp_path / f"out{len(list(tmp_path.glob('out*.jsonl')))}.jsonl"
    code = main(["convert", str(source), *arguments, "--out", str(out), "--rejects", str(tmp_path / "rejects.jsonl")])
    return code, out


def _written(tmp_path: Path, name: str, rows: list[Any]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_hugging_face_calls_get_made_up_ids_that_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ("--from", "hf-chat", "--to", "anthropic", "--model", "claude-sonnet-4-5", "--option", "max_tokens=64")
    code, out = _convert(tmp_path, FIXTURES / "hf-chat.jsonl", *arguments)
    assert code == 0
    messages = _rows(out)[0]["messages"]
    call = messages[1]["content"][0]
    assert call == {
        "type": "tool_use",
        "id": "hf_call_2_0",
        "name": "get_current_temperature",
        "input": {"location": "Paris, France", "unit": "celsius"},
    }
    assert messages[2]["content"][0]["tool_use_id"] == "hf_call_2_0"
    err = capsys.readouterr().err
    assert "loss (metadata): $.messages[2].tool_calls[0].id: tool call id (Hugging Face chat-template calls" in err


def test_a_result_answers_the_waiting_call_of_its_name(tmp_path: Path) -> None:
    calls = [
        {"type": "function", "function": {"name": "get_time", "arguments": {}}},
        {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Oslo"}}},
    ]
    row = {
        "messages": [
            {"role": "user", "content": "Time and weather in Oslo?"},
            {"role": "assistant", "tool_calls": calls},
            {"role": "tool", "name": "get_weather", "content": "snow"},
            {"role": "tool", "name": "get_time", "content": "09:00"},
        ]
    }
    code, out = _convert(tmp_path, _written(tmp_path, "calls.jsonl", [row]), "--from", "hf-chat", "--to", "openai-chat")
    assert code == 0
    messages = _rows(out)[0]["messages"]
    assert [message.get("tool_call_id") for message in messages[2:]] == ["hf_call_1_1", "hf_call_1_0"]


def test_hugging_face_calls_given_as_openai_chat_name_the_call_and_the_dialect(tmp_path: Path) -> None:
    code, _ = _convert(tmp_path, FIXTURES / "hf-chat.jsonl", "--from", "openai-chat", "--to", "anthropic")
    assert code == 1
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert "at $.messages[2].tool_calls[0].id: Field required" in error
    assert "function.id" not in error
    assert "--from hf-chat" in error


def test_trl_rows_take_hugging_face_calls_too(tmp_path: Path) -> None:
    messages = _rows(FIXTURES / "hf-chat.jsonl")[0]["messages"]
    row = {"prompt": messages[:2], "completion": messages[2:]}
    source = _written(tmp_path, "trl.jsonl", [row])
    code, out = _convert(tmp_path, source, "--from", "trl-prompt-completion", "--to", "openai-chat")
    assert code == 0
    assert _rows(out)[0]["messages"][3]["tool_call_id"] == "hf_call_2_0"
    code, same = _convert(tmp_path, source, "--from", "trl-prompt-completion", "--to", "trl-prompt-completion")
    assert code == 0
    assert _rows(same) == [row]


def test_alpaca_rows_are_llama_factory_prompts(tmp_path: Path) -> None:
    code, out = _convert(tmp_path, FIXTURES / "alpaca.jsonl", "--from", "alpaca", "--to", "openai-chat")
    assert code == 0
    first, second, third = (row["messages"] for row in _rows(out))
    assert first == [
        {"role": "system", "content": "Answer in one word when you can."},
        {"role": "user", "content": "Hi!"},
        {"role": "assistant", "content": "Hello! How can I help?"},
        {"role": "user", "content": "What is the capital of France?"},
        {"role": "assistant", "content": "Paris."},
    ]
    assert second[0] == {
        "role": "user",
        "content": "Summarize the text.\nThe Eiffel Tower was finished in 1889 for the World's Fair.",
    }
    assert third[0]["content"] == [
        {"type": "image_url", "image_url": {"url": "mllm_demo_data/cat.jpg"}},
        {"type": "text", "text": "What is in this picture?"},
    ]


def test_alpaca_columns_of_a_dataset_info_entry_are_honoured(tmp_path: Path) -> None:
    source = FIXTURES / "alpaca-renamed.jsonl"
    config = ("--dialect-config", str(FIXTURES / "alpaca-info.json"))
    code, out = _convert(tmp_path, source, "--from", "alpaca", "--to", "openai-chat", *config)
    assert code == 0
    assert _rows(out)[0]["messages"] == [
        {"role": "system", "content": "You are a translator."},
        {"role": "user", "content": "Translate to German: yes"},
        {"role": "assistant", "content": "ja"},
        {"role": "user", "content": "Translate to German.\nGood morning"},
        {"role": "assistant", "content": "Guten Morgen"},
    ]
    code, same = _convert(tmp_path, source, "--from", "alpaca", "--to", "alpaca", "--strict-all", *config)
    assert code == 0
    assert same.read_bytes() == source.read_bytes()
    code, _ = _convert(tmp_path, source, "--from", "alpaca", "--to", "openai-chat")  # without the entry
    assert code == 1
    assert "at $.instruction: expected the 'instruction' column" in _rows(tmp_path / "rejects.jsonl")[0]["error"]


def test_llama_factory_images_are_image_parts_in_place(tmp_path: Path) -> None:
    source = FIXTURES / "sharegpt-multimodal.jsonl"
    config = ("--dialect-config", str(FIXTURES / "sharegpt-multimodal-info.json"))
    arguments = ("--from", "sharegpt", "--to", "anthropic", "--model", "claude-sonnet-4-5", "--option", "max_tokens=64")
    code, out = _convert(tmp_path, source, *arguments, *config)
    assert code == 0
    messages = _rows(out)[0]["messages"]
    assert [block["type"] for block in messages[0]["content"]] == ["image", "text"]
    assert [block["type"] for block in messages[2]["content"]] == ["text", "image"]
    assert messages[2]["content"][1]["source"] == {"type": "url", "url": "mllm_demo_data/1-2.jpg"}
    code, same = _convert(tmp_path, source, "--from", "sharegpt", "--to", "sharegpt", "--strict-all", *config)
    assert code == 0
    assert _rows(same) == _rows(source)


def test_an_image_without_its_placeholder_is_refused(tmp_path: Path) -> None:
    row = {"instruction": "Describe it.", "output": "A cat.", "images": ["a.jpg"]}
    code, _ = _convert(tmp_path, _written(tmp_path, "extra.jsonl", [row]), "--from", "alpaca", "--to", "openai-chat")
    assert code == 1
    assert "at $.images: 1 image(s) more than the <image> placeholders" in _rows(tmp_path / "rejects.jsonl")[0]["error"]


def test_openai_evals_items_read_as_conversations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _convert(tmp_path, FIXTURES / "openai-evals.jsonl", "--from", "openai-evals", "--to", "openai-chat")
    assert code == 0
    first, second = (row["messages"] for row in _rows(out))
    assert first == [
        {"role": "user", "content": "My monitor won't turn on - help!"},
        {"role": "assistant", "content": "Hardware"},
    ]
    assert second[0]["role"] == "developer"
    err = capsys.readouterr().err
    assert "loss (metadata): $.item.ground_truth: eval item field" in err
    assert "loss (metadata): $.sample.model: eval sample field" in err


def test_openai_evals_output_items_read_sample_input_then_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FIXTURES / "openai-evals-output-items.jsonl"
    code, out = _convert(tmp_path, source, "--from", "openai-evals", "--to", "openai-chat")
    assert code == 0
    run_item, source_row = (row["messages"] for row in _rows(out))
    assert [message["role"] for message in run_item] == ["developer", "user", "assistant"]
    assert run_item[-1] == {"role": "assistant", "content": "Hardware"}
    assert source_row == [
        {"role": "user", "content": "I'm in vim and I can't quit!"},
        {"role": "assistant", "content": "Software"},
    ]
    err = capsys.readouterr().err
    assert "loss (metadata): $.datasource_item.correct_label: eval item field" in err
    assert "loss (metadata): $.sample.usage: eval sample field" in err
    assert "loss (metadata): $.results: openai-evals column" in err
    assert "$.sample.output" not in err
    assert "$.sample.input" not in err


def test_an_output_item_given_as_chat_names_openai_evals(tmp_path: Path) -> None:
    source = FIXTURES / "openai-evals-output-items.jsonl"
    code, _ = _convert(tmp_path, source, "--from", "openai-chat", "--to", "anthropic")
    assert code != 0
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert "eval.run.output_item) is --from openai-evals" in error


def test_an_evals_item_given_as_responses_is_refused_not_emptied(tmp_path: Path) -> None:
    source = FIXTURES / "openai-evals.jsonl"
    code, out = _convert(tmp_path, source, "--from", "openai-responses", "--to", "openai-chat")
    assert code == 2
    assert out.read_text(encoding="utf-8") == ""
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert "none of its fields ('item', 'sample') is one openai-responses has" in error
    assert "--from openai-evals" in error


def test_openai_evals_is_read_not_written(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        _convert(tmp_path, FIXTURES / "alpaca.jsonl", "--from", "alpaca", "--to", "openai-evals")
    assert exit_info.value.code == 64


def test_an_ultrachat_prompt_column_is_a_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = {
        "prompt": "How many helicopters can a human eat in one sitting?",
        "prompt_id": "b6e7c3f1",
        "messages": [
            {"role": "user", "content": "How many helicopters can a human eat in one sitting?"},
            {"role": "assistant", "content": "None: helicopters are not food."},
        ],
    }
    source = _written(tmp_path, "ultrachat.jsonl", [row])
    arguments = ("--from", "openai-chat", "--to", "anthropic", "--model", "claude-sonnet-4-5")
    code, out = _convert(tmp_path, source, *arguments, "--option", "max_tokens=64", "--column", "prompt")
    assert code == 0
    assert _rows(out)[0]["prompt"] == row["prompt"]
    assert "prompt_id" in capsys.readouterr().err  # not carried: a loss, named
    assert main(["validate", str(source)]) == 0


def test_axolotl_roles_default_to_axolotls(tmp_path: Path) -> None:
    source = FIXTURES / "axolotl-default.jsonl"
    config = ("--dialect-config", str(FIXTURES / "axolotl-default-config.json"))
    code, out = _convert(tmp_path, source, "--from", "sharegpt", "--to", "openai-chat", *config)
    assert code == 0
    assert _rows(out) == _rows(source)
    code, same = _convert(tmp_path, source, "--from", "sharegpt", "--to", "sharegpt", "--strict-all", *config)
    assert code == 0
    assert same.read_bytes() == source.read_bytes()


def test_vertex_batch_rows_are_numbered_for_openai_batch(tmp_path: Path) -> None:
    source = ENVELOPES / "vertex-batch.jsonl"
    arguments = ("--from", "vertex-batch", "--to", "openai-batch", "--model", "gpt-4.1-mini", "--id-from-line")
    code, out = _convert(tmp_path, source, *arguments)
    assert code == 0
    assert [row["custom_id"] for row in _rows(out)] == [f"line-{number}" for number in range(1, len(_rows(source)) + 1)]
    code, _ = _convert(tmp_path, source, "--from", "vertex-batch", "--to", "openai-batch", "--model", "gpt-4.1-mini")
    assert code == 1


def test_validate_reads_a_turn_s_own_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(FIXTURES / "sharegpt-system-turn.jsonl"), "--format", "sharegpt"]) == 0
    assert main(["validate", str(FIXTURES / "hf-chat.jsonl"), "--format", "hf-chat"]) == 0
    assert "ok, 5 messages" in capsys.readouterr().out


def test_convert_help_gives_every_dialect_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    from chatcodec._row_dialects import dialects as training

    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    shown = capsys.readouterr().out
    for dialect in training.TRAINING_DIALECTS:
        assert f"\n  {dialect} " in shown


def test_hugging_face_arguments_are_openai_json_text_and_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _convert(tmp_path, FIXTURES / "hf-chat.jsonl", "--from", "hf-chat", "--to", "openai-chat")
    assert code == 0
    call = _rows(out)[0]["messages"][2]["tool_calls"][0]
    assert call["function"]["arguments"] == '{"location": "Paris, France", "unit": "celsius"}'
    code, back = _convert(tmp_path, out, "--from", "openai-chat", "--to", "hf-chat")
    assert code == 0
    assert _rows(back) == _rows(FIXTURES / "hf-chat.jsonl")
    compact = _rows(out)[0]
    compact["messages"][2]["tool_calls"][0]["function"]["arguments"] = '{"location":"Paris, France","unit":"celsius"}'
    code, spaced = _convert(
        tmp_path, _written(tmp_path, "compact.jsonl", [compact]), "--from", "openai-chat", "--to", "hf-chat"
    )
    assert code == 0
    assert _rows(spaced)[0]["messages"][2]["tool_calls"][0]["function"]["arguments"] == {
        "location": "Paris, France",
        "unit": "celsius",
    }
    assert "loss (spelling): $.messages[2].tool_calls[0].function.arguments: arguments text" in capsys.readouterr().err


def test_a_text_prompt_completion_row_names_the_config_that_reads_it(tmp_path: Path) -> None:
    """Together's instruction rows ``{prompt, completion}`` are text: the error says which config reads them."""
    row = {"prompt": "Translate to French: cheese", "completion": "fromage"}
    source = _written(tmp_path, "together.jsonl", [row])
    for dialect, path in (("trl-prompt-completion", "$.prompt"), ("alpaca", "$.instruction")):
        code, _ = _convert(tmp_path, source, "--from", dialect, "--to", "openai-chat")
        assert code == 1
        error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
        assert f"at {path}:" in error
        config_text = '{"columns": {"prompt": "prompt", "response": "completion"}}'
        assert f"--from alpaca --dialect-config FILE, FILE holding {config_text}" in error
    config = tmp_path / "together.json"
    config.write_text(json.dumps({"columns": {"prompt": "prompt", "response": "completion"}}), encoding="utf-8")
    code, out = _convert(tmp_path, source, "--from", "alpaca", "--dialect-config", str(config), "--to", "openai-chat")
    assert code == 0
    assert _rows(out)[0]["messages"] == [
        {"role": "user", "content": "Translate to French: cheese"},
        {"role": "assistant", "content": "fromage"},
    ]


def test_wildchat_per_message_keys_are_reported_where_they_are_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """WildChat's turns carry ``language``, ``toxic``, ``turn_identifier``: kept on the message, said so."""
    turn = {"language": "English", "toxic": False, "turn_identifier": 1}
    row = {
        "conversation_hash": "c1",
        "conversation": [{"role": "user", "content": "hi", **turn}, {"role": "assistant", "content": "Hello", **turn}],
    }
    source = _written(tmp_path, "wildchat.jsonl", [row])
    config = tmp_path / "wildchat.json"
    config.write_text(json.dumps({"type": "chat_template", "field_messages": "conversation"}), encoding="utf-8")
    arguments = ("--from", "sharegpt", "--dialect-config", str(config))
    code, out = _convert(tmp_path, source, *arguments, "--to", "openai-chat")
    assert code == 0
    assert _rows(out)[0]["messages"][1]["toxic"] is False
    err = capsys.readouterr().err
    assert "loss (metadata): $.conversation[0].language: turn key (a turn's own key, kept on the message" in err
    assert "$.conversation[1].toxic: turn key" in err
    code, out = _convert(tmp_path, source, *arguments, "--to", "sharegpt", "--dialect-config", str(config))
    assert code == 0
    assert _rows(out) == [row]
    assert "turn key" not in capsys.readouterr().err  # the same dialect gives each key back where it was


def test_nova_fine_tuning_rows_convert_with_no_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = FIXTURES / "nova-fine-tuning.jsonl"
    code, out = _convert(
        tmp_path, source, "--from", "bedrock-nova", "--to", "bedrock-nova", "--storage", "--strict-all"
    )
    assert code == 0
    assert _rows(out) == _rows(source)
    code, out = _convert(tmp_path, source, "--from", "bedrock-nova", "--to", "openai-chat", "--storage")
    assert code == 0
    assert _rows(out)[0]["messages"][0] == {
        "role": "system",
        "content": [{"type": "text", "text": "You are a digital assistant with a friendly personality"}],
    }
    err = capsys.readouterr().err
    assert "bedrock-nova data ['schemaVersion']" in err
    assert "$.model" not in err


def test_a_row_no_format_fits_says_so_and_what_to_do(tmp_path: Path) -> None:
    """An OpenAssistant tree: "give that as --from" named no format to give."""
    row = {"message_id": "m1", "text": "hi", "role": "prompter", "replies": [{"text": "Hello", "role": "assistant"}]}
    code, _ = _convert(tmp_path, _written(tmp_path, "oasst.jsonl", [row]), "--from", "openai-chat", "--to", "anthropic")
    assert code != 0
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert "no format chatcodec reads fits it; convert its rows to one first" in error
    assert "give that as --from" not in error


def test_an_lmsys_conversation_column_is_named_not_taken_for_responses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """LMSYS-Chat-1M's ``conversation`` "looked like openai-responses", and validated as 0 messages."""
    row = {"conversation_id": "x", "conversation": [{"role": "user", "content": "hi"}], "language": "English"}
    source = _written(tmp_path, "lmsys.jsonl", [row])
    code, _ = _convert(tmp_path, source, "--from", "openai-chat", "--to", "anthropic")
    assert code != 0
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert "its 'conversation' is a list of messages (LMSYS-Chat-1M's and WildChat's rows)" in error
    assert '--from sharegpt --dialect-config FILE reads it, FILE holding {"type": "chat_template"' in error
    assert "looks like openai-responses" not in error
    assert main(["validate", str(source)]) == 1
    assert "its 'conversation' is a list of messages" in capsys.readouterr().err


def test_an_anthropic_batch_row_given_as_openai_batch_names_its_envelope(tmp_path: Path) -> None:
    row = {
        "custom_id": "r1",
        "params": {"model": "claude-x", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]},
    }
    source = _written(tmp_path, "batch.jsonl", [row])
    code, _ = _convert(tmp_path, source, "--from", "openai-batch", "--to", "anthropic-batch")
    assert code != 0
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert "is in the anthropic-batch envelope, not openai-batch: give --from anthropic-batch" in error
    assert "(absent)" not in error
