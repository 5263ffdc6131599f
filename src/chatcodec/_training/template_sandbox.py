"""Jinja's immutable sandbox with the running :class:`~.template_limits.Budget` checked wherever
a template can spend time or build a value.

A template repeats work in its ``for`` loops and its calls (a macro, ``loop()``, a method), and
builds values with operators (``*``, ``+``, ``%``, ``~``), filters, string methods and the text
of what it writes. Jinja hands none of these to a hook with a budget, so each is hooked here:

- every ``for`` iterates through :meth:`.Budget.steps` (the loop's iterable wrapped when the
  template is compiled, :class:`_BoundedCode`), so three loops nested over one ``range(1000)``
  are stopped in time without a call or any output;
- calls and namespace assignments are measured (a long string, list or tuple passed or kept),
  and a string method that pads, repeats or replaces (``ljust``, ``center``, ``zfill``,
  ``expandtabs``, ``join``, ``replace``, ``translate``, ``format``) is measured before it runs;
- ``*``, ``**``, ``+`` and ``%`` are measured before they compute, ``~`` before it joins;
- the filters that build from a width, a separator or a repeat count (``center``, ``indent``,
  ``join``, ``replace``, ``format``, ``sum``, ``tojson``, ``wordwrap``, ``batch``, ``slice``,
  ``escape``, ``urlencode``, ``string``, ``pprint``) are measured before they run;
- a value written (``{{ x }}``) is measured before it becomes text, and a macro's or block's
  collected output as it is collected, so a macro called in a loop cannot hold more than the
  bound before it returns.

Reads, the commonest thing a template does, are not hooked: a read builds nothing.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sized
from typing import Any, Final, cast

from chatcodec._training import template_limits, template_sizes

LARGE: Final = 4096
"""A string, list or tuple passed to a call or kept in a namespace is measured against the output
bound past this length."""
_BUILT: Final = (str, list, tuple)
"""What a template can build by doubling."""
_STEPS_PER_CLOCK: Final = 16
"""Calls and namespace assignments between clock readings."""
_STEPS = itertools.count(1)
"""Steps counted across runs (a race between threads only moves when the clock is read)."""
LOOP_STEPS: Final = "_chatcodec_steps"
"""The filter every ``for`` loop's iterable passes through."""


def measured(values: Iterable[object]) -> None:
    """Every long string, list or tuple of ``values`` measured against the output bound; the clock
    read every few steps."""
    budget = template_limits.current()
    if budget is None:
        return
    if next(_STEPS) % _STEPS_PER_CLOCK == 0:
        budget.tick()
    for value in values:
        if isinstance(value, _BUILT) and len(cast("Sized", value)) > LARGE:
            budget.sized(len(cast("Sized", value)))


def _loop_steps(iterable: Iterable[Any]) -> Iterable[Any]:
    budget = template_limits.current()
    if budget is None:  # Jinja folding a loop over a constant as it compiles: left to the run
        raise _NotFoldedError
    return budget.steps(iterable)


class _NotFoldedError(Exception):
    """Raised by a measured filter outside a run, so Jinja's optimizer leaves its call to the run
    (it folds a filter of constants as it compiles, where no budget measures it)."""


def _shown(value: Any) -> Any:
    """A value about to be written, its text measured first where it is a container's."""
    if type(value) is not str:
        budget = template_limits.current()
        if budget is not None:
            budget.sized(template_sizes.text_size(value, budget.limits.output_chars), "wrote a value of")
    return value


def _add(left: Any, right: Any) -> Any:
    """A template's ``+``, a sum of two strings, lists or tuples measured before it is made."""
    if isinstance(left, _BUILT) and isinstance(right, _BUILT):
        budget = template_limits.current()
        if budget is not None:
            budget.sized(len(cast("Sized", left)) + len(cast("Sized", right)))
    return cast("Any", left) + right


def _joined_parts(parts: tuple[Any, ...]) -> tuple[Any, ...]:
    """The parts of a ``~``, measured before they are joined."""
    budget = template_limits.current()
    if budget is not None:
        limit = budget.limits.output_chars
        budget.sized(sum(template_sizes.text_size(part, limit) for part in parts), "joined a text of")
    return parts


class _OutputBuffer(list[str]):
    """A macro's or block's output as it is collected, each piece counted against the run's bound."""

    __slots__ = ()

    def append(self, piece: str) -> None:
        budget = template_limits.current()
        if budget is not None:
            budget.collected(len(piece))
        super().append(piece)

    def extend(self, pieces: Iterable[str]) -> None:
        pieces = cast("tuple[str, ...]", pieces) if type(pieces) is tuple else tuple(pieces)
        budget = template_limits.current()
        if budget is not None:
            budget.collected(sum(map(len, pieces)))
        super().extend(pieces)


