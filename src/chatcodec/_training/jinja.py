"""A chat template run as transformers runs it, with the spans its generation tags mark.

A template is only right when it runs in the environment its authors tested it in:
``transformers``' ``apply_chat_template`` uses Jinja's immutable sandbox with ``trim_blocks``
and ``lstrip_blocks``, the ``loopcontrols`` extension, a ``tojson`` filter that keeps
non-ASCII text and takes ``indent``/``separators``/``sort_keys``, and two globals
(``raise_exception``, ``strftime_now``). The same environment is built here, so a template's
text renders here byte for byte as it does there, without transformers (or torch) installed.

``{% generation %}`` ... ``{% endgeneration %}`` (transformers' ``AssistantTracker``) marks
the text a model samples; the tags render their body unchanged and the character span of
each is returned beside the text. Jinja is the ``templates`` extra: the core never imports it.

A template is code from a model hub: one run is bounded in time and output
(:mod:`.template_limits`, beyond transformers, which bounds neither), and anything it raises
(``1/0``, a float overflow, a macro calling itself) comes out as a :class:`TemplateError`
naming the rule, never as Python's own exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from chatcodec._extras import missing_extra
from chatcodec._training import compiled_templates, template_limits, template_sandbox
from chatcodec._training.errors import TemplateError
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits


def _jinja() -> Any:
    try:
        import jinja2
        import jinja2.ext as _ext
        import jinja2.sandbox as _sandbox
    except ModuleNotFoundError as error:  # pragma: no cover - the dev install has it
        raise missing_extra("Rendering a chat template", "templates", "jinja2") from error
    del _ext, _sandbox  # imported for jinja2.ext and jinja2.sandbox, read through jinja2
    return jinja2


def _raise_exception(message: str) -> None:
    raise TemplateError(f"the template refused its input: {message}", refusal=message)


def _strftime_now(format: str) -> str:
    return datetime.now().strftime(format)


def _range(*args: int) -> range:
    """Jinja's sandboxed ``range`` (at most ``MAX_RANGE`` items), refused in chatcodec's words."""
    steps = range(*args)
    limit: int = _jinja().sandbox.MAX_RANGE
    if len(steps) > limit:
        raise TemplateError(
            f"the chat template asked for a range of {len(steps):,} items; the sandbox allows {limit:,}",
            rule="template_range",
        )
    return steps


@lru_cache(maxsize=1)
def _environment() -> Any:
    jinja2 = _jinja()

    class GenerationTags(jinja2.ext.Extension):  # type: ignore[misc,name-defined]
        """``{% generation %}``: renders its body and notes the body's span in the output."""

        tags = {"generation"}  # noqa: RUF012 - Jinja's own class attribute

        def parse(self, parser: Any) -> Any:
            lineno = next(parser.stream).lineno
            body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
            call = self.call_method("_generation", [jinja2.nodes.ContextReference()])
            return jinja2.nodes.CallBlock(call, [], [], body).set_lineno(lineno)

        def _generation(self, context: Any, caller: Callable[[], str]) -> str:
            body = caller()
            spans = context.get("_chatcodec_spans")
            written = context.get("_chatcodec_written")
            if spans is not None and isinstance(written, Written):
                spans.append((written.length, written.length + len(body)))
            return body

    environment = template_sandbox.bounded_sandbox(jinja2)(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationTags, jinja2.ext.loopcontrols]
    )
    environment.filters["tojson"] = template_sandbox.to_json
    environment.globals["raise_exception"] = _raise_exception
    environment.globals["strftime_now"] = _strftime_now
    environment.globals["range"] = _range
    template_sandbox.install(environment, jinja2)
    return environment


@lru_cache(maxsize=64)
def compiled(template: str) -> Any:
    """``template`` compiled once (a profile's probes render it dozens of times), its code kept on
    disk for the next process (:mod:`.compiled_templates`); as ``from_string`` builds it."""
    jinja2 = _jinja()
    try:
        environment = _environment()
        code = compiled_templates.compiled_code(environment, template)
        return environment.template_class.from_code(environment, code, environment.make_globals(None), None)
    except jinja2.TemplateSyntaxError as error:
        raise TemplateError(f"the chat template is not valid Jinja: {error.message} (line {error.lineno})") from error
    except (RecursionError, SyntaxError, MemoryError) as error:
        raise _too_deep(error) from error


