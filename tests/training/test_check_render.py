"""``chatcodec check-render``: a seeded corpus through the template and renderers' hand-written
renderer of the same family, the first differing span of each disagreement reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatcodec._training import families
from chatcodec._training.check import SHAPES, check_render, corpus, report
from chatcodec._training.references import CharTokenizer
from chatcodec.cli import main


def test_the_corpus_is_the_same_for_a_seed_and_covers_every_shape() -> None:
    first, again, other = corpus(3, 14), corpus(3, 14), corpus(4, 14)
    assert first == again
    assert first != other
    assert [shape for shape, _ in first] == [*SHAPES, *SHAPES]
    calls = [part for part in first[3][1].messages[1].content if getattr(part, "type", "") == "tool_use"]
    assert len(calls) == 2  # parallel calls


def test_llama_through_its_template_and_renderers_agree() -> None:
    check = check_render("llama3.1", count=14)
    assert check.references == ("chatcodec", "renderers")
    assert check.findings == ()
    assert report(check).endswith("no disagreement")


def test_the_references_disagreements_are_found_with_their_first_differing_span() -> None:
    deepseek = check_render("deepseek-v3", count=7)
    text = [finding for finding in deepseek.findings if finding.aspect == "text"]
    assert [finding.shape for finding in text] == ["parallel-calls"]
    end, begin = "<\uff5ctool\u2581call\u2581end\uff5c>", "<\uff5ctool\u2581call\u2581begin\uff5c>"
    assert f"{end}\\n{begin}" in text[0].detail  # the template's newline between calls, escaped by repr
    qwen36 = check_render("qwen3.6", count=7)
    masks = [finding for finding in qwen36.findings if finding.aspect == "mask" and finding.shape == "reasoning"]
    # renderers trains the <think> the generation prompt already wrote; chatcodec starts after it
    assert masks
    assert "only renderers trains '<think>\\n" in masks[0].detail


def test_a_template_without_a_reference_is_checked_against_itself() -> None:
    check = check_render("qwen3-training", count=7)
    assert check.references == ("chatcodec",)
    assert check.unavailable == ("renderers: no renderer of this template's family",)
    assert check.findings == ()


@pytest.mark.parametrize(("template", "code"), [("llama3.1", 0), ("deepseek-v3", 1), ("qwen-3", 64)])
def test_the_command_exits_by_what_it_found(template: str, code: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-render", template, "--count", "7"]) == code
    captured = capsys.readouterr()
    if code == 64:
        assert "unknown chat template family 'qwen-3'" in captured.err
    else:
        assert captured.out.startswith(f"check-render {template}: 7 conversations")


def test_a_template_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "template.jinja"
    path.write_text(families.template_text("llama3.1"), encoding="utf-8")
    assert main(["check-render", str(path), "--count", "3"]) == 0
    assert capsys.readouterr().out.startswith("check-render llama3.1: 3 conversations")  # known by its text


@given(st.lists(st.sampled_from(["<|im_start|>", "<think>", "a", "|", "<", ">", "\n", "é"]), max_size=30))
def test_the_character_tokenizer_gives_back_its_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    tokenizer = CharTokenizer("x", ["<|im_start|>", "<think>"])
    assert tokenizer.decode(tokenizer.encode(text)) == text
    assert tokenizer.encode("<think>") == [1]
