"""A hostile chat template is stopped within its TemplateLimits, in time and in memory, on every
path that runs a template (issue 108): ``render``, ``render_turns``, ``parse_completion(template=)``,
``chatcodec convert --template`` and the gateway's ``--template`` (its prompt renderer).

Each template below spends without a call or any output, where the earlier hooks (calls,
namespace assignments, ``*``, output) did not look: loops nested over one small range, a filter
or operator building from a width or a separator, a list whose text is one long string many
times, output collected by a macro, a tuple doubled, a template nested past the parser. Each must
be refused with a ``TemplateError`` naming the rule, within its time limit plus a second, with
Python's peak memory under ``MEMORY_MARGIN`` times the output bound (as docs/training.md states).

Only ``render`` takes limits per call; the other paths run a template under the default limits,
so the default instance is shrunk for each test here (``seconds=0.5``, ``output_chars=1 Mi``)
and put back after: the paths are run as shipped, only sooner.
"""

from __future__ import annotations

import contextlib
import io
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import jinja2
import jinja2.sandbox
import pytest

from chatcodec import TemplateError, parse_completion, render, render_turns
from chatcodec._training import jinja, template_limits, template_sandbox
from chatcodec.cli import main
from chatcodec.serve._token_prompts import TokenPrompts
from training.qwen3_tokenizer import qwen3_encoding

SECONDS = 0.5
OUTPUT_SECONDS = 3.0
"""The time bound of a test of another rule than time's: wide enough that a loaded machine's wall
clock never stops the template first."""
OUTPUT_CHARS = 2**20
MEMORY_MARGIN = 24
"""Peak Python memory a refused run may reach, in bytes per character of the output bound (a
value of the bound's size held beside the conversation, the template and Jinja's own state)."""

TAIL = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
"""What each hostile template renders after its hostile part (never reached)."""

BIG = "{% set s = 'x' * 100000 %}"
"""A string a tenth of the bound: allowed, and repeated by the templates below."""

TIME = {
    "three loops over one range(1000)": (
        "{% set r = range(1000) %}{% for i in r %}{% for j in r %}{% for k in r %}{% endfor %}{% endfor %}{% endfor %}"
    ),
    "three loops over one string": (
        "{% set s = 'x' * 1000 %}{% for a in s %}{% for b in s %}{% for c in s %}{% endfor %}{% endfor %}{% endfor %}"
    ),
    "loops over a constant list": (
        "{% for a in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] %}{% for b in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] %}"
        "{% for c in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] %}{% for d in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] %}"
        "{% for e in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] %}{% for f in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] %}"
        "{% for g in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] %}{% for h in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] %}"
        "{% endfor %}{% endfor %}{% endfor %}{% endfor %}{% endfor %}{% endfor %}{% endfor %}{% endfor %}"
    ),
    "loops with a filter that never passes": (
        "{% set r = range(1000) %}{% for i in r if i < 0 %}{% endfor %}"
        "{% for i in r %}{% for j in r %}{% for k in r if k < 0 %}{% endfor %}{% endfor %}{% endfor %}"
    ),
    "loops over generators": (
        "{% set r = range(1000) %}{% for i in r|map('string') %}{% for j in r|select %}"
        "{% for k in r|reject %}{% endfor %}{% endfor %}{% endfor %}"
    ),
    "loops in a macro": (
        "{% macro m(r) %}{% for i in r %}{% for j in r %}{% for k in r %}{% endfor %}{% endfor %}{% endfor %}"
        "{% endmacro %}{% set x = m(range(1000)) %}"
    ),
}

