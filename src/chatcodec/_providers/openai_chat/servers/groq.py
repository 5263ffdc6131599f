"""Groq (``https://api.groq.com/openai/v1``): the SDK's body less what it refuses with a 400.

Its compatibility page lists the fields it does not support: ``logprobs``,
``logit_bias``, ``top_logprobs``, ``messages[].name``, and ``n`` other than 1
(https://console.groq.com/docs/openai). It refuses reasoning on assistant messages too:
"'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' :
property 'reasoning_content' is unsupported)]", and the same for ``reasoning``
(https://github.com/janhq/jan/issues/8136, https://github.com/musistudio/llms/pull/64).
Reasoning comes back as ``reasoning``, set by ``reasoning_format`` / ``include_reasoning``
(https://console.groq.com/docs/reasoning).
"""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Refusal, Server, ServerCall, ServerRule
from chatcodec.contract import Extension

DOCS = "https://console.groq.com/docs/openai"
_REASONING = "https://console.groq.com/docs/reasoning"
_REFERENCE = "https://console.groq.com/docs/api-reference#chat-create"
_NO_REASONING_BACK = "https://github.com/janhq/jan/issues/8136 ; https://github.com/musistudio/llms/pull/64"
_RECORDED = "recorded, no documentation found: tests/fixtures/openai-chat/stream/groq_reasoning_channel_tool_call.sse"


def _one_choice(call: ServerCall) -> None:
    """``n`` must be 1 (or absent)."""
    n = call.body.get("n")
    if n is not None and n != 1:
        del call.body["n"]
        call.report(("n",), f"n {n!r}", f"not sent: Groq takes n=1 only ({DOCS})")


SERVER = Server(
    "groq",
    "Groq",
    DOCS,
    hosts=("api.groq.com",),
    refuses=tuple(Refusal(field, DOCS) for field in ("logprobs", "logit_bias", "top_logprobs", "messages[].name")),
    extensions=(
        *(
            Extension(kinds.PROVIDER, kind, ("reasoning_format", "include_reasoning"), _REASONING)
            for kind in kinds.REQUESTS
        ),
        *(Extension(kinds.PROVIDER, kind, ("reasoning",), _REASONING) for kind in kinds.ANSWER_MESSAGES),
        Extension(
            kinds.PROVIDER,
            "CompletionUsage",
            ("queue_time", "prompt_time", "completion_time", "total_time"),
            _REFERENCE,
        ),
        Extension(kinds.PROVIDER, "ChatCompletionChunk", ("x_groq",), _REFERENCE),
        Extension(kinds.PROVIDER, "ChoiceDelta", ("channel",), _RECORDED),
    ),
    reasoning_source=_NO_REASONING_BACK,
    efforts=("none", "low", "medium", "high"),
    efforts_source=_REASONING + "#reasoning-effort",
    parts=frozenset({"text", "image_url"}),
    parts_source="https://console.groq.com/docs/vision",
    rules=(ServerRule("one_choice", "`n` other than 1 is not sent", DOCS, _one_choice),),
    semconv_name="groq",
    # sampling_ranges: OpenAI's, as its reference gives them (temperature between 0 and 2; top_p; penalties
    # between -2.0 and 2.0: https://console.groq.com/docs/api-reference#chat-create)
)
"""Groq."""
