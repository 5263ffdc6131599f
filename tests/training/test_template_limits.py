"""A chat template is code from a model hub: whatever it raises, and however long or large it
runs, comes out as chatcodec's TemplateError naming the rule (issue 97, W10-05), from render,
template_profile, parse_completion(template=...) and the command line."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from chatcodec import OptionError, TemplateError, TemplateLimits, parse_completion, render, template_profile
from chatcodec._training.families import template_text
from chatcodec._training.template_limits import BOUND_RULES

CONVERSATION = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]

HOSTILE = {
    "division by zero": ("{{ 1/0 }}", "template_failed", "ZeroDivisionError"),
    "float overflow": ("{{ 10.0 ** 400 }}", "template_failed", "OverflowError"),
    "a billion-item range": ("{% for i in range(10**9) %}x{% endfor %}", "template_range", "1,000,000,000"),
    "a macro calling itself": (
        "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
        "template_depth",
        "recursed too deep",
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_template_failing_on_every_run_is_a_template_error_everywhere(name: str) -> None:
    template, rule, words = HOSTILE[name]
    with pytest.raises(TemplateError) as rendered:
        render(CONVERSATION, template=template)
    assert f"[rule: {rule}]" in str(rendered.value)
    assert words in str(rendered.value)
    with pytest.raises(TemplateError, match=rule):
        template_profile(template)
    # parse_completion's own error for its template= option, but a bound is the bound's (issue 108)
    with pytest.raises(TemplateError if rule in BOUND_RULES else OptionError, match=rule):
        parse_completion("hello", template=template)


def _failing_late(body: str) -> str:
    """Qwen3's template with ``body`` run only on conversations longer than the profile's probes."""
    return "{% if messages|length > 7 %}" + body + "{% endif %}" + template_text("qwen3")


def test_a_template_failing_on_the_users_conversation_names_the_rule() -> None:
    with pytest.raises(TemplateError) as raised:
        render(CONVERSATION * 4, template=_failing_late("{{ 1/0 }}"))
    assert raised.value.rule == "template_failed"
    assert "ZeroDivisionError: division by zero" in str(raised.value)


def test_a_run_past_its_time_is_stopped_at_the_limit() -> None:
    loops = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    started = time.monotonic()
    with pytest.raises(TemplateError) as raised:
        render(CONVERSATION * 4, template=_failing_late(loops), template_limits=TemplateLimits(seconds=0.5))
    assert raised.value.rule == "template_time"
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    "body",
    [
        "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
        "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
        "{% macro f(s) %}{{ f(s ~ s) }}{% endmacro %}{{ f('x') }}",
        "{{ 'x' * 10**10 }}",
        "{{ 10 ** 1000000000 }}",
        "{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}",
    ],
)
def test_a_run_making_too_much_text_is_stopped_before_it_fills_memory(body: str) -> None:
    with pytest.raises(TemplateError) as raised:
        render(CONVERSATION * 4, template=_failing_late(body), template_limits=TemplateLimits(output_chars=10**6))
    assert raised.value.rule == "template_output"


def test_the_limits_leave_a_real_template_alone() -> None:
    limits = TemplateLimits(seconds=5, output_chars=10_000)
    assert render(CONVERSATION, template="qwen3", template_limits=limits).text.endswith("a<|im_end|>\n")


def test_the_command_line_reports_a_failing_template_as_bad_usage(tmp_path: Path) -> None:
    template = tmp_path / "divides.jinja"
    template.write_text("{{ 1/0 }}", encoding="utf-8")
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}\n')
    command = [sys.executable, "-m", "chatcodec", "convert", "--from", "hf-chat", "--to", "hf-chat"]
    done = subprocess.run(
        [*command, "--template", str(template), str(rows)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 64, done.stderr
    assert "ZeroDivisionError" in done.stderr
    assert "internal error" not in done.stderr
