"""The botocore oracle for the Bedrock Converse codec (test dependency only).

botocore's ``bedrock-runtime`` service model is what boto3 checks a ``converse()`` call
against, and what AWS generates its responses from. :func:`assert_valid_request` runs
botocore's own ``ParamValidator`` on the ``Converse`` input shape, after turning the
base64 text of blob members (``bytes``, ``redactedContent``) into bytes, as boto3 would
receive them. ``ParamValidator`` works on any shape, so responses and stream events are
checked the same way against the output shapes: unknown members, missing required
members, wrong types and unions with other than one member set are all refused.

Recordings carry members newer than (or outside) botocore's model: the usage twins
``cacheReadInputTokenCount`` / ``cacheWriteInputTokenCount`` and ``serverToolUsage``, and
a hand-written stream whose ``metadata`` has no ``metrics``. :func:`for_sdk` removes or
fills exactly those, by fixture, before the oracle runs.
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Iterable
from typing import Any

import botocore.session
from botocore.model import ListShape, MapShape, Shape, StructureShape
from botocore.validate import ParamValidator

MODEL = botocore.session.get_session().get_service_model("bedrock-runtime")
CONVERSE = MODEL.operation_model("Converse")
STREAM = MODEL.operation_model("ConverseStream").output_shape.members["stream"]
PLACEHOLDER_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
"""``modelId`` for a REST body (the REST API puts it in the URL; boto3 requires it)."""

NEWER_USAGE_MEMBERS = ("cacheReadInputTokenCount", "cacheWriteInputTokenCount", "serverToolUsage")
"""Usage members live Bedrock sends that botocore's model does not list."""


def with_bytes(value: Any, shape: Shape) -> Any:
    """``value`` with every blob member's base64 text decoded to bytes (as boto3 takes them)."""
    if shape.type_name == "blob" and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except ValueError:
            raise AssertionError(f"blob refused by botocore: not base64: {value[:40]!r}") from None
    if isinstance(shape, StructureShape) and isinstance(value, dict):
        return {
            key: with_bytes(item, shape.members[key]) if key in shape.members else item for key, item in value.items()
        }
    if isinstance(shape, ListShape) and isinstance(value, list):
        return [with_bytes(item, shape.member) for item in value]
    if isinstance(shape, MapShape) and isinstance(value, dict):
        return {key: with_bytes(item, shape.value) for key, item in value.items()}
    return value


def assert_valid(value: Any, shape: Shape, what: str) -> None:
    report = ParamValidator().validate(with_bytes(value, shape), shape)
    assert not report.has_errors(), f"{what} refused by botocore:\n{report.generate_report()}"


def assert_valid_request(body: dict[str, Any]) -> None:
    """The body is a valid ``converse()`` call for boto3 (``modelId`` filled in if absent)."""
    assert_valid({"modelId": PLACEHOLDER_MODEL, **body}, CONVERSE.input_shape, "request")


def assert_valid_response(body: dict[str, Any]) -> None:
    """The body is a valid ``Converse`` output."""
    assert_valid(body, CONVERSE.output_shape, "response")


def assert_valid_stream(events: Iterable[dict[str, Any]]) -> None:
    """Every event is one ``ConverseStreamOutput`` member with a valid payload."""
    for index, event in enumerate(events):
        assert isinstance(event, dict), f"event {index} is not an object: {event!r}"
        assert len(event) == 1, f"event {index} is not one member: {event!r}"
        ((kind, payload),) = event.items()
        assert kind in STREAM.members, f"event {index}: {kind!r} is no ConverseStream event"
        if isinstance(payload, dict):  # "p" is eventstream padding, which botocore's parser skips
            payload = {key: value for key, value in payload.items() if key != "p"}  # pyright: ignore[reportUnknownVariableType]
        assert_valid(payload, STREAM.members[kind], f"event {index} ({kind})")


def for_sdk(name: str, body: dict[str, Any]) -> dict[str, Any]:
    """A recorded body (or stream event) without the members botocore's model lacks."""
    adapted = copy.deepcopy(body)
    for holder in (adapted, adapted.get("metadata")):
        usage = holder.get("usage") if isinstance(holder, dict) else None
        if isinstance(usage, dict):
            for key in NEWER_USAGE_MEMBERS:
                usage.pop(key, None)
    return adapted