OUTPUT = {
    "center": "{% set t = 'x'|center(999999999) %}",
    "center of a computed width": "{% set t = 'x'|center(10 ** 9) %}",
    "a %0Nd width": "{% set t = '%0999999999d' % 1 %}",
    "a % precision": "{% set t = '%.999999999f' % 1.0 %}",
    "a % width from the values": "{% set t = '%*d' % (999999999, 1) %}",
    "% of a list shown many times": BIG + "{% set t = '%s' % ([s] * 1000,) %}",
    "the format filter's width": "{% set t = '%999999999s'|format('x') %}",
    "str.format width": "{% set t = '{:>999999999}'.format('x') %}",
    "str.format width from a field": "{% set t = '{:{w}}'.format('x', w=999999999) %}",
    "str.format precision": "{% set t = '{0:.999999999f}'.format(1.0) %}",
    "str.format one value many times": BIG + "{% set t = '{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}'.format(s) %}",
    "format_map width": "{% set t = '{a:>999999999}'.format_map({'a': 1}) %}",
    "join with a long separator": BIG + "{% set t = range(1000)|join(s) %}",
    "join of one string many times": BIG + "{% set t = ([s] * 1000)|join %}",
    "str.join": BIG + "{% set t = s.join(range(1000)|map('string')) %}",
    "replace each character by a long string": BIG + "{% set t = s|replace('x', s) %}",
    "replace the empty string": BIG + "{% set t = s.replace('', s) %}",
    "indent by a huge width": "{% set t = 'a\nb'|indent(999999999, true) %}",
    "indent each of many lines by a long string": (
        "{% set s = '\n' * 100000 %}{% set t = s|indent('y' * 1000, true, true) %}"
    ),
    "tojson with a huge indent": "{% set t = [[1]]|tojson(indent=999999999) %}",
    "tojson with an indent per item": "{% set t = range(100000)|list|tojson(indent=100) %}",
    "tojson of one string many times": BIG + "{% set t = ([s] * 1000)|tojson %}",
    "sum of lists": "{% set t = [range(100000)|list] * 100 %}{% set u = t|sum(start=[]) %}",
    "ljust": "{% set t = 'x'.ljust(999999999) %}",
    "rjust": "{% set t = 'x'.rjust(999999999) %}",
    "zfill": "{% set t = '1'.zfill(999999999) %}",
    "str.center": "{% set t = 'x'.center(999999999) %}",
    "expandtabs": "{% set t = ('\t' * 1000).expandtabs(1000000) %}",
    "translate": BIG + "{% set t = s.translate({120: s}) %}",
    "~ of four long strings": "{% set s = 'x' * 600000 %}{% set t = s ~ s ~ s ~ s %}",
    "~ doubled by plain sets": (
        "{% set a = 'x' * 1000 %}{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}"
        "{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}"
        "{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}"
    ),
    "+ doubled by plain sets": (
        "{% set a = 'x' * 1000 %}{% set a = a + a %}{% set a = a + a %}{% set a = a + a %}{% set a = a + a %}"
        "{% set a = a + a %}{% set a = a + a %}{% set a = a + a %}{% set a = a + a %}{% set a = a + a %}"
        "{% set a = a + a %}{% set a = a + a %}{% set a = a + a %}{% set a = a + a %}{% set a = a + a %}"
    ),
    "a tuple doubled in a namespace": (
        "{% set ns = namespace(t=(1,)) %}{% for i in range(60) %}{% set ns.t = ns.t + ns.t %}{% endfor %}"
    ),
    "a tuple doubled through a macro argument": "{% macro f(t) %}{{ f(t + t) }}{% endmacro %}{% set x = f((1,)) %}",
    "a number squared in a namespace": (
        "{% set ns = namespace(x=10 ** 100000) %}{% for i in range(60) %}{% set ns.x = ns.x * ns.x %}{% endfor %}"
    ),
    "a list of one string many times, written": BIG + "{{ [s] * 1000 }}",
    "a list of one string many times, as a string": BIG + "{% set t = ([s] * 1000)|string %}",
    "a list of one string many times, pprint": BIG + "{% set t = ([s] * 1000)|pprint %}",
    "a namespace holding one string many times, written": BIG + "{% set ns = namespace(l=[s] * 100) %}{{ ns }}",
    "output collected by a macro": (
        "{% macro a() %}{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}{% endmacro %}{% set t = a() %}"
    ),
    "constant output collected by a macro": (
        "{% macro a() %}{% for i in range(100000) %}xxxxxxxxxxxxxxxxxxxxxxxx{% endfor %}{% endmacro %}{% set t = a() %}"
    ),
    "output collected by a block set": (
        "{% set t %}{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}{% endset %}"
    ),
    "output collected by a filter block": (
        "{% set t %}{% filter upper %}{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}{% endfilter %}"
        "{% endset %}"
    ),
    "escape of escapes": ("{% set s = '&' * 100000 %}{% set t = s|forceescape|forceescape|forceescape|forceescape %}"),
    "urlencode of urlencodes": "{% set s = '%' * 100000 %}{% set t = s|urlencode|urlencode|urlencode %}",
    "wordwrap with a long wrapstring": "{% set t = ('x ' * 100000)|wordwrap(1, wrapstring='y' * 1000) %}",
    "batch filled to a huge count": "{% set t = [1]|batch(999999999, 0)|list %}",
    "slice into a huge count": "{% set t = [1]|slice(999999999)|list %}",
    "lipsum": "{% set t = lipsum(n=100000) %}",
}

