"""``chatcodec.parse_completion``: a model's raw completion back to a canonical assistant message.

The steps: token ids to text (the tokenizer), the end-of-turn token dropped, the
reasoning split off (the reasoning parser,
told whether the prompt opened it), the rest read by the tool-call parser into pieces, the
pieces made a message with every made id and unread span reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from os import PathLike
from typing import TypeVar, cast

from chatcodec._errors import OptionError, PayloadError
from chatcodec._losses import Loss, LossRecorder, OnLoss
from chatcodec._model.messages import AssistantMessage
from chatcodec._public_label import shown_as
from chatcodec._training.completion.end_of_turn import without_end_of_turn
from chatcodec._training.completion.message import assistant_message
from chatcodec._training.completion.parsers import TOOL_CALL_PARSERS
from chatcodec._training.completion.pieces import Piece
from chatcodec._training.completion.reasoning import REASONING_PARSERS, ReasoningParser, split_reasoning
from chatcodec._training.completion.template_link import TemplateLink, template_link
from chatcodec._training.completion.tokens import Decodes, decoded_text
from chatcodec._training.completion.tool_call_parser import ToolCallParser
from chatcodec._training.completion.tool_schemas import read_tool_schemas
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits

ParserT = TypeVar("ParserT")


def parse_completion(
    completion: str | Sequence[int],
    *,
    parser: str | None = None,
    template: str | None = None,
    tools: Iterable[object] | None = None,
    tokenizer: Decodes | str | PathLike[str] | None = None,
    reasoning_parser: str | None = None,
    reasoning_started: bool | None = None,
    first_call_index: int = 0,
    held_call_ids: Iterable[str] = (),
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    template_limits: TemplateLimits = DEFAULT_LIMITS,
) -> AssistantMessage:
    """The assistant message in a model's raw ``completion``, read as an inference server reads it.

    ``completion`` is the sampled text, or its token ids with a ``tokenizer`` (a
    ``tokenizers.Tokenizer``, a Hugging Face tokenizer or a ``tokenizer.json`` path; special
    tokens are kept, they are the markup). ``parser`` is vLLM's ``--tool-call-parser`` name
    (``hermes``, ``qwen3_coder``, ``openai``, ...), or ``template`` a template, as
    :func:`~chatcodec.render` takes it (a family name such as ``"qwen3"`` or ``"gpt-oss"``, or a
    template's Jinja text), that names it; ``reasoning_parser`` is vLLM's
    ``--reasoning-parser`` name, by default the one the family is served with.
    ``reasoning_started``: the generation prompt already opened the reasoning (it ended in
    ``<think>``), so the completion starts inside it; by default the template's profile says
    (its generation prompt); without a template, a named ``reasoning_parser`` reads as its
    server does (vLLM's ``qwen3`` takes a completion that never closes its reasoning as all
    reasoning), and a default one, no. A call the model opens inside open reasoning ends it
    where the family's server says so (Qwen3's ``<tool_call>``; DeepSeek R1 keeps it as reasoning).
    ``tools`` (canonical or OpenAI-shaped) type the values of formats that write them as text.
    ``first_call_index``: the number of calls the episode made before this completion, so
    the ids made here continue its numbering (``call_3`` after three calls) and an episode
    parsed turn by turn holds no id twice (Anthropic refuses a repeated ``tool_use`` id);
    ``held_call_ids``: the ids the conversation already names, which a made id skips (a
    harness's own ids, a result whose call was compacted away).

    The message holds reasoning as thinking, text, and tool calls whose ``arguments`` are the
    model's JSON text (invalid JSON kept as written). A call id the format does not write is
    made and reported (``metadata``); a span marked as a call that cannot be read is kept as an
    :class:`~chatcodec.OpaquePart` and reported (``content``); text the model wrote beside or
    inside call markup is text, in order. Every character is in the message or in a loss.
    ``on_loss`` and ``losses`` work as in :func:`~chatcodec.convert_request`; the paths are in
    the message returned. ``template_limits`` bound each run of a template's text read for its
    profile, as :func:`~chatcodec.render`'s do (a template past them is a
    :class:`~chatcodec.TemplateError` naming the bound).
    """
    link = template_link(template, template_limits) if template is not None else None
    chosen = _tool_call_parser(parser, link)
    named_reasoning = _reasoning_parser(reasoning_parser) if reasoning_parser is not None else None
    text = without_end_of_turn(completion if isinstance(completion, str) else decoded_text(completion, tokenizer))
    pieces: list[Piece] = []
    found = _chosen_reasoning(chosen, link, named_reasoning)
    if found is not None:
        if reasoning_started is None:
            reasoning_started = _opened(found, link, named=named_reasoning is not None)
        reasoning, text = split_reasoning(text, found, started=reasoning_started)
        pieces.extend([reasoning] if reasoning is not None else [])
    pieces.extend(chosen.read(text, read_tool_schemas(tools)))
    recorder = LossRecorder()
    message = assistant_message(
        pieces,
        chosen.name,
        chosen.made_id,
        recorder,
        first_call=_call_index(first_call_index),
        held=_held(held_call_ids),
    )
    recorder.settle(on_loss, losses)
    return message


def reasoning_opener(
    *, parser: str | None = None, template: str | None = None, reasoning_parser: str | None = None
) -> str | None:
    """What opens the reasoning :func:`parse_completion` splits off with these options (the
    chosen reasoning parser's opener, ``<think>``), or None where none is split off (a format
    that reads its own reasoning). A caller that holds the prompt a completion was sampled
    from says ``reasoning_started`` by whether that prompt ends with it, where the template's
    variables (``enable_thinking: false``) change the generation prompt the profile keeps."""
    link = template_link(template) if template is not None else None
    named = _reasoning_parser(reasoning_parser) if reasoning_parser is not None else None
    found = _chosen_reasoning(_tool_call_parser(parser, link), link, named)
    return None if found is None else found.opener


def _chosen_reasoning(
    chosen: ToolCallParser, link: TemplateLink | None, named: ReasoningParser | None
) -> ReasoningParser | None:
    """The reasoning parser a completion is read with: none where the tool-call format reads
    its own; else the one named, the family's, or the tool-call parser's default."""
    if chosen.reads_reasoning:
        return None
    family_reasoning = link.parsers.reasoning_parser if link is not None and link.parsers is not None else None
    default_reasoning = family_reasoning or chosen.reasoning
    return named or (_reasoning_parser(default_reasoning) if default_reasoning is not None else None)


def _call_index(value: object) -> int:
    """``first_call_index`` checked: a count of calls, so an integer from 0."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PayloadError(
            f"the number of calls made before this completion is an integer from 0, not {value!r}",
            "$.first_call_index",
        )
    return value