def _measured_str_method(method: Any, name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> tuple[Any, ...]:
    """``args`` of a string method that pads, repeats, replaces or formats, measured before it
    runs (a generator given to ``join`` read once, into the list handed on)."""
    budget = template_limits.current()
    formatted = getattr(method, "__wrapped__", method)  # the sandbox's str.format keeps the method it wraps
    text = getattr(formatted, "__self__", None)
    if budget is None or not isinstance(text, str):
        return args
    if name == "join" and args and not isinstance(args[0], Sized):
        args = (list(args[0]), *args[1:])
    budget.sized(
        _str_method_size(text, name, args, kwargs, budget.limits.output_chars), f"built with `{name}` a value of"
    )
    return args


def _str_method_size(text: str, name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any], limit: int) -> int:
    first = args[0] if args else None
    if name in ("center", "ljust", "rjust", "zfill"):
        return max(len(text), first) if isinstance(first, int) else 0
    if name == "expandtabs":
        size = kwargs.get("tabsize", first if args else 8)
        return len(text) + text.count("\t") * size if isinstance(size, int) else 0
    if name == "join":
        return (
            template_sizes.joined_size(cast("Iterable[object]", first), text, limit)
            if isinstance(first, list | tuple)
            else 0
        )
    if name == "replace" and len(args) >= 2 and isinstance(first, str) and isinstance(args[1], str):
        count = args[2] if len(args) > 2 and isinstance(args[2], int) else -1
        return template_sizes.replaced_size(text, first, args[1], count)
    if name == "translate" and isinstance(first, Mapping):
        table = cast("Mapping[object, object]", first)
        longest = max((len(v) for v in table.values() if isinstance(v, str)), default=1)
        return len(text) * longest
    if name == "format_map" and len(args) == 1 and isinstance(first, Mapping):
        return template_sizes.format_size(text, (), cast("Mapping[str, Any]", first), limit)
    if name == "format":
        return template_sizes.format_size(text, args, kwargs, limit)
    return 0


_STR_BUILDERS: Final = frozenset(
    {"center", "ljust", "rjust", "zfill", "expandtabs", "join", "replace", "translate", "format", "format_map"}
)


_LOOP_NEIGHBOURS: Final = frozenset({"nextitem", "previtem"})


def _unwatched(value: object) -> object:
    """A loop's neighbour as a plain value: a message the loop has not reached yet, read through
    ``loop.nextitem`` (Qwen3.5 closes a tool result once it sees the next role), is not where that
    message's text starts (:mod:`.message_ends` hands a watched message a ``chatcodec_unwatched``)."""
    unwatched: Callable[[object], object] | None = getattr(type(value), "chatcodec_unwatched", None)
    return value if unwatched is None else unwatched(value)


def bounded_sandbox(jinja2: Any) -> Any:
    """Jinja's immutable sandbox with the running budget checked at each call, operator, loop,
    ``~``, written value and collected output."""
    sandbox = jinja2.sandbox.ImmutableSandboxedEnvironment
    sandbox_call = sandbox.call
    sandbox_getattr = sandbox.getattr
    loop_context = jinja2.runtime.LoopContext

    class BoundedSandbox(sandbox):  # type: ignore[misc,valid-type]
        intercepted_binops = frozenset({"*", "**", "%"})
        code_generator_class = bounded_code(jinja2)

        def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's own
            measured(args)
            name = getattr(__obj, "__name__", None)
            if name in _STR_BUILDERS:
                args = _measured_str_method(__obj, name, args, kwargs)
            return sandbox_call(__self, __context, __obj, *args, **kwargs)

        def getattr(self, obj: Any, attribute: str) -> Any:
            value = sandbox_getattr(self, obj, attribute)
            if attribute in _LOOP_NEIGHBOURS and isinstance(obj, loop_context):
                return _unwatched(value)
            return value

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            budget = template_limits.current()
            if budget is not None:
                budget.before_binop(operator, left, right)
            return self.binop_table[operator](left, right)

    return BoundedSandbox