DEPTH = {
    "500 parentheses": "{{ " + "(" * 500 + "1" + ")" * 500 + " }}",
    "a list literal 500 deep": "{{ " + "[" * 500 + "1" + "]" * 500 + " }}",
    "blocks 200 deep": "{% if true %}" * 200 + "x" + "{% endif %}" * 200,
}

RECURSING = {
    "a macro calling itself": "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
    "a recursive loop without end": "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}",
    "a value nested past the recursion limit": (
        "{% set ns = namespace(v=1) %}{% for i in range(5000) %}{% set ns.v = [ns.v] %}{% endfor %}{{ ns.v|tojson }}"
    ),
}

HOSTILE: dict[str, tuple[str, str]] = {
    **{name: (body, "template_time") for name, body in TIME.items()},
    **{name: (body, "template_output") for name, body in OUTPUT.items()},
    **{name: (body, "template_depth") for name, body in DEPTH.items()},
    **{name: (body, "template_depth") for name, body in RECURSING.items()},
}

CONVERSATION = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]


@pytest.fixture
def small_limits() -> Iterator[None]:
    """The default limits every path uses, shrunk for the test and put back."""
    default = template_limits.DEFAULT_LIMITS
    kept = (default.seconds, default.output_chars)
    object.__setattr__(default, "seconds", SECONDS)
    object.__setattr__(default, "output_chars", OUTPUT_CHARS)
    try:
        yield
    finally:
        object.__setattr__(default, "seconds", kept[0])
        object.__setattr__(default, "output_chars", kept[1])


def _render(template: str, _: Path) -> str:
    try:
        render(CONVERSATION, template=template)
    except TemplateError as error:
        return str(error)
    return ""


def _render_turns(template: str, _: Path) -> str:
    try:
        render_turns(CONVERSATION, template=template, tokenizer=qwen3_encoding())
    except TemplateError as error:
        return str(error)
    return ""


def _parse_completion(template: str, _: Path) -> str:
    try:
        parse_completion("hello", template=template)
    except TemplateError as error:  # a bound is the bound's TemplateError, as render raises it (issue 108)
        return str(error)
    return ""


def _command_line(template: str, folder: Path) -> str:
    source = folder / "hostile.jinja"
    source.write_text(template, encoding="utf-8")
    rows = folder / "rows.jsonl"
    rows.write_text('{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}\n')
    errors = io.StringIO()
    arguments = ["convert", "--from", "hf-chat", "--to", "hf-chat", "--template", str(source), str(rows)]
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main([*arguments, "--out", str(folder / "out.jsonl")])
        except SystemExit as exit_:
            code = exit_.code  # type: ignore[assignment]
    assert code == 64, errors.getvalue()  # bad usage, never the internal error's 70
    return errors.getvalue().removesuffix("(usage: chatcodec convert --help)\n")


