"""Reasoning parsers: where a completion's reasoning ends and its answer begins.

vLLM registers them beside the tool-call parsers (``--reasoning-parser``); they differ in
their delimiters, in what ends the reasoning besides the closer, and in what a completion
without the opener means. The prompt decides the last: a template whose generation prompt
already wrote ``<think>`` (DeepSeek-R1, Qwen3's thinking-only models) leaves the model to
write only the reasoning and ``</think>``, so a completion is read as inside the reasoning
from its first character (``reasoning_started``); with no template, the parser's own reading
decides, as the server's does. A bare closer ends the reasoning wherever it is: the text
before it is reasoning, never answer text (the leak users report when a parser waits for an
opener the prompt already wrote).

A tool call inside open reasoning: some families' models open a call without closing their
reasoning first, and their servers take the call's opener as the reasoning's end (vLLM's
Qwen3 parser engine moves from reasoning to a tool call on ``<tool_call>``; Kimi K2's on
``<|tool_calls_section_begin|>``; DeepSeek V4's on its DSML ``tool_calls`` tag). Others (DeepSeek
R1 and V3, and gpt-oss's analysis channel) keep a call drafted inside the reasoning as
reasoning. Which is which is each parser's data below, with its source.

Whitespace: the newlines around the reasoning and at the start of the answer are the
template's separators (Qwen3 writes ``<think>\\n...\\n</think>\\n\\n``), not the model's text:
they are stripped as the templates strip them when they render the turn again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from chatcodec._training.completion.pieces import Reasoning


@dataclass(frozen=True, slots=True)
class ReasoningParser:
    """One reasoning format: its delimiters, registered under vLLM's ``--reasoning-parser`` name."""

    name: str
    opener: str
    closer: str
    source: str
    """Where the format is documented."""
    call_openers: tuple[str, ...] = ()
    """The tool-call openers that end open reasoning (the opener stays, for the tool-call
    parser); none where the family's server keeps a drafted call as reasoning."""
    unclosed_is_reasoning: bool = False
    """With no opener, no closer and no template to say whether the prompt opened the
    reasoning: the server reads the whole completion as reasoning (cut off before its
    closer), as vLLM's parser does when thinking is on by default."""


_QWEN3_ENGINE = "vllm/frontend/processing/parser/qwen3.py (qwen3_config: REASONING + TOOL_START ends the reasoning)"
REASONING_PARSERS: dict[str, ReasoningParser] = {
    parser.name: parser
    for parser in (
        ReasoningParser(
            "deepseek_r1",
            "<think>",
            "</think>",
            "vllm/reasoning/deepseek_r1_reasoning_parser.py (no </think>: all reasoning; no call ends it)",
            unclosed_is_reasoning=True,
        ),
        ReasoningParser(
            "qwen3", "<think>", "</think>", _QWEN3_ENGINE, call_openers=("<tool_call>",), unclosed_is_reasoning=True
        ),
        ReasoningParser(
            "glm45",
            "<think>",
            "</think>",
            "vllm/frontend/processing/parser/glm47_moe.py (registered for glm45 and glm47)",
            call_openers=("<tool_call>",),
            unclosed_is_reasoning=True,
        ),
        ReasoningParser(
            "kimi_k2",
            "<think>",
            "</think>",
            "vllm/reasoning/kimi_k2_reasoning_parser.py (the tool section's start is an implicit end)",
            call_openers=("<|tool_calls_section_begin|>",),
            unclosed_is_reasoning=True,
        ),
        ReasoningParser(
            "minimax_m2",
            "<think>",
            "</think>",
            "vllm/frontend/processing/parser/minimax_m2.py (starts in REASONING; TOOL_START ends it)",
            call_openers=("<minimax:tool_call>",),
            unclosed_is_reasoning=True,
        ),
        ReasoningParser(
            "deepseek_v3",
            "<think>",
            "</think>",
            "vllm/reasoning/deepseek_v3_reasoning_parser.py (thinking off by default: no tags, no reasoning)",
        ),
        ReasoningParser(
            "deepseek_v4",
            "<think>",
            "</think>",
            "vllm/frontend/processing/parser/deepseek_v4.py (thinking on by default: starts in REASONING; "
            "TOOL_START ends it, as vllm/reasoning/deepseek_v4_reasoning_parser.py's implicit end markers)",
            call_openers=("<\uff5cDSML\uff5ctool_calls>",),
            unclosed_is_reasoning=True,
        ),
        ReasoningParser(
            "nemotron_v3",
            "<think>",
            "</think>",
            "vllm/frontend/processing/parser/nemotron_v3.py (qwen3_config under its own name)",
            call_openers=("<tool_call>",),
            unclosed_is_reasoning=True,
        ),
        ReasoningParser(
            "mistral",
            "[THINK]",
            "[/THINK]",
            "vllm/reasoning/mistral_reasoning_parser.py (Magistral); tests/reasoning/test_mistral_reasoning_parser.py "
            "(NO_CONTENT: a completion with neither token is all reasoning)",
            unclosed_is_reasoning=True,
        ),
    )
}
"""The reasoning parsers by vLLM's name; gpt-oss's harmony channels carry their own
(``openai``'s tool parser reads the analysis channel, where a drafted call stays reasoning)."""


def split_reasoning(text: str, parser: ReasoningParser, *, started: bool) -> tuple[Reasoning | None, str]:
    """The reasoning at the start of ``text`` (None when there is none) and the text after it.

    ``started``: the prompt opened the reasoning, so ``text`` begins inside it; a completion
    that never closes it (cut off at the token limit) is all reasoning, unless one of the
    parser's call openers ends it first. Reasoning the model closes keeps what it holds: a
    ``<tool_call>`` written before ``</think>`` (a model thinking about its markup) is no call."""
    body = text.lstrip()
    if body.startswith(parser.opener):
        body = body[len(parser.opener) :]
        started = True
    else:
        body = text
    end = body.find(parser.closer)
    if end >= 0:
        return Reasoning(body[:end].strip("\n")), body[end + len(parser.closer) :].lstrip("\n")
    if not started:
        return None, text
    call = _first_call_opener(body, parser)
    if call is not None:
        return Reasoning(body[:call].strip("\n").rstrip()), body[call:]
    return Reasoning(body.strip("\n")), ""


def _first_call_opener(body: str, parser: ReasoningParser) -> int | None:
    """Where the first of the parser's call openers stands in ``body``, or None."""
    if not parser.call_openers:
        return None
    found = _openers(parser.call_openers).search(body)
    return None if found is None else found.start()


@cache
def _openers(openers: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(opener) for opener in openers))
