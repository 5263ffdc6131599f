"""Mistral's chat API (``https://api.mistral.ai/v1``): OpenAI-shaped, its own field list.

The reference lists its fields (https://docs.mistral.ai/api/#tag/chat): the seed is
``random_seed``, the limit ``max_tokens``; there is no ``logit_bias``, ``logprobs``,
``user``, ``store`` or ``metadata``, and an unknown field is refused (422 "Extra inputs
are not permitted"). Its own additions are ``safe_prompt`` and ``prompt_mode``. Reasoning
models answer with ``{"type": "thinking", "thinking": [...]}`` content parts, which go back
the same way (https://docs.mistral.ai/capabilities/reasoning/), and so does reasoning from
any other provider: the writer puts each thinking part in its place in ``content`` as a
``thinking`` chunk for this server (interleaved thinking keeps its order: ``servers.prepare``),
and the ``thinking_chunks`` rule moves reasoning still in ``reasoning_content`` (this format's
own, or a caller's ``reasoning_field``) into a leading ``thinking`` chunk (Mistral reads no
reasoning field); only its reasoning models take it back (the ``reasoning_models`` rule:
another model answers 400, code 3051), so for any other the chunks are not sent, reported;
``reasoning_effort`` is
``none`` or ``high`` (https://docs.mistral.ai/capabilities/reasoning/adjustable); documents ride in
``document_url`` parts (https://docs.mistral.ai/capabilities/document_ai/basic_ocr/): a PDF
``file`` part (a data URL in ``file_data``) is sent as one, a file by id is not (the part
takes a URL). A conversation ending in an assistant message is refused unless that message
says ``"prefix": true`` ("Expected last role User or Tool (or Assistant with prefix True)
for serving"; the reference's ``prefix``; the Vercel mistral converter sets it), so it
does, reported.
"""

from __future__ import annotations

import re
from typing import Any

from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Refusal, Server, ServerCall, ServerRule
from chatcodec.codec_kit import as_dict, as_list, media_type_essence, source_from_url
from chatcodec.contract import Extension, SamplingRange

DOCS = "https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post"
_REASONING = "https://docs.mistral.ai/capabilities/reasoning/"
FIELDS = frozenset(
    {
        "model",
        "messages",
        "temperature",
        "top_p",
        "max_tokens",
        "stream",
        "stop",
        "random_seed",
        "response_format",
        "tools",
        "tool_choice",
        "presence_penalty",
        "frequency_penalty",
        "n",
        "prediction",
        "parallel_tool_calls",
        "prompt_mode",
        "safe_prompt",
        "reasoning_effort",
    }
)
"""The request fields Mistral's reference lists."""
_DOCUMENTS = "https://docs.mistral.ai/capabilities/document_ai/basic_ocr/"
_REASONING_MODELS_SOURCE = (
    f"{_REASONING} (models: mistral-small-latest, mistral-medium-3-5; magistral-small/medium native, deprecated); "
    "mistral-small-2603 is Small 4 and mistral-medium-latest Medium 3.5, both reasoning "
    "(https://github.com/zed-industries/zed/pull/61393); Mistral Large is no reasoning model "
    "(https://github.com/truefoundry/models/pull/488); others answer reasoning input with 400, code 3051"
)
REASONING_MODELS = re.compile(r"magistral-|mistral-small-(latest|2603)\b|mistral-medium-(latest|3-5)\b")
"""The Mistral models that take ``thinking`` chunks back: Magistral and the adjustable
reasoning models (Small 4, Medium 3.5)."""


def _prefix(call: ServerCall) -> None:
    """A final assistant message is sent with ``"prefix": true`` (a continuation)."""
    messages = as_list(call.body.get("messages"))
    last = as_dict(messages[-1]) if messages else None
    if messages and last is not None and last.get("role") == "assistant" and last.get("prefix") is not True:
        last["prefix"] = True
        at = ("messages", len(messages) - 1, "prefix")
        call.report(at, "final assistant message", "sent with prefix: true, as Mistral continues one")


def _thinking_chunks(call: ServerCall) -> None:
    """Reasoning written in ``reasoning_content`` goes back as a leading ``thinking``
    content chunk of its assistant message (Mistral's own shape for it)."""
    for message in as_list(call.body.get("messages")) or ():
        fields = as_dict(message) or {}
        reasoning = fields.pop("reasoning_content", None) if fields.get("role") == "assistant" else None
        if not isinstance(reasoning, str) or not reasoning:
            continue
        content: object = fields.get("content")
        parts: list[Any] = [{"type": "text", "text": content}] if isinstance(content, str) and content else []
        parts = list(as_list(content) or parts)
        fields["content"] = [{"type": "thinking", "thinking": [{"type": "text", "text": reasoning}]}, *parts]