def _gateway(template: str, folder: Path) -> str:
    source = folder / "hostile.jinja"
    source.write_text(template, encoding="utf-8")
    try:
        TokenPrompts(str(source), qwen3_encoding())  # what `chatcodec serve --template FILE` builds as it starts
    except TemplateError as error:
        return str(error)
    return ""


PATHS: dict[str, Callable[[str, Path], str]] = {
    "render": _render,
    "render_turns": _render_turns,
    "parse_completion": _parse_completion,
    "convert --template": _command_line,
    "serve --template": _gateway,
}


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every path run once before any is timed, so a time counts the template, not first imports."""
    qwen3_encoding()
    for run in PATHS.values():
        run(OUTPUT["center"] + TAIL, tmp_path_factory.mktemp("warm"))


@pytest.mark.usefixtures("small_limits", "warm")
@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_template_is_stopped_within_its_limits(name: str, path: str, tmp_path: Path) -> None:
    body, rule = HOSTILE[name]
    seconds = SECONDS
    if rule != "template_time":
        # a value past the output bound is built in well under a second; on a loaded machine it may
        # still pass 0.5 s of wall time, and the time rule would stop it first: the rule under
        # test is the output's, so its time bound is wider (the elapsed bound below follows it)
        seconds = OUTPUT_SECONDS
        object.__setattr__(template_limits.DEFAULT_LIMITS, "seconds", seconds)
    tracemalloc.start()
    started = time.monotonic()
    try:
        said = PATHS[path](body + TAIL, tmp_path)
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert said.rstrip().endswith(f"[rule: {rule}]"), said  # the error's own rule, not a probe's cause
    assert elapsed < seconds + 1, f"{elapsed:.2f} s"
    assert peak < MEMORY_MARGIN * OUTPUT_CHARS, f"{peak / 2**20:.1f} MiB"


REAL_USES = {
    "centered": ("{{ 'ab'|center(6) }}", "  ab  "),
    "a %-width": ("{{ '%05d|%-3s|%.2f' % (42, 'a', 1.5) }}", "00042|a  |1.50"),
    "str.format widths": ("{{ '{:>4}|{:{w}}|{:.1f}'.format('a', 'b', 2.25, w=3) }}", "   a|b  |2.2"),
    "format_map": ("{{ '{a}-{b}'.format_map({'a': 1, 'b': 2}) }}", "1-2"),
    "joined": ("{{ [1, 2, 3]|join(', ') }}", "1, 2, 3"),
    "joined by attribute": ("{{ messages|join('/', attribute='role') }}", "user/assistant"),
    "replaced": ("{{ 'a-b-c'|replace('-', '+', 1) }}", "a+b-c"),
    "indented": ("{{ 'a\nb\n\nc'|indent(2) }}", "a\n  b\n\n  c"),
    "json indented": ("{{ {'a': [1, {}]}|tojson(indent=2) }}", '{\n  "a": [\n    1,\n    {}\n  ]\n}'),
    "json with separators": ("{{ [1, 2]|tojson(separators=(',', ':')) }}", "[1,2]"),
    "sum of lists": ("{{ [[1], [2, 3]]|sum(start=[]) }}", "[1, 2, 3]"),
    "sum of numbers": ("{{ [1, 2, 3]|sum }}", "6"),
    "sum of mixed lists and tuples refused as Python refuses": ("{{ [[1], (2,)]|sum(start=[]) }}", TypeError),
    "concatenation": ("{{ 'a' ~ 1 ~ [2] }}", "a1[2]"),
    "added": ("{{ 'a' + 'b' }}{{ [1] + [2] }}{{ (1,) + (2,) }}{{ 1 + 2 }}", "ab[1, 2](1, 2)3"),
    "padded": ("{{ 'a'.ljust(3) }}|{{ '7'.zfill(3) }}|{{ '-'.join(['a', 'b']) }}", "a  |007|a-b"),
    "a macro's output": ("{% macro m(x) %}<{{ x }}>{% endmacro %}{{ m(1) }}{{ m(2) }}", "<1><2>"),
    "a loop's variables": (
        "{% for m in messages %}{{ loop.index }}/{{ loop.length }}{{ ',' if not loop.last }}{% endfor %}",
        "1/2,2/2",
    ),
    "a long loop": ("{{ range(1000)|map('string')|list|length }}", "1000"),
    "a long loop's variables": (
        "{% for i in range(100) %}{% if loop.first or loop.last %}{{ loop.index }}/{{ loop.length }};{% endif %}"
        "{% endfor %}",
        "1/100;100/100;",
    ),
    "a long loop's else": ("{% for i in range(100) if i > 200 %}{{ i }}{% else %}none{% endfor %}", "none"),
    "a long loop over a generator, cut short": (
        "{% for i in range(100)|map('string') %}{% if i == '70' %}{% break %}{% endif %}{% endfor %}"
        "{{ range(3)|map('string')|join }}",
        "012",
    ),
    "a filtered loop": ("{% for i in range(100) if i % 40 == 0 %}{{ i }};{% endfor %}", "0;40;80;"),
    "a recursive loop": (
        "{% for x in [[1, [2]], 3] recursive %}{% if x is iterable %}({{ loop(x) }}){% else %}{{ x }}{% endif %}"
        "{% endfor %}",
        "(1(2))3",
    ),
    "escaped": ("{{ '<a & b>'|e }}", "&lt;a &amp; b&gt;"),
    "batched": ("{{ [1, 2, 3]|batch(2, 0)|list }}", "[[1, 2], [3, 0]]"),
}


def _stock(body: str) -> str:
    """``body`` rendered by Jinja's own immutable sandbox, unhooked, as transformers sets it up."""
    environment = jinja2.sandbox.ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"]
    )
    environment.filters["tojson"] = template_sandbox.to_json
    return environment.from_string(body).render(messages=CONVERSATION)


