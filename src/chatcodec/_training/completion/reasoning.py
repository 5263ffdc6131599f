"""Reasoning parsers: where a completion's reasoning ends and its answer begins.

vLLM registers them beside the tool-call parsers (``--reasoning-parser``); they differ only
in their delimiters and in what a completion without the opener means. The prompt decides
the second: a template whose generation prompt already wrote ``<think>`` (DeepSeek-R1,
Qwen3's thinking-only models) leaves the model to write only the reasoning and ``</think>``,
so a completion is read as inside the reasoning from its first character
(``reasoning_started``). A bare closer ends the reasoning wherever it is: the text before it
is reasoning, never answer text (the leak users report when a parser waits for an opener the
prompt already wrote).

Whitespace: the newlines around the reasoning and at the start of the answer are the
template's separators (Qwen3 writes ``<think>\\n...\\n</think>\\n\\n``), not the model's text:
they are stripped as the templates strip them when they render the turn again.
"""

from __future__ import annotations

from dataclasses import dataclass

from chatcodec._training.completion.pieces import Reasoning


@dataclass(frozen=True, slots=True)
class ReasoningParser:
    """One reasoning format: its delimiters, registered under vLLM's ``--reasoning-parser`` name."""

    name: str
    opener: str
    closer: str
    source: str
    """Where the format is documented."""


REASONING_PARSERS: dict[str, ReasoningParser] = {
    parser.name: parser
    for parser in (
        ReasoningParser("deepseek_r1", "<think>", "</think>", "vllm/reasoning/deepseek_r1_reasoning_parser.py"),
        ReasoningParser("qwen3", "<think>", "</think>", "vllm/reasoning/qwen3_reasoning_parser.py"),
        ReasoningParser("glm45", "<think>", "</think>", "vllm/reasoning/glm4_moe_reasoning_parser.py"),
        ReasoningParser("kimi_k2", "<think>", "</think>", "vllm/reasoning/kimi_k2_reasoning_parser.py"),
        ReasoningParser("minimax_m2", "<think>", "</think>", "vllm/reasoning/minimax_m2_reasoning_parser.py"),
        ReasoningParser("deepseek_v3", "<think>", "</think>", "vllm/reasoning/deepseek_v3_reasoning_parser.py"),
        ReasoningParser("deepseek_v4", "<think>", "</think>", "vllm/reasoning/deepseek_v4_reasoning_parser.py"),
        ReasoningParser("nemotron_v3", "<think>", "</think>", "vllm/reasoning/nemotron_v3_reasoning_parser.py"),
        ReasoningParser("mistral", "[THINK]", "[/THINK]", "vllm/reasoning/mistral_reasoning_parser.py (Magistral)"),
    )
}
"""The reasoning parsers by vLLM's name; gpt-oss's harmony channels carry their own
(``openai``'s tool parser reads the analysis channel)."""


def split_reasoning(text: str, parser: ReasoningParser, *, started: bool) -> tuple[Reasoning | None, str]:
    """The reasoning at the start of ``text`` (None when there is none) and the text after it.

    ``started``: the prompt opened the reasoning, so ``text`` begins inside it; a completion
    that never closes it (cut off at the token limit) is all reasoning."""
    body = text.lstrip()
    if body.startswith(parser.opener):
        body = body[len(parser.opener) :]
        started = True
    else:
        body = text
    end = body.find(parser.closer)
    if end < 0:
        if started:
            return Reasoning(body.strip("\n")), ""
        return None, text
    return Reasoning(body[:end].strip("\n")), body[end + len(parser.closer) :].lstrip("\n")
