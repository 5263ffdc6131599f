"""What Nova accepts, by model (``RULES``), each rule with its source: the one API version,
the Nova models' documented facts (``MODELS``), and the model rules the writer applies
last (``_providers/contract/target_rules.py``).

The body names no model (it is in the URL), so a rule applies when the request's model is
a Nova id, with or without a cross-region prefix or an inference-profile ARN around it
(``amazon.nova-micro-v1:0``, ``us.amazon.nova-pro-v1:0``, ``global.amazon.nova-2-lite-v1:0``);
any other model gets the permissive rule (nothing is changed) but for the sampling ranges
(:data:`SAMPLING_RANGES`, the body's own for every model). Two facts change a body:

- Nova Micro reads text only ("Because Amazon Nova Micro does not support images or
  videos as input, those parts of the request schema do not apply to Amazon Nova Micro",
  :data:`SCHEMA_V1_SOURCE`): its ``image`` and ``video`` blocks are not sent.
- Only Nova 2 takes ``reasoningConfig`` (extended thinking is new in Nova 2 Lite,
  :data:`THINKING_SOURCE`; the version 1 request schema has no such field): a version 1
  model (Micro, Lite, Pro, Premier) is sent none.
- A model that reads video reads one per request ("Amazon Nova models allow you to include
  a single video in the payload", :data:`VIDEO_SOURCE`; Nova 2's table: one object, 25 MB
  inline or 1 GB from S3): a later ``video`` block is not sent, reported.

Per-model facts not written as rules, and why: tool choice (``auto``, ``any``, ``tool``) is
documented for every Nova understanding model alike (:data:`TOOL_CHOICE_SOURCE`), so there
is nothing to change by model; the byte limits (25 MB for the whole inline payload, images
up to 8,000 x 8,000 pixels) are the body's size, which a converter cannot shrink without
re-encoding media, and the API answers them itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chatcodec.contract import (
    ModelFamily,
    ProviderRules,
    RuleCall,
    SamplingRange,
    TargetRule,
    as_dict,
    as_list,
    range_rule,
)

VERSION = "messages-v1"
"""The body's one schema version (``schemaVersion``)."""

_SOURCE = "https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html"
SCHEMA_V1_SOURCE = "https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html"
THINKING_SOURCE = "https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html"
_CARDS = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-amazon-{}.html"
VIDEO_SOURCE = (
    "https://docs.aws.amazon.com/nova/latest/userguide/prompting-video-understanding.html ; "
    "https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-multimodal-models.html (Video: 1 object)"
)
TOOL_CHOICE_SOURCE = "https://docs.aws.amazon.com/nova/latest/userguide/tool-choice.html"


@dataclass(frozen=True, slots=True)
class NovaModel:
    """One Nova understanding model, as AWS documents it."""

    name: str
    """Its name in losses and the docs (``Nova Micro``)."""
    key: str
    """The word of its model id after ``amazon.`` and before ``-v`` (``nova-micro``)."""
    media: frozenset[str]
    """The media blocks it reads beside text (``image``, ``video``)."""
    context_tokens: int
    """Its context window, in tokens."""
    max_output_tokens: int | None
    """The most tokens one answer may hold (``maxTokens``); None: not stated where read."""
    reasoning: bool
    """Whether it takes ``reasoningConfig`` (extended thinking)."""
    source: str
    """Where these facts are documented (the Bedrock model card)."""


_VISION = frozenset({"image", "video"})

MODELS = (
    NovaModel("Nova Micro", "nova-micro", frozenset(), 128_000, 5_000, False, _CARDS.format("nova-micro")),
    NovaModel("Nova Lite", "nova-lite", _VISION, 300_000, 5_000, False, _CARDS.format("nova-lite")),
    NovaModel("Nova Pro", "nova-pro", _VISION, 300_000, 5_000, False, _CARDS.format("nova-pro")),
    NovaModel("Nova Premier", "nova-premier", _VISION, 1_000_000, None, False, _CARDS.format("nova-premier")),
    NovaModel("Nova 2 Lite", "nova-2-lite", _VISION, 1_000_000, None, True, _CARDS.format("nova-2-lite")),
)
"""The understanding models InvokeModel's ``messages-v1`` body is for. Micro is text only;
Lite, Pro, Premier and Nova 2 Lite read images and videos (documents are the Converse API's
alone: ``capabilities.py``); only Nova 2 Lite reasons on request. The version 1 models'
``maxTokens`` is at most 5K (:data:`SCHEMA_V1_SOURCE`: "greater than 0, equal or less
than 5k"). Tool names follow the family's rule (64 characters, ``families/aws``)."""

_MODEL_ID = re.compile(r"(?:^|[./:])amazon\.(nova-(?:\d+-)?[a-z]+)-v\d")


def model_of(model: str) -> NovaModel | None:
    """The Nova model a Bedrock model id (or inference-profile ARN) names, or None."""
    found = _MODEL_ID.search(model.lower())
    if found is None:
        return None
    return next((known for known in MODELS if known.key == found[1]), None)