def bounded_code(jinja2: Any) -> Any:
    """Jinja's code generator with every ``for`` loop's iterable passed through the loop budget,
    every ``~`` measured before it joins, every written value measured before it becomes text,
    and a macro's or block's output collected in a counted buffer."""
    nodes = jinja2.nodes
    generator = jinja2.compiler.CodeGenerator
    visit_template = cast("Callable[..., None]", generator.visit_Template)
    visit_add = cast("Callable[..., None]", generator.visit_Add)

    class BoundedCode(generator):  # type: ignore[misc,valid-type]
        def visit_Template(self, node: Any, frame: Any = None) -> None:  # noqa: N802 - Jinja's own
            for loop in node.find_all(nodes.For):
                loop.iter = nodes.Filter(loop.iter, LOOP_STEPS, [], [], None, None, lineno=loop.iter.lineno)
            visit_template(self, node, frame)

        def visit_Add(self, node: Any, frame: Any) -> None:  # noqa: N802 - Jinja's own
            if self.optimizer is not None and not frame.eval_ctx.volatile:
                folded = self.optimizer.visit(node, frame.eval_ctx)
                if folded != node:  # two constants of the template's own text
                    self.visit(folded, frame)
                    return
            if isinstance(node.left, nodes.Const) or isinstance(node.right, nodes.Const):
                # a constant added grows a value by the template's own text, never doubles it
                visit_add(self, node, frame)
                return
            self.write("environment.chatcodec_add(")
            self.visit(node.left, frame)
            self.write(", ")
            self.visit(node.right, frame)
            self.write(")")

        def visit_Concat(self, node: Any, frame: Any) -> None:  # noqa: N802 - Jinja's own
            if frame.eval_ctx.volatile:
                join = "(markup_join if context.eval_ctx.volatile else str_join)"
            else:
                join = "markup_join" if frame.eval_ctx.autoescape else "str_join"
            self.write(f"{join}(environment.chatcodec_joined_parts((")
            for part in node.nodes:
                self.visit(part, frame)
                self.write(", ")
            self.write(")))")

        def buffer(self, frame: Any) -> None:
            frame.buffer = self.temporary_identifier()
            self.writeline(f"{frame.buffer} = environment.chatcodec_output_buffer()")

    return BoundedCode


def bounded_namespace(jinja2: Any) -> Any:
    """Jinja's ``namespace()``, each assignment measured (``{% set ns.s = ns.s ~ ns.s %}`` in a
    loop doubles a string without a call or any output)."""

    namespace_set: Callable[[Any, str, Any], None] = jinja2.utils.Namespace.__setitem__

    class BoundedNamespace(jinja2.utils.Namespace):  # type: ignore[misc]
        def __setitem__(self, name: str, value: Any) -> None:
            measured((value,))
            namespace_set(self, name, value)

    return BoundedNamespace


def install(environment: Any, jinja2: Any) -> None:
    """The loop budget, the measured builders and the written-value hook on ``environment``."""
    environment.finalize = _shown
    environment.chatcodec_joined_parts = _joined_parts
    environment.chatcodec_add = _add
    environment.chatcodec_output_buffer = _OutputBuffer
    environment.filters[LOOP_STEPS] = _loop_steps
    filters = environment.filters
    for name, size in _FILTER_SIZES.items():
        if name in filters:
            filters[name] = _measured_filter(filters[name], size, name)
    filters["join"] = _measured_join(jinja2, filters["join"])
    filters["sum"] = _linear_sum(jinja2, filters["sum"])
    environment.globals["lipsum"] = _measured_filter(environment.globals["lipsum"], _lipsum_size, "lipsum")
    environment.globals["namespace"] = bounded_namespace(jinja2)


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) else default


def _text(value: object, limit: int) -> int:
    return template_sizes.text_size(value, limit)


def _indent_size(limit: int, s: object, width: object = 4, *_: object, **__: object) -> int:
    unit = len(width) if isinstance(width, str) else _int(width)
    return template_sizes.indented_size(s, unit) if isinstance(s, str) else _text(s, limit) + unit


def _replace_size(limit: int, s: object, old: object = "", new: object = "", count: object = None) -> int:
    if not (isinstance(s, str) and isinstance(old, str) and isinstance(new, str)):
        return 0
    return template_sizes.replaced_size(s, old, new, _int(count, -1))


def _format_size(limit: int, value: object, *args: object, **kwargs: object) -> int:
    return template_sizes.percent_size(value, kwargs or args, limit) if isinstance(value, str) else 0


def _tojson_size(
    limit: int, value: object, ensure_ascii: object = False, indent: object = None, *_: object, **__: object
) -> int:
    if indent is None:
        return _text(value, limit)
    unit = len(indent) if isinstance(indent, str) else max(_int(indent), 0)
    if unit > limit:
        return unit
    return _text(value, limit) + template_sizes.json_indent_size(value, unit, limit)


def _wordwrap_size(limit: int, s: object, *args: object, wrapstring: object = None, **_: object) -> int:
    if not isinstance(s, str) or not isinstance(wrapstring, str):
        return 0
    return template_sizes.indented_size(s, len(wrapstring), lines_only=True)