def _held(ids: object) -> frozenset[str]:
    """``held_call_ids`` checked: strings, the ids a made one must not repeat."""
    items: list[object] | None = None
    if isinstance(ids, Iterable) and not isinstance(ids, str | bytes | Mapping):
        items = list(cast("Iterable[object]", ids))
    if items is None or not all(isinstance(item, str) for item in items):
        raise PayloadError("the ids the conversation holds are a collection of strings", "$.held_call_ids")
    return frozenset(cast("list[str]", items))


def _opened(found: ReasoningParser, link: TemplateLink | None, *, named: bool) -> bool:
    """Whether the completion starts inside the reasoning, when the caller does not say: the
    template's generation prompt says where a template is given; a reasoning parser named
    alone reads as its server reads (vLLM's Qwen3 parser takes a completion that never
    closes its reasoning as all reasoning); a parser picked as the tool-call parser's
    default, no."""
    if link is not None:
        return link.generation_prompt.rstrip().endswith(found.opener)
    return named and found.unclosed_is_reasoning


def _tool_call_parser(parser: str | None, link: TemplateLink | None) -> ToolCallParser:
    if parser is None:
        if link is None or link.parsers is None:
            raise OptionError(
                "name a tool-call parser (vLLM's --tool-call-parser name)"
                + (" or a template family" if link is None else ": the template is of no family chatcodec knows"),
                name="parser",
                valid=sorted(TOOL_CALL_PARSERS),
                path="$.parser",
            )
        parser = link.parsers.tool_call_parser
    return _named(TOOL_CALL_PARSERS, parser, "tool-call parser", "$.parser")


def _reasoning_parser(name: str) -> ReasoningParser:
    return _named(REASONING_PARSERS, name, "reasoning parser", "$.reasoning_parser")


def _named(table: Mapping[str, ParserT], name: str, what: str, path: str) -> ParserT:
    """``table``'s parser of vLLM's ``name``, or an :class:`OptionError` listing the names."""
    found = table.get(name)
    if found is None:
        option = "--" + what.replace(" parser", "-parser").replace(" ", "-")
        raise OptionError(
            f"unknown {what} {name!r} (vLLM's {option} names: {', '.join(sorted(table))})",
            name=name,
            valid=sorted(table),
            path=path,
        )
    return found


shown_as("chatcodec", parse_completion)
