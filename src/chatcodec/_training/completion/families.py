"""Which parsers read a template family's completions: the link from a template profile
(``chatcodec.render``'s ``template=``) to ``parse_completion``.

Each family names the tool-call and reasoning parsers vLLM's recipes serve its models with,
and whether its generation prompt opens the reasoning itself (so the model writes no
``<think>``): data with a source, as the profiles are.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FamilyParsers:
    """The parsers for one template family."""

    tool_call_parser: str
    reasoning_parser: str | None
    prompt_opens_reasoning: bool
    """The generation prompt ends in the reasoning opener (``<think>\\n``)."""
    source: str


FAMILY_PARSERS: dict[str, FamilyParsers] = {
    "qwen3": FamilyParsers(
        "hermes", "qwen3", False, "Qwen3 model cards (vLLM: --tool-call-parser hermes --reasoning-parser qwen3)"
    ),
    "qwen3.5": FamilyParsers(
        "qwen3_coder",
        "qwen3",
        True,
        "Qwen3.5 model cards (vLLM: --tool-call-parser qwen3_coder --reasoning-parser qwen3); its template's "
        "generation prompt writes <think>\\n when thinking is on",
    ),
    "llama3": FamilyParsers("llama3_json", None, False, "vLLM docs, tool calling: Llama 3.1 with llama3_json"),
    "deepseek-v3": FamilyParsers(
        "deepseek_v3", "deepseek_r1", False, "vLLM docs, tool calling: DeepSeek-V3 with deepseek_v3"
    ),
    "deepseek-r1": FamilyParsers(
        "deepseek_v3", "deepseek_r1", True, "DeepSeek-R1-0528's template ends its generation prompt with <think>\\n"
    ),
    "glm-4.5": FamilyParsers(
        "glm45", "glm45", False, "GLM-4.5 model card (vLLM: --tool-call-parser glm45 --reasoning-parser glm45)"
    ),
    "gpt-oss": FamilyParsers("openai", None, False, "vLLM's gpt-oss recipe (--tool-call-parser openai)"),
    "nemotron-3": FamilyParsers(
        "qwen3_coder",
        "nemotron_v3",
        True,
        "NVIDIA Nemotron 3 Nano model card (vLLM: --tool-call-parser qwen3_coder); its template's generation "
        "prompt writes <think>\\n when thinking is on",
    ),
    "kimi-k2": FamilyParsers(
        "kimi_k2", "kimi_k2", False, "Kimi K2 deployment guide (vLLM: --tool-call-parser kimi_k2)"
    ),
    "mistral": FamilyParsers("mistral", "mistral", False, "vLLM docs, tool calling: Mistral models with mistral"),
}
"""The parsers by the family names the template profiles use."""
