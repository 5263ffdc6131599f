"""Token-level rollout rows (``--to rollout``): a conversation with the tokens a model saw and
sampled, rendered by a chat template with a real tokenizer, converted to OpenAI Chat and
Anthropic requests and back to the same rows.

The ``tokenizer.json`` is built offline with the ``tokenizers`` package: a byte-level
vocabulary (every byte its own token) with Qwen3's special tokens added, so any text encodes
and ``<|im_start|>`` is one id, as in Qwen3's own file. Qwen3's real ids (its BPE ranks, as
tiktoken reads them) are checked through the Python route.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tokenizers

from chatcodec import TemplateError, render
from chatcodec._training.rollouts import rollout_row
from chatcodec.batch._convert import ConvertOptions, convert_payload
from chatcodec.cli import main
from training.qwen3_tokenizer import SPECIAL_TOKENS, qwen3_encoding
from training.test_render import ANTHROPIC_SESSION

WEATHER_SESSION = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": "You answer with the weather.",
    "tools": [
        {
            "name": "get_weather",
            "description": "Current weather in a city.",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        }
    ],
    "messages": [
        {"role": "user", "content": "Is it raining in Paris?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "I should check the weather.", "signature": "sig-1"},
                {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "Rain, 12 C"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Yes: it is raining in Paris (12 C)."}]},
    ],
}


def _byte_level_alphabet() -> dict[int, str]:
    """GPT-2's byte-to-character table, the one byte-level BPE vocabularies are written in."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {byte: chr(byte) for byte in printable}
    extra = 0
    for byte in range(256):
        if byte not in table:
            table[byte] = chr(256 + extra)
            extra += 1
    return table


@pytest.fixture(scope="module")
def tokenizer_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    vocab = {character: byte for byte, character in _byte_level_alphabet().items()}
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE(vocab, []))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tokenizer.decoder = tokenizers.decoders.ByteLevel()
    tokenizer.add_special_tokens([tokenizers.AddedToken(token, special=True) for token in SPECIAL_TOKENS])
    path = tmp_path_factory.mktemp("tokenizer") / "tokenizer.json"
    tokenizer.save(str(path))
    return path