def _lipsum_size(limit: int, n: object = 5, html: object = True, min: object = 20, max: object = 100) -> int:
    return _int(n) * (_int(max) + _int(min)) * 16


def _center_size(limit: int, value: object, width: object = 80, *_: object, **__: object) -> int:
    return max(_text(value, limit), _int(width))


def _batch_size(limit: int, value: object, linecount: object = 0, fill_with: object = None, *_: object) -> int:
    return 0 if fill_with is None else _int(linecount)


def _slice_size(limit: int, value: object, slices: object = 0, *_: object, **__: object) -> int:
    return _int(slices)


def _escape_size(limit: int, value: object, *_: object, **__: object) -> int:
    return template_sizes.escaped_size(value) if isinstance(value, str) else _text(value, limit) * 6


def _urlencode_size(limit: int, value: object, *_: object, **__: object) -> int:
    return _text(value, limit) * 12  # a character's UTF-8 bytes, each as %XX


def _text_size(limit: int, value: object, *_: object, **__: object) -> int:
    return _text(value, limit)


_FILTER_SIZES: Final[dict[str, Callable[..., int]]] = {
    "center": _center_size,
    "indent": _indent_size,
    "replace": _replace_size,
    "format": _format_size,
    "tojson": _tojson_size,
    "wordwrap": _wordwrap_size,
    "batch": _batch_size,
    "slice": _slice_size,
    "escape": _escape_size,
    "e": _escape_size,
    "forceescape": _escape_size,
    "urlencode": _urlencode_size,
    "string": _text_size,
    "pprint": _text_size,
}
"""What each filter that builds from a width, a separator or a count would build, from its
arguments (the budget's bound first)."""


def _measured_filter(original: Callable[..., Any], size: Callable[..., int], name: str) -> Callable[..., Any]:
    """``original`` measured with ``size`` before it runs; Jinja's context argument, where the
    filter takes one, passed through unmeasured."""
    passes = hasattr(original, "jinja_pass_arg")

    def filter_(*args: Any, **kwargs: Any) -> Any:
        budget = template_limits.current()
        if budget is None:
            raise _NotFoldedError
        else:
            budget.tick()
            measured_args = args[1:] if passes else args
            budget.sized(size(budget.limits.output_chars, *measured_args, **kwargs), f"built with `{name}` a value of")
        return original(*args, **kwargs)

    if passes:
        filter_.__dict__["jinja_pass_arg"] = original.__dict__["jinja_pass_arg"]
    return filter_


def _measured_join(jinja2: Any, original: Callable[..., Any]) -> Callable[..., Any]:
    """``join``: its items read once, measured with the separator between each, then joined."""

    def join(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> str:
        budget = template_limits.current()
        if budget is None:
            raise _NotFoldedError
        if attribute is not None:
            value = map(jinja2.filters.make_attrgetter(eval_ctx.environment, attribute), value)
            attribute = None
        value = list(budget.steps(value))
        budget.sized(template_sizes.joined_size(value, d, budget.limits.output_chars), "joined a text of")
        return cast("str", original(eval_ctx, value, d, attribute))

    return cast("Callable[..., Any]", jinja2.pass_eval_context(join))


def _linear_sum(jinja2: Any, original: Callable[..., Any]) -> Callable[..., Any]:
    """``sum``: a sum of lists or tuples measured first and made in one pass (Python's ``sum``
    copies the total so far at each item); any other sum as Jinja makes it."""

    def sum_(environment: Any, iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
        budget = template_limits.current()
        if budget is None:
            raise _NotFoldedError
        if not isinstance(start, list | tuple):
            return original(environment, iterable, attribute, start)
        if attribute is not None:
            iterable = map(jinja2.filters.make_attrgetter(environment, attribute), iterable)
        items: list[Any] = list(budget.steps(iterable))
        kind: type[Any] = type(cast("object", start))
        if not all(type(item) is kind for item in items):
            return original(environment, items, None, start)  # Python's own TypeError for a mixed sum
        first = cast("Sized", start)
        budget.sized(len(first) + sum(len(cast("Sized", item)) for item in items), "summed a list of")
        return kind(itertools.chain(cast("Iterable[Any]", start), *items))

    return cast("Callable[..., Any]", jinja2.pass_environment(sum_))


def to_json(
    value: object,
    ensure_ascii: bool = False,
    indent: int | None = None,
    separators: Any = None,
    sort_keys: bool = False,
) -> str:
    """transformers' ``tojson``: non-ASCII text kept, ``indent``/``separators``/``sort_keys`` taken."""
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)
