"""Which parsers read a template family's completions: the link from a template (``render``'s
``template=``) to ``parse_completion``.

Each family names the tool-call and reasoning parsers its models are served with (vLLM's
names, from the model's card or vLLM's recipe). Whether the generation prompt opens the
reasoning is no fact kept here: it is read from the family's template profile
(:attr:`~chatcodec.TemplateProfile.generation_prompt`), where the renderer reads it too.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FamilyParsers:
    """The parsers for one template family."""

    tool_call_parser: str
    reasoning_parser: str | None
    source: str


_QWEN3 = FamilyParsers(
    "hermes",
    "qwen3",
    "Qwen3 model cards: vllm serve --enable-auto-tool-choice --tool-call-parser hermes --reasoning-parser qwen3",
)
_QWEN35 = FamilyParsers(
    "qwen3_coder",
    "qwen3",
    "Qwen3.5/3.6 model cards: --tool-call-parser qwen3_coder --reasoning-parser qwen3 (the template writes "
    "<tool_call><function=...>)",
)
_QWEN_VL = FamilyParsers(
    "hermes",
    None,
    "vLLM docs, Tool Calling: Qwen2.5 and Qwen3 with hermes; the Qwen3-VL template writes their <tool_call> JSON "
    "and no reasoning (the Qwen2.5-VL template writes no tools)",
)
_LLAMA3 = FamilyParsers("llama3_json", None, "vLLM docs, Tool Calling: Llama 3.1 and 3.2 JSON calls with llama3_json")
_DEEPSEEK_V3 = FamilyParsers(
    "deepseek_v3",
    "deepseek_r1",
    "vLLM docs, Tool Calling: DeepSeek-V3 and R1 with deepseek_v3, reasoning deepseek_r1",
)
_GLM45 = FamilyParsers("glm45", "glm45", "GLM-4.5 model card: --tool-call-parser glm45 --reasoning-parser glm45")
_GPT_OSS = FamilyParsers("openai", None, "vLLM's gpt-oss recipe: --tool-call-parser openai (harmony channels)")
_NEMOTRON3 = FamilyParsers(
    "qwen3_coder",
    "nemotron_v3",
    "NVIDIA Nemotron 3 model cards: --tool-call-parser qwen3_coder with its reasoning parser",
)

FAMILY_PARSERS: dict[str, FamilyParsers] = {
    "qwen3": _QWEN3,
    "qwen3-training": _QWEN3,
    "qwen3.5": _QWEN35,
    "qwen3.6": _QWEN35,
    "qwen3.5-training": _QWEN35,
    "qwen3.6-training": _QWEN35,
    "qwen3-vl": _QWEN_VL,
    "qwen2.5-vl": _QWEN_VL,
    "llama3.1": _LLAMA3,
    "llama3.2": _LLAMA3,
    "deepseek-v3": _DEEPSEEK_V3,
    "deepseek-v3-training": _DEEPSEEK_V3,
    "glm-4.5": _GLM45,
    "glm-4.5-training": _GLM45,
    "gpt-oss": _GPT_OSS,
    "gpt-oss-training": _GPT_OSS,
    "nemotron-3": _NEMOTRON3,
    "nemotron-3-super": _NEMOTRON3,
    "nemotron-3-training": _NEMOTRON3,
    "nemotron-3-super-training": _NEMOTRON3,
    "kimi-k2": FamilyParsers("kimi_k2", "kimi_k2", "Kimi K2 deployment guide: --tool-call-parser kimi_k2"),
    "mistral": FamilyParsers("mistral", "mistral", "vLLM docs, Tool Calling: Mistral models with mistral"),
}
"""The parsers by template family: every family the template profiles know
(``chatcodec._training.families``), and Kimi K2 and Mistral, whose templates chatcodec does not
keep yet."""