@pytest.mark.parametrize("name", list(REAL_USES))
def test_the_measured_builders_give_what_jinja_gives(name: str) -> None:
    body, expected = REAL_USES[name]
    if isinstance(expected, type):
        with pytest.raises(expected):
            _stock(body)
        with pytest.raises(TemplateError, match=expected.__name__):
            jinja.run(body, CONVERSATION)
        return
    assert _stock(body) == expected
    assert jinja.run(body, CONVERSATION)[0] == expected


def test_a_number_past_the_digits_python_writes_is_refused_unmade() -> None:
    """Under the default bound (32 Mi), ``10 ** 30000000`` alone took minutes of one multiplication
    the clock cannot interrupt; no template can write a number past 4,300 digits."""
    started = time.monotonic()
    for body in ("{% set x = 10 ** 30000000 %}", "{% set x = 10 ** 4000 %}{% set y = x * x * x %}"):
        with pytest.raises(TemplateError, match="digits") as raised:
            jinja.run(body, CONVERSATION)
        assert raised.value.rule == "template_output"
    assert time.monotonic() - started < 2
    assert jinja.run("{{ (10 ** 400 * 10 ** 400) % 7 }}", CONVERSATION)[0] == str(10**800 % 7)


def test_a_sum_of_many_short_lists_is_linear() -> None:
    """Python's sum copies the total so far at each list: 100,000 one-item lists took minutes."""
    started = time.monotonic()
    text, _ = jinja.run("{{ (range(100000)|batch(1)|sum(start=[]))|length }}", CONVERSATION)
    assert text == "100000"
    assert time.monotonic() - started < 5
