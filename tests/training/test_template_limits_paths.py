"""The caller's template limits hold on every path that runs a chat template (issue 108):
``render``, ``render_turns``, ``parse_completion(template=...)``, ``chatcodec convert
--template`` and ``chatcodec check-render``, each stopped with the TemplateError naming the bound.

The hostile template below builds a value no real template needs but that passes the default
limits, so each path is stopped only where the caller's own (tighter) limits reach the run: a
path that dropped them on the way would run the template to its end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chatcodec import TemplateError, TemplateLimits, parse_completion, render, render_turns
from chatcodec._training.families import template_text
from training.qwen3_tokenizer import qwen3_encoding

HOSTILE = "{{ 'x' * 200000 }}" + template_text("qwen3")
"""Qwen3's template after a 200,000-character string: within the default output bound, past
the tight one."""
TIGHT = TemplateLimits(output_chars=100_000)
CONVERSATION = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]


def test_render_and_render_turns_run_within_the_caller_s_limits() -> None:
    assert render(CONVERSATION, template=HOSTILE, on_loss="ignore").text.startswith("x" * 200_000)
    assert render_turns(CONVERSATION, template=HOSTILE, tokenizer=qwen3_encoding(), on_loss="ignore")
    with pytest.raises(TemplateError) as rendered:
        render(CONVERSATION, template=HOSTILE, template_limits=TIGHT)
    with pytest.raises(TemplateError) as turns:
        render_turns(CONVERSATION, template=HOSTILE, tokenizer=qwen3_encoding(), template_limits=TIGHT)
    assert rendered.value.rule == turns.value.rule == "template_output"


def test_parse_completion_reads_a_template_within_the_caller_s_limits() -> None:
    """The template's text is read for its profile by rendering probes: each within the limits
    given, and a probe stopped at them is the TemplateError naming the bound (not an option to
    correct, as a template that fails on its own is)."""
    parsed = parse_completion("hello<|im_end|>", template=HOSTILE, parser="hermes")
    assert parsed.content[0].text == "hello"  # type: ignore[union-attr]
    with pytest.raises(TemplateError) as raised:
        parse_completion("hello<|im_end|>", template=HOSTILE, parser="hermes", template_limits=TIGHT)
    assert raised.value.rule == "template_output"


def _chatcodec(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chatcodec", *arguments], capture_output=True, text=True, check=False, timeout=120
    )


def test_the_command_line_takes_the_limits_for_convert_and_check_render(tmp_path: Path) -> None:
    template = tmp_path / "hostile.jinja"
    template.write_text(HOSTILE, encoding="utf-8")
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}\n')
    convert = ["convert", "--from", "hf-chat", "--to", "hf-chat", "--template", str(template), str(rows)]
    assert _chatcodec(*convert).returncode == 0
    stopped = _chatcodec(*convert, "--template-output-chars", "100000")
    assert stopped.returncode == 64, stopped.stderr
    assert "[rule: template_output]" in stopped.stderr
    checked = _chatcodec("check-render", str(template), "--count", "2", "--template-output-chars", "100000")
    assert checked.returncode == 64, checked.stderr
    assert "[rule: template_output]" in checked.stderr
    assert "internal error" not in checked.stderr + stopped.stderr


def test_a_limit_that_is_no_positive_number_is_a_usage_error(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"messages": [{"role": "user", "content": "q"}]}\n')
    for flag, value in (("--template-seconds", "0"), ("--template-output-chars", "-1")):
        done = _chatcodec(
            "convert", "--from", "hf-chat", "--to", "hf-chat", "--template", "qwen3", flag, value, str(rows)
        )
        assert done.returncode == 64, done.stderr  # usage
        assert f"{flag} is a positive number" in done.stderr
