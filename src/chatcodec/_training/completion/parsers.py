"""The tool-call parsers by vLLM's ``--tool-call-parser`` name."""

from __future__ import annotations

from chatcodec._training.completion.formats.deepseek_v3 import DEEPSEEK_V3, DEEPSEEK_V31
from chatcodec._training.completion.formats.dsml import DEEPSEEK_V4, DEEPSEEK_V32
from chatcodec._training.completion.formats.glm45 import GLM45, GLM47
from chatcodec._training.completion.formats.harmony import OPENAI
from chatcodec._training.completion.formats.hermes import HERMES
from chatcodec._training.completion.formats.kimi_k2 import KIMI_K2
from chatcodec._training.completion.formats.llama3_json import LLAMA3_JSON
from chatcodec._training.completion.formats.minimax_m2 import MINIMAX_M2
from chatcodec._training.completion.formats.mistral import MISTRAL
from chatcodec._training.completion.formats.pythonic import LLAMA4_PYTHONIC, PYTHONIC
from chatcodec._training.completion.formats.qwen3_xml import QWEN3_CODER, QWEN3_XML
from chatcodec._training.completion.tool_call_parser import ToolCallParser

TOOL_CALL_PARSERS: dict[str, ToolCallParser] = {
    parser.name: parser
    for parser in (
        HERMES,
        PYTHONIC,
        LLAMA4_PYTHONIC,
        MISTRAL,
        QWEN3_XML,
        QWEN3_CODER,
        KIMI_K2,
        DEEPSEEK_V3,
        DEEPSEEK_V31,
        DEEPSEEK_V32,
        DEEPSEEK_V4,
        MINIMAX_M2,
        GLM45,
        GLM47,
        LLAMA3_JSON,
        OPENAI,
    )
}
"""Each parser under the name vLLM registers it by (``vllm serve --tool-call-parser NAME``)."""