def _reasoning_models(call: ServerCall) -> None:
    """``thinking`` chunks are not sent to a model that does not reason (a model not
    named: left as written)."""
    model = call.model
    if model is None or REASONING_MODELS.search(model.lower()):
        return
    for index, message in enumerate(as_list(call.body.get("messages")) or ()):
        fields = as_dict(message) or {}
        content = as_list(fields.get("content")) if fields.get("role") == "assistant" else None
        if not content or not any((as_dict(part) or {}).get("type") == "thinking" for part in content):
            continue
        kept = [part for part in content if (as_dict(part) or {}).get("type") != "thinking"]
        fields["content"] = kept or ("" if not fields.get("tool_calls") else None)
        why = f"not sent: {model} is no Mistral reasoning model and refuses reasoning input ({_REASONING})"
        call.report(("messages", index, "content"), "thinking", why)


def _documents(call: ServerCall) -> None:
    """A ``file`` part of a PDF data URL is sent as a ``document_url`` part; any other file
    part (by id, another type) is not sent."""
    for index, message in enumerate(as_list(call.body.get("messages")) or ()):
        fields = as_dict(message) or {}
        content = as_list(fields.get("content"))
        if content is None or not any((as_dict(part) or {}).get("type") == "file" for part in content):
            continue
        kept: list[Any] = []
        for position, part in enumerate(content):
            document = _document_url(part)
            if document is not None:
                kept.append(document)
                continue
            if (as_dict(part) or {}).get("type") != "file":
                kept.append(part)
                continue
            at = ("messages", index, "content", position)
            call.report(at, "file part", f"not sent: Mistral takes documents as a PDF URL ({_DOCUMENTS})")
        fields["content"] = kept or ""


def _document_url(part: object) -> dict[str, Any] | None:
    """The ``document_url`` part for a ``file`` part holding a PDF data URL (its file
    name, which Mistral's part has no field for, goes: the document is the same)."""
    fields = as_dict(part) or {}
    file = as_dict(fields.get("file")) if fields.get("type") == "file" else None
    data = file.get("file_data") if file is not None else None
    if not isinstance(data, str) or not data.startswith("data:"):
        return None
    source = source_from_url(data)  # a PDF however its type is spelt (parameters, case): the data URL as given
    if source["type"] != "base64" or media_type_essence(source["media_type"]) != "application/pdf":
        return None
    return {"type": "document_url", "document_url": data}


_RANGES = (
    DOCS + " (top_p: number [ 0 .. 1 ]; presence_penalty, frequency_penalty: number [ -2 .. 2 ]; "
    'temperature has no range, only "we recommend between 0.0 and 0.7")'
)

SERVER = Server(
    "mistral",
    "Mistral",
    DOCS,
    hosts=("api.mistral.ai",),
    models=(
        r"(mistral|magistral|codestral|devstral|ministral|pixtral|voxtral)-[\w.-]*(latest|\d{4})",
        r"open-mistral-[\w.-]+",
    ),
    fields=FIELDS,
    refuses=(
        Refusal("seed", DOCS, instead="random_seed"),
        Refusal("max_completion_tokens", DOCS, instead="max_tokens"),
    ),
    extensions=(
        *(
            Extension(kinds.PROVIDER, kind, ("random_seed", "safe_prompt", "prompt_mode"), DOCS)
            for kind in kinds.REQUESTS
        ),
        Extension(kinds.PROVIDER, "ChatCompletionAssistantMessageParam", ("prefix",), DOCS),
    ),
    reasoning_field="reasoning_content",
    reasoning_source=_REASONING + " (thinking goes back as a content part)",
    efforts=("none", "high"),
    efforts_source="https://docs.mistral.ai/capabilities/reasoning/adjustable",
    parts=frozenset({"text", "image_url", "input_audio", "document_url", "thinking", "file"}),
    parts_source=DOCS + " (a PDF `file` part is sent as `document_url`)",
    file_types=frozenset({"application/pdf"}),
    semconv_name="mistral_ai",
    rules=(
        ServerRule(
            "thinking_chunks",
            "reasoning in `reasoning_content` sent back as a leading `thinking` content chunk "
            "(another provider's thinking goes in its place, each part a chunk)",
            _REASONING,
            _thinking_chunks,
        ),
        ServerRule(
            "reasoning_models",
            "`thinking` chunks not sent to a model other than Magistral, Mistral Small 4 and Medium 3.5",
            _REASONING_MODELS_SOURCE,
            _reasoning_models,
        ),
        ServerRule(
            "documents",
            "a PDF `file` part sent as a `document_url` data URL; another file part not sent",
            _DOCUMENTS,
            _documents,
        ),
        ServerRule(
            "prefix",
            'a final assistant message sent with `"prefix": true`',
            DOCS + " (prefix)",
            _prefix,
        ),
    ),
    sampling_ranges=(
        SamplingRange("top_p", 0.0, 1.0, _RANGES),
        SamplingRange("frequency_penalty", -2.0, 2.0, _RANGES),
        SamplingRange("presence_penalty", -2.0, 2.0, _RANGES),
    ),
)
"""Mistral."""
