"""The model rules of Amazon Nova's understanding models (:mod:`.nova_models`' facts), for
both Bedrock bodies that serve them: each body's ``rules.py`` puts :func:`media_rules` in
its table, and its own ``reasoning_config`` rule (where the switch sits is the body's:
top-level in Nova's InvokeModel body, ``additionalModelRequestFields`` on Converse) over
:func:`drop_reasoning_config`. One copy of each fact and each edit; a body differs only in
the blocks it can hold (Nova's body has no ``document``).

Every rule walks the ``image``, ``video`` and ``document`` blocks of ``messages`` in order,
in a turn and inside a ``toolResult``, and a block the model does not take is not sent,
reported at its path (``on_loss`` decides whether that warns or refuses); the first blocks
are kept, as the request gave them. What the API answers itself and a converter cannot
see without decoding media (an image past 8,000 x 8,000 pixels, a video's length, a file
from S3 past its size) is no rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chatcodec._providers.families.aws.nova_models import (
    CARDS,
    CONVERSE_FEATURES_SOURCE,
    COUNTS_IMAGES,
    DOCUMENT_SOURCE,
    IMAGE_SOURCE,
    INLINE_BYTES,
    MEDIA_SOURCE,
    READS_MEDIA,
    RESTRICTIONS_SOURCE,
    SCHEMA_V1_SOURCE,
    TEXT_DOCUMENT_BYTES,
    TEXT_DOCUMENT_FORMATS,
    TEXT_ONLY,
    VIDEO_SOURCE,
    Limit,
    NovaModel,
    model_of,
)
from chatcodec.codec_kit import as_dict, as_list
from chatcodec.contract import RuleCall, Steps, TargetRule

MEDIA = frozenset({"image", "video", "document"})
"""The blocks the rules look at."""
Verdict = Callable[[str, dict[str, Any]], str | None]
"""Given a block's member and value: why it is not sent, or ``None`` to send it."""


def filter_media(call: RuleCall, verdict: Verdict) -> None:
    """Each media block of ``call.body``'s messages (in a turn or a tool result, in order)
    put to ``verdict``: one it gives a reason for is not sent, reported at its path."""
    for index, message in enumerate(as_list(call.body.get("messages")) or ()):
        held = as_dict(message)
        blocks = as_list(held.get("content")) if held is not None else None
        if held is not None and blocks:
            held["content"] = _kept(call, blocks, ("messages", index, "content"), verdict)


def _kept(call: RuleCall, blocks: list[Any], at: Steps, verdict: Verdict) -> list[Any]:
    kept: list[Any] = []
    for position, block in enumerate(blocks):
        held = as_dict(block)
        member = next(iter(held), None) if held is not None and len(held) == 1 else None
        value = as_dict(held[member]) if held is not None and member is not None else None
        if member in MEDIA and value is not None:
            why = verdict(member, value)
            if why is not None:
                call.report((*at, position), member, f"not sent: {why}")
                continue
        elif member == "toolResult" and value is not None:
            content = as_list(value.get("content"))
            if content:
                value["content"] = _kept(call, content, (*at, position, "toolResult", "content"), verdict)
        kept.append(block)
    return kept if len(kept) < len(blocks) else blocks


def _model(call: RuleCall) -> NovaModel:
    """The Nova model of a call a Nova family matched (so one is named)."""
    known = model_of(call.model or "")
    if known is None:  # a family matched this id: never
        raise AssertionError(call.model)
    return known


def _inline(value: dict[str, Any]) -> tuple[int, int] | None:
    """A block carried in the request: the length of what is sent (a ``bytes`` source's
    base64 text, a document's ``text``) and of the file it holds; ``None`` for one from S3."""
    source = as_dict(value.get("source"))
    data = source.get("bytes") if source is not None else None
    if isinstance(data, str):
        return len(data), len(data) * 3 // 4 - data[-2:].count("=")
    text = source.get("text") if source is not None else None
    if isinstance(text, str):
        size = len(text.encode())
        return size, size
    return None


def _text_only(call: RuleCall) -> None:
    """A text-only model reads no ``image``, ``video`` or ``document`` block: each is not sent."""
    filter_media(call, lambda member, value: "the model reads text only")


