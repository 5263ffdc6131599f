"""Static checks of ``options=``: a misspelt literal key is a type error in user code.

Run by mypy and pyright (``make test``), not by pytest. Each line marked ``type: ignore``
is misuse the checkers must flag; with ``warn_unused_ignores`` (mypy) and
``reportUnnecessaryTypeIgnoreComment`` (pyright), an ignore no longer needed fails CI.
"""

from __future__ import annotations

import chatcodec
from chatcodec.options import AnthropicOptions, OpenAIChatOptions

request = chatcodec.decode_request("openai-chat", {"model": "m", "messages": []})

# --- what type-checks ------------------------------------------------------------------

chatcodec.encode_request("anthropic", request, options={"max_tokens": 1024, "model": "claude-sonnet-4-5"})
chatcodec.convert_request({}, source="openai-chat", target="openai-chat", options={"reasoning_field": None})
chatcodec.convert_request({}, source="openai-chat", target="anthropic", extra_fields={"metadata": {"user_id": "u"}})
settings: AnthropicOptions = {"max_tokens": 1024, "skip_rules": ["sampling_removed"]}
chatcodec.encode_request("anthropic", request, options=settings)
streaming: OpenAIChatOptions = {"include_usage": True}
chatcodec.encode_stream("openai-chat", [], options=streaming)
chatcodec.decode_request("openai-chat", {}, options={"server": "groq"})

# --- misuse the checkers must reject -------------------------------------------------

chatcodec.encode_request("anthropic", request, options={"max_token": 1024})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
chatcodec.convert_request({}, source="a", target="b", options={"reasoning_feild": None})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
chatcodec.encode_request("anthropic", request, options={"max_tokens": "many"})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
chatcodec.encode_request("anthropic", request, options={"unsigned_thinking": "keep"})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
wrong: AnthropicOptions = {"reasoning_field": "reasoning"}  # type: ignore[typeddict-unknown-key]  # pyright: ignore[reportAssignmentType]
chatcodec.decode_request("openai-chat", {}, options={"sever": "groq"})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
