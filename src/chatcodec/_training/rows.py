"""Training rows in one template's shapes: ``chatcodec convert --to hf-chat --template qwen3``.

A Hugging Face chat-template row (``{"messages", "tools"}``) is only right for the template
that will render it: content as a string where it takes strings, reasoning under the key it
reads, arguments as the model's text where it writes text. Written in OpenAI's shapes, a row
renders through Qwen3 as an empty tool result and an answer without its text, and no error is
raised. So a row written for a named template is the canonical conversation shaped by that
template's profile (:mod:`.shaping`), each drop a loss, the same shaping ``render`` uses.
"""

from __future__ import annotations

from typing import Any

from chatcodec import ChatRequest, Loss
from chatcodec._training import families
from chatcodec._training.origins import trace_to_source
from chatcodec._training.reading import holds_object_arguments
from chatcodec._training.shaping import Shaper
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits
from chatcodec.contract import LossRecorder


def template_row(
    request: ChatRequest,
    template: str,
    *,
    payload: object = None,
    source: str | None = None,
    limits: TemplateLimits = DEFAULT_LIMITS,
) -> tuple[dict[str, Any], list[Loss]]:
    """``{"messages", "tools"}`` for ``template`` (a family or a template's text) from a
    canonical request, and what the template's shapes could not hold (named in ``payload``,
    the request ``source`` read it from, where given). A source holding arguments as objects
    (its codec's ``Capabilities.object_arguments``) has them spelled as the
    template spells an object, as ``render`` does."""
    recorder = LossRecorder()
    if source is not None:
        trace_to_source(recorder, payload, source, request)
    objects = source is not None and holds_object_arguments(source)
    shaper = Shaper(families.resolve(template, limits=limits).profile, recorder, object_arguments=objects)
    messages, _ = shaper.messages(request.messages)
    return shaped_row(messages, shaper.tools(request.tools)), [
        *recorder.losses,
        *settings_losses(request, "chat-template rows"),
    ]


def shaped_row(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The row of a template's messages and tools (``tools`` left out where there are none)."""
    return {"messages": messages, "tools": tools} if tools else {"messages": messages}


def settings_losses(request: ChatRequest, rows: str) -> list[Loss]:
    """A ``setting`` loss for each request setting ``request`` holds (``model``,
    ``max_tokens``): a training row keeps the conversation (and its tokens) only."""
    held = request.model_dump(exclude_defaults=True, exclude={"messages", "tools"})
    why = f"{rows} keep no request settings"
    return [Loss(f"$.{name}", name, why, "setting") for name in held]