def _family(name: str, test: Callable[[NovaModel], bool]) -> ModelFamily:
    def matches(model: str) -> bool:
        known = model_of(model)
        return known is not None and test(known)

    return ModelFamily(name, matches)


TEXT_ONLY = _family("Nova Micro", lambda model: not model.media)
READS_VIDEO = _family("Nova Lite, Pro, Premier, Nova 2 Lite", lambda model: "video" in model.media)
NO_REASONING = _family("Nova 1 (Micro, Lite, Pro, Premier)", lambda model: not model.reasoning)


def _media_blocks(call: RuleCall) -> None:
    """A text-only model reads no ``image`` or ``video`` block (in a turn or a tool
    result): each is not sent, reported."""
    for index, message in enumerate(as_list(call.body.get("messages")) or ()):
        held = as_dict(message)
        blocks = as_list(held.get("content")) if held is not None else None
        if held is not None and blocks:
            held["content"] = _without_media(call, blocks, ("messages", index, "content"))


def _without_media(call: RuleCall, blocks: list[Any], at: tuple[str | int, ...]) -> list[Any]:
    kept: list[Any] = []
    for position, block in enumerate(blocks):
        held = as_dict(block)
        member = next(iter(held), None) if held is not None and len(held) == 1 else None
        if member in _VISION:
            call.report((*at, position), member, "not sent: the model reads text only")
            continue
        result = as_dict(held.get("toolResult")) if held is not None and member == "toolResult" else None
        content = as_list(result.get("content")) if result is not None else None
        if result is not None and content:
            result["content"] = _without_media(call, content, (*at, position, "toolResult", "content"))
        kept.append(block)
    return kept


def _one_video(call: RuleCall) -> None:
    """A request holds one video: each ``video`` block after the first (in a turn or a tool
    result, in order) is not sent, reported."""
    seen = [False]
    for index, message in enumerate(as_list(call.body.get("messages")) or ()):
        held = as_dict(message)
        blocks = as_list(held.get("content")) if held is not None else None
        if held is not None and blocks:
            held["content"] = _first_video(call, blocks, ("messages", index, "content"), seen)


def _first_video(call: RuleCall, blocks: list[Any], at: tuple[str | int, ...], seen: list[bool]) -> list[Any]:
    kept: list[Any] = []
    for position, block in enumerate(blocks):
        held = as_dict(block)
        if held is not None and "video" in held:
            if seen[0]:
                call.report((*at, position), "video", "not sent: Nova reads one video per request")
                continue
            seen[0] = True
        result = as_dict(held.get("toolResult")) if held is not None else None
        content = as_list(result.get("content")) if result is not None else None
        if result is not None and content:
            result["content"] = _first_video(call, content, (*at, position, "toolResult", "content"), seen)
        kept.append(block)
    return kept


def _reasoning_config(call: RuleCall) -> None:
    """A model without extended thinking takes no ``reasoningConfig`` (at the top level or
    inside ``inferenceConfig``): not sent; reported unless it only disabled reasoning (the
    model's default)."""
    config = as_dict(call.body.get("inferenceConfig"))
    for holder, at in ((call.body, ()), (config, ("inferenceConfig",))):
        if holder is None or "reasoningConfig" not in holder:
            continue
        reasoning = as_dict(holder.pop("reasoningConfig"))
        if reasoning is None or reasoning.get("type") != "disabled":
            call.report((*at, "reasoningConfig"), "reasoningConfig", "not sent: the model has no extended thinking")


_RANGES_SOURCE = (
    f"{_SOURCE} (inferenceConfig: temperature 0.00001-1, topP 0-1; the version 1 schema: temperature "
    "greater than 0 and less than 1.0, topP greater than 0, at most 1.0)"
)
SAMPLING_RANGES = tuple(
    SamplingRange(key, 0.0, 1.0, _RANGES_SOURCE, at=("inferenceConfig",)) for key in ("temperature", "topP", "top_p")
)
"""Nova's sampling ranges, as the user guide's request schema gives them (``topP`` in either
spelling, ``top_p`` being the one Nova took first). A temperature of 0, which the guide's
lowest bound (0.00001) leaves out, is sent as it is: the ranges hold what is past 1."""


RULES = ProviderRules(
    provider="bedrock-nova",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source=_SOURCE,
    rules=(
        TargetRule(
            "text_only",
            "`image` and `video` blocks not sent",
            f"{SCHEMA_V1_SOURCE} ; {_CARDS.format('nova-micro')}",
            _media_blocks,
            families=(TEXT_ONLY,),
        ),
        TargetRule(
            "reasoning_config",
            "`reasoningConfig` not sent",
            f"{THINKING_SOURCE} ; {SCHEMA_V1_SOURCE}",
            _reasoning_config,
            families=(NO_REASONING,),
        ),
        TargetRule(
            "one_video",
            "`video` blocks after the first not sent",
            VIDEO_SOURCE,
            _one_video,
            families=(READS_VIDEO,),
        ),
        range_rule(SAMPLING_RANGES),
    ),
)
"""Nova's table."""