def _too_deep(error: Exception) -> TemplateError:
    """A template nested past what Jinja's parser or Python's compiler can read (500 parentheses,
    blocks in blocks), refused in chatcodec's words, not as the reader's own exception."""
    return TemplateError(
        f"the chat template nests too deep to be read ({type(error).__name__}: {error})", rule="template_depth"
    )


class Written:
    """How many characters a render has yielded so far, kept as it goes: a generation tag
    reads where its body starts, and a trace of the render (:mod:`.message_ends`) where a
    message's text starts, without summing the chunks so far at each read."""

    __slots__ = ("length",)

    def __init__(self) -> None:
        self.length = 0


def has_generation_tags(template: str) -> bool:
    """Whether ``template`` marks what the model samples with ``{% generation %}``."""
    jinja2 = _jinja()
    try:
        parsed = _environment().parse(template)
    except (RecursionError, MemoryError) as error:
        raise _too_deep(error) from error
    return any(
        isinstance(node.call, jinja2.nodes.Call) and getattr(node.call.node, "name", None) == "_generation"
        for node in parsed.find_all(jinja2.nodes.CallBlock)
    )


def run(
    template: str,
    messages: Sequence[Mapping[str, Any]],
    *,
    tools: Sequence[Mapping[str, Any]] | None = None,
    add_generation_prompt: bool = False,
    variables: Mapping[str, Any] | None = None,
    limits: TemplateLimits = DEFAULT_LIMITS,
    written: Written | None = None,
) -> tuple[str, list[tuple[int, int]]]:
    """The text ``template`` renders for ``messages`` and the spans of its generation tags.

    ``variables`` are the other names the template reads (``bos_token``,
    ``enable_thinking``, ``reasoning_effort``), as ``apply_chat_template`` passes its keyword
    arguments and the tokenizer's special tokens. A refusal (``raise_exception``), a failure
    inside the template, or a run past ``limits`` is a :class:`TemplateError`. ``written``, where
    given, is kept at the output's length as the render goes; a list of ``messages`` is passed as
    it is, so a list that watches the template's reads (:mod:`.message_ends`) sees them.
    """
    jinja2 = _jinja()
    spans: list[tuple[int, int]] = []
    output: list[str] = []
    written = Written() if written is None else written
    context = {
        **(variables or {}),
        "messages": messages if isinstance(messages, list) else list(messages),
        "tools": list(tools) if tools else None,
        "add_generation_prompt": add_generation_prompt,
        # the tags' callback finds the output's length so far and its span list in the
        # render's own context, so renders in several threads keep apart
        "_chatcodec_spans": spans,
        "_chatcodec_written": written,
    }
    try:
        with template_limits.running(limits) as budget:
            size, bound = 0, limits.output_chars
            for chunk in compiled(template).generate(**context):
                output.append(chunk)
                written.length += len(chunk)
                size += len(chunk)
                if size > bound:
                    budget.sized(size, "wrote")
    except TemplateError:
        raise
    except jinja2.UndefinedError as error:
        raise TemplateError(f"the chat template failed: {error}", path=_lacking(error, tools)) from error
    except jinja2.TemplateError as error:
        raise TemplateError(f"the chat template failed: {error}", rule="template_failed") from error
    except RecursionError as error:
        raise TemplateError(
            "the chat template failed: it recursed too deep (a macro calling itself, or a value nested too deep "
            "for its filters)",
            rule="template_depth",
        ) from error
    except Exception as error:  # a template is code: 1/0, a float overflow, a filter's own error
        raise TemplateError(
            f"the chat template failed on its input: {type(error).__name__}: {error}", rule="template_failed"
        ) from error
    return "".join(output), spans


def _lacking(error: Exception, tools: Sequence[Mapping[str, Any]] | None) -> str | None:
    """The path of the first tool without the field a template failed to read, where one lacks it.

    A template reads its tools' fields unguarded (gpt-oss writes every tool's ``description``),
    while OpenAI's tools may leave out all but the name: Jinja's words name the field, not the
    tool, so the tool is found here. A field every tool carries names no tool (the template
    read it elsewhere).
    """
    words = str(error)
    for marker in ("has no attribute '", "has no element '"):
        start = words.find(marker)
        if start >= 0:
            field = words[start + len(marker) :].partition("'")[0]
            break
    else:
        return None
    for index, tool in enumerate(tools or ()):
        function = tool.get("function")
        if isinstance(function, Mapping):
            if field not in function:
                return f"$.tools[{index}].function.{field}"
        elif field not in tool:
            return f"$.tools[{index}].{field}"
    return None