def _count(kind: str) -> Callable[[RuleCall], None]:
    """The edit holding a request to the model's count of ``kind`` blocks, by where their
    bytes are: each past the count (in order) is not sent."""

    def edit(call: RuleCall) -> None:
        model = _model(call)
        limit: Limit = getattr(model, f"{kind}s")
        seen = {False: 0, True: 0}

        def verdict(member: str, value: dict[str, Any]) -> str | None:
            if member != kind:
                return None
            source = as_dict(value.get("source"))
            from_s3 = source is not None and "s3Location" in source
            most = limit.s3 if from_s3 else limit.inline
            if limit.total is not None and seen[False] + seen[True] >= limit.total:
                return f"{model.name} takes {_count_of(limit.total, kind)} per request"
            if most is not None and seen[from_s3] >= most:
                return f"{model.name} takes {_count_of(most, kind)} {'from S3' if from_s3 else 'in the request'}"
            seen[from_s3] += 1
            return None

        filter_media(call, verdict)

    edit.__doc__ = f"A request holds so many ``{kind}`` blocks: each past the model's count is not sent."
    return edit


def _count_of(most: int, kind: str) -> str:
    return f"one {kind}" if most == 1 else f"{most} {kind}s"


def _inline_size(call: RuleCall) -> None:
    """A request carries at most 25 MB of media in itself (``bytes``, counted as sent), and
    a text document at most 4.5 MB: a block past either is not sent (the first ones kept)."""
    total = [0]

    def verdict(member: str, value: dict[str, Any]) -> str | None:
        carried = _inline(value)
        if carried is None:
            return None
        sent, size = carried
        if member == "document" and value.get("format") in TEXT_DOCUMENT_FORMATS and size > TEXT_DOCUMENT_BYTES:
            return "Nova takes a text document of at most 4.5 MB"
        if total[0] + sent > INLINE_BYTES:
            return "Nova takes 25 MB of media in the request (send it from S3)"
        total[0] += sent
        return None

    filter_media(call, verdict)


def media_rules(*, documents: bool) -> tuple[TargetRule, ...]:
    """The media rules of a body's table (``documents``: whether the body holds ``document``
    blocks, Converse's alone), in the order applied: what the model reads, then counts,
    then sizes."""
    what = "`image`, `video` and `document`" if documents else "`image` and `video`"
    text_only_source = f"{SCHEMA_V1_SOURCE} ; {CARDS.format('nova-micro')}"
    sized = "media past 25 MB in the request" + (" and a text document past 4.5 MB" if documents else "")
    size_source = f"{IMAGE_SOURCE} ; {MEDIA_SOURCE} (25 MB)"
    rules = [
        TargetRule(
            "text_only",
            f"{what} blocks not sent",
            f"{text_only_source} ; {CONVERSE_FEATURES_SOURCE}" if documents else text_only_source,
            _text_only,
            families=(TEXT_ONLY,),
        ),
        TargetRule(
            "one_video",
            "`video` blocks after the first not sent",
            VIDEO_SOURCE,
            _count("video"),
            families=(READS_MEDIA,),
        ),
        TargetRule(
            "image_count",
            "`image` blocks past 5 as bytes or 1,000 from S3 not sent",
            f"{MEDIA_SOURCE} (Image: 5 objects, 1000 from S3)",
            _count("image"),
            families=(COUNTS_IMAGES,),
        ),
    ]
    if documents:
        rules.append(
            TargetRule(
                "document_count",
                "`document` blocks past 5 as bytes or 1,000 from S3 not sent",
                f"{DOCUMENT_SOURCE} ; {RESTRICTIONS_SOURCE}",
                _count("document"),
                families=(READS_MEDIA,),
            )
        )
    rules.append(
        TargetRule(
            "inline_media_size",
            f"{sized} not sent",
            f"{size_source} ; {DOCUMENT_SOURCE}" if documents else size_source,
            _inline_size,
            families=(READS_MEDIA,),
        )
    )
    return tuple(rules)


def drop_reasoning_config(call: RuleCall, holders: tuple[tuple[dict[str, Any] | None, Steps], ...]) -> None:
    """A model without extended thinking takes no ``reasoningConfig`` (in any of ``holders``,
    each with its path): not sent; reported unless it only disabled reasoning (the default)."""
    for holder, at in holders:
        if holder is None or "reasoningConfig" not in holder:
            continue
        reasoning = as_dict(holder.pop("reasoningConfig"))
        if reasoning is None or reasoning.get("type") != "disabled":
            call.report((*at, "reasoningConfig"), "reasoningConfig", "not sent: the model has no extended thinking")
