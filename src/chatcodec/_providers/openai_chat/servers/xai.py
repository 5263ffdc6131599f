"""xAI (``https://api.x.ai/v1``): reasoning models refuse some sampling fields.

Its reasoning guide: "presencePenalty, frequencyPenalty and stop parameters are not
supported by reasoning models. Adding them in the request would result in an error"
(https://docs.x.ai/docs/guides/reasoning); ``reasoning_effort`` is taken by the models
that offer it (``none``, ``low``, ``medium``, ``high`` on grok-4.3,
https://docs.x.ai/developers/model-capabilities/text/reasoning#effort-levels) and refused
by some others (grok-4.20, https://github.com/vercel/ai/releases/tag/@ai-sdk%2Fxai@4.0.8):
a per-model refusal this record does not hold yet. Reasoning comes back as
``reasoning_content`` and is not taken back.
"""

from __future__ import annotations

import re

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Server, ServerCall, ServerRule
from chatcodec.contract import Extension

DOCS = "https://docs.x.ai/docs/api-reference#chat-completions"
REASONING = "https://docs.x.ai/docs/guides/reasoning"
_NOT_REASONING = re.compile(r"non-reasoning")
_REASONING_MODELS = re.compile(r"grok-(3-mini|4|code)")
_REFUSED = ("presence_penalty", "frequency_penalty", "stop")


def _reasoning_model_parameters(call: ServerCall) -> None:
    model = (call.model or "").lower()
    if not _REASONING_MODELS.search(model) or _NOT_REASONING.search(model):
        return
    for field in _REFUSED:
        if field in call.body:
            del call.body[field]
            call.report((field,), field, f"not sent: xAI reasoning models refuse it ({REASONING})")


SERVER = Server(
    "xai",
    "xAI",
    DOCS,
    hosts=("api.x.ai",),
    models=(r"grok-[\w.-]+",),
    extensions=tuple(
        Extension(kinds.PROVIDER, kind, ("reasoning_content",), REASONING) for kind in kinds.ANSWER_MESSAGES
    ),
    reasoning_source=REASONING + " (reasoning_content is returned, not read back)",
    efforts=("none", "low", "medium", "high"),
    efforts_source="https://docs.x.ai/developers/model-capabilities/text/reasoning#effort-levels",
    parts=frozenset({"text", "image_url"}),
    parts_source="https://docs.x.ai/docs/guides/image-understanding",
    rules=(
        ServerRule(
            "reasoning_model_parameters",
            "`presence_penalty`, `frequency_penalty` and `stop` are not sent to grok reasoning models",
            REASONING,
            _reasoning_model_parameters,
        ),
    ),
    semconv_name="x_ai",
    # sampling_ranges: OpenAI's, as its reference gives them (temperature between 0 and 2; top_p; penalties
    # between -2.0 and 2.0: https://docs.x.ai/docs/api-reference#chat-completions)
)
"""xAI."""