def write_rows(tmp_path: Path, name: str, rows: list[Any]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def read_rows(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def convert_file(tmp_path: Path, source: Path, *arguments: str) -> tuple[Path, str]:
    out = tmp_path / f"out{len(list(tmp_path.glob('out*')))}.jsonl"
    losses = out.with_suffix(".losses.jsonl")
    code = main(["convert", str(source), *arguments, "--out", str(out), "--losses-file", str(losses)])
    assert code == 0, (tmp_path / "rejects.jsonl").read_text(encoding="utf-8") if code == 1 else code
    return out, losses.read_text(encoding="utf-8") if losses.exists() else ""


def _without_thinking(session: dict[str, Any]) -> dict[str, Any]:
    """``session`` without its signed reasoning, which an Anthropic request holds only signed."""
    messages = [
        {**message, "content": [part for part in message["content"] if part["type"] != "thinking"]}
        if isinstance(message["content"], list)
        else message
        for message in session["messages"]
    ]
    return {**session, "messages": messages}


def rollout_file(tmp_path: Path, tokenizer_json: Path, sessions: list[dict[str, Any]] | None = None) -> Path:
    session = write_rows(tmp_path, "sessions.anthropic.jsonl", sessions or [WEATHER_SESSION, ANTHROPIC_SESSION])
    rendering = ("--template", "qwen3", "--tokenizer", str(tokenizer_json))
    out, _ = convert_file(tmp_path, session, "--from", "anthropic", "--to", "rollout", *rendering)
    return out


def test_a_rollout_row_is_the_template_row_with_the_rendered_tokens(tmp_path: Path, tokenizer_json: Path) -> None:
    row = read_rows(rollout_file(tmp_path, tokenizer_json))[0]
    rendered = render(
        WEATHER_SESSION, source="anthropic", template="qwen3", tokenizer=str(tokenizer_json), on_loss="ignore"
    )
    assert row["token_ids"] == rendered.token_ids
    assert row["message_indices"] == rendered.message_indices
    assert row["sampled_mask"] == rendered.trainable
    decoded = tokenizers.Tokenizer.from_file(str(tokenizer_json)).decode(row["token_ids"], skip_special_tokens=False)
    assert decoded == rendered.text
    sampled = [token for token, sampled in zip(row["token_ids"], row["sampled_mask"], strict=True) if sampled]
    assert tokenizers.Tokenizer.from_file(str(tokenizer_json)).decode(sampled, skip_special_tokens=False) == (
        "<think>\n\n</think>\n\nYes: it is raining in Paris (12 C).<|im_end|>"
    )
    # Anthropic's input is an object: the row holds it as Qwen3's template spells one, what the model saw
    assert row["messages"][2]["tool_calls"][0]["function"]["arguments"] == '{"city": "Paris"}'


TO_ANTHROPIC = ("--model", "claude-sonnet-4-5", "--option", "max_tokens=1024")


@pytest.mark.parametrize(
    ("wire", "arguments", "sessions"),
    [
        ("openai-chat", (), [WEATHER_SESSION, ANTHROPIC_SESSION]),
        ("anthropic", TO_ANTHROPIC, [_without_thinking(WEATHER_SESSION), _without_thinking(ANTHROPIC_SESSION)]),
    ],
)
def test_rollout_rows_through_a_wire_and_back_are_the_same_rows(
    tmp_path: Path, tokenizer_json: Path, wire: str, arguments: tuple[str, ...], sessions: list[dict[str, Any]]
) -> None:
    rollouts = rollout_file(tmp_path, tokenizer_json, sessions)
    requests, lost = convert_file(tmp_path, rollouts, "--from", "rollout", "--to", wire, *arguments)
    for line in read_rows(requests):
        assert "token_ids" not in line
        assert line["messages"]
    reported = [json.loads(line) for line in lost.splitlines()]
    for column in ("token_ids", "message_indices", "sampled_mask"):  # each column a loss, row by row
        assert sorted(record["line"] for record in reported if record["path"] == f"$.{column}") == [1, 2]
    rendering = ("--template", "qwen3", "--tokenizer", str(tokenizer_json))
    back, _ = convert_file(tmp_path, requests, "--from", wire, "--to", "rollout", *rendering)
    assert read_rows(back) == read_rows(rollouts)


def test_reasoning_an_anthropic_request_cannot_hold_unsigned_is_reported_on_the_way(
    tmp_path: Path, tokenizer_json: Path
) -> None:
    rollouts = rollout_file(tmp_path, tokenizer_json, [WEATHER_SESSION])
    _, lost = convert_file(tmp_path, rollouts, "--from", "rollout", "--to", "anthropic", *TO_ANTHROPIC)
    reported = [json.loads(line) for line in lost.splitlines()]
    assert any(
        record["path"] == "$.messages[2].reasoning_content" and record["kind"] == "content" for record in reported
    )


def test_real_qwen3_ids_are_the_ids_of_the_whole_rendered_text() -> None:
    row, losses = rollout_row(WEATHER_SESSION, "anthropic", "qwen3", qwen3_encoding())
    rendered = render(WEATHER_SESSION, source="anthropic", template="qwen3", on_loss="ignore")
    assert row["token_ids"] == qwen3_encoding().encode(rendered.text, allowed_special="all")
    assert row["token_ids"][:3] == [151644, 8948, 198]  # <|im_start|>system\n
    assert len(row["message_indices"]) == len(row["sampled_mask"]) == len(row["token_ids"])
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("$.messages[1].content[0]", "metadata"),  # the thinking signature
        ("$.model", "setting"),
        ("$.max_tokens", "setting"),
    ]


def test_a_rollout_keeps_its_own_tokens_and_logprobs_and_is_refused_where_the_template_disagrees(
    tmp_path: Path, tokenizer_json: Path
) -> None:
    row = read_rows(rollout_file(tmp_path, tokenizer_json))[0]
    row["logprobs"] = [None if not sampled else -0.25 for sampled in row["sampled_mask"]]
    row["sampled_mask"] = [False] * (len(row["token_ids"]) - 1) + [True]  # the sampler's record, not the render's
    options = ConvertOptions("rollout", "rollout", template="qwen3", tokenizer=str(tokenizer_json))
    kept = convert_payload(row, options)
    assert kept.converted == row
    changed = {**row, "token_ids": [*row["token_ids"][:5], 7, *row["token_ids"][6:]]}
    refused = convert_payload(changed, options)
    assert refused.converted is None
    assert refused.error is not None
    assert "$.token_ids[5]" in refused.error
    assert "token id 7 where the template renders" in refused.error


def test_token_columns_that_do_not_line_up_are_refused_at_their_path(tmp_path: Path, tokenizer_json: Path) -> None:
    row = read_rows(rollout_file(tmp_path, tokenizer_json))[0]
    count = len(row["token_ids"])
    wrong = [
        ({"sampled_mask": [True]}, "$.sampled_mask: expected a list of"),  # one value, not one per token
        ({"message_indices": [*row["message_indices"], 0]}, "$.message_indices: expected a list of"),
        ({"logprobs": ["-0.1"] + [None] * (count - 1)}, "$.logprobs[0]: expected a number"),  # text, not a number
        ({"sampled_mask": [1] * count}, "$.sampled_mask[0]: expected true or false"),
        ({"token_ids": None}, "$.token_ids: a rollout row holds its tokens as a list of ids"),
    ]
    for change, message in wrong:
        outcome = convert_payload({**row, **change}, ConvertOptions("rollout", "openai-chat"))
        assert outcome.error is not None
        assert message in outcome.error


def test_writing_rollouts_without_a_template_and_tokenizer_is_a_usage_error(
    tmp_path: Path, tokenizer_json: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_rows(tmp_path, "session.jsonl", [WEATHER_SESSION])
    for arguments in (["--template", "qwen3"], ["--tokenizer", str(tokenizer_json)], []):
        with pytest.raises(SystemExit) as exited:
            main(["convert", str(source), "--from", "anthropic", "--to", "rollout", *arguments])
        assert exited.value.code == 64
        assert "name both --template NAME and --tokenizer tokenizer.json" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["convert", str(source), "--from", "anthropic", "--to", "hf-chat", "--tokenizer", str(tokenizer_json)])
    assert "--tokenizer renders rollout rows' tokens" in capsys.readouterr().err
    outcome = convert_payload(WEATHER_SESSION, ConvertOptions("anthropic", "rollout"))  # the batch API says so too
    assert outcome.error is not None
    assert "--template NAME --tokenizer tokenizer.json" in outcome.error


def test_a_template_that_renders_nothing_to_train_refuses_the_row(tmp_path: Path, tokenizer_json: Path) -> None:
    options = ConvertOptions("openai-chat", "rollout", template="qwen3", tokenizer=str(tokenizer_json))
    outcome = convert_payload({"messages": [{"role": "user", "content": "Hi"}]}, options)
    assert outcome.error is not None
    assert "nothing to train" in outcome.error
    with pytest.raises(TemplateError):
        rollout_row({"messages": [{"role": "user", "content": "Hi"}]}, "openai-chat", "qwen3", str(tokenizer_json))


def _trajectory_step(row: dict[str, Any]) -> dict[str, Any]:
    """A rollout row as a Verifiers trajectory step (``TrajectoryStepTokens``: the prompt's ids
    up to the first sampled token, the rest the completion's), its calls flat as Verifiers'."""
    start = row["sampled_mask"].index(True)
    split = len(row["messages"]) - 1
    flat = [
        {**message, "tool_calls": [{"id": c["id"], **c["function"]} for c in message["tool_calls"]]}
        if message.get("tool_calls")
        else message
        for message in row["messages"]
    ]
    return {
        "prompt": flat[:split],
        "completion": flat[split:],
        "tokens": {
            "prompt_ids": row["token_ids"][:start],
            "prompt_mask": [0] * start,
            "completion_ids": row["token_ids"][start:],
            "completion_mask": [int(sampled) for sampled in row["sampled_mask"][start:]],
            "completion_logprobs": [-0.5] * (len(row["token_ids"]) - start),
            "overlong_prompt": False,
            "is_truncated": True,
        },
        "reward": 1.0,
        "tools": row["tools"],  # the rollout's tools, beside the step (a step holds none of its own)
    }


def test_a_verifiers_trajectory_step_reads_as_a_rollout_row(tmp_path: Path, tokenizer_json: Path) -> None:
    row = read_rows(rollout_file(tmp_path, tokenizer_json, [WEATHER_SESSION]))[0]
    step = _trajectory_step(row)
    start = row["sampled_mask"].index(True)
    logprobs = [None] * start + [-0.5] * (len(row["token_ids"]) - start)
    to_chat = convert_payload(step, ConvertOptions("rollout", "openai-chat"))
    assert to_chat.converted is not None
    assert to_chat.converted["messages"][2]["tool_calls"][0]["function"]["name"] == "get_weather"
    reported = {(loss.path, loss.kind) for loss in to_chat.losses}
    assert {("$.tokens", "spelling"), ("$.tokens.is_truncated", "metadata"), ("$.token_ids", "metadata")} <= reported
    assert ("$.reward", "metadata") in reported  # a column of the step's own, as any dialect's
    kept = convert_payload(step, ConvertOptions("rollout", "rollout"))
    assert kept.converted is not None
    assert kept.converted["token_ids"] == row["token_ids"]
    assert kept.converted["sampled_mask"] == row["sampled_mask"]
    assert kept.converted["logprobs"] == logprobs
    assert "message_indices" not in kept.converted  # a step has none, and none is made up without a template
    rendered = convert_payload(
        step, ConvertOptions("rollout", "rollout", template="qwen3", tokenizer=str(tokenizer_json))
    )
    assert rendered.converted == {**row, "logprobs": logprobs, "reward": 1.0}  # the indices are the rendering's
    without_tools = {key: value for key, value in step.items() if key != "tools"}
    refused = convert_payload(
        without_tools, ConvertOptions("rollout", "rollout", template="qwen3", tokenizer=str(tokenizer_json))
    )
    assert refused.error is not None  # the template renders a tool list the step's ids do not hold
    assert "$.token_ids[" in refused.error
