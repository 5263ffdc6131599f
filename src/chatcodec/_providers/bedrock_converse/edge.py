"""What Bedrock Converse says on HTTP: ``POST /model/{modelId}/converse``.

- Routes: ``{endpoint}/model/{modelId}/converse``, or ``/converse-stream`` for a stream;
  the model is in the path, not the body
  (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
  chatcodec does not offer this API to callers (no front).
- Auth: a bearer API key from ``AWS_BEARER_TOKEN_BEDROCK`` (as boto3 reads it since
  2025), or, with none, a request signed with SigV4 from botocore's credential chain when
  botocore is installed (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys.html).
- Stream: AWS event-stream binary messages (:mod:`chatcodec.streams._event_stream`); boto3 hands
  the same events over as dicts, and their text form is JSON Lines.
- Errors: a ``{"message"}`` body with the type in the ``x-amzn-ErrorType`` header; in a
  stream an exception event named after the type in lower camel case
  (``{"throttlingException": {"message"}}``;
  https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors).
- Token counting: ``POST /model/{modelId}/count-tokens`` with ``{"input": {"converse":
  {messages, system, toolConfig, additionalModelRequestFields}}}``, answering
  ``{"inputTokens"}`` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html).
- Answers: a ``ConverseResponse`` holds no id and no model (the model is in the URL); the
  ``x-amzn-RequestId`` response header names the call
  (https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonParameters.html), so a
  server answering from Bedrock gives that id and the model it called (``answer_id_header``).
- Strict reading: the event stream's padding member on every event, usage beyond botocore.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from chatcodec._providers.bedrock_converse.markers import PROVIDER
from chatcodec._providers.bedrock_converse.stream_framing import FRAMING
from chatcodec._providers.families.aws.runtime import (
    ERROR_READS,
    ERROR_TYPES,
    read_error,
    sigv4_headers,
    write_error,
    write_error_event,
)
from chatcodec.codec_kit import as_dict, bearer_headers, model_in_path
from chatcodec.contract import CountUpstream, Detection, Edge, ErrorShape, Extension, Upstream


def upstream_url(base: str, model: str, stream: bool) -> str:
    return f"{base}/model/{quote(model, safe='')}/" + ("converse-stream" if stream else "converse")


COUNTED_FIELDS = ("messages", "system", "toolConfig", "additionalModelRequestFields")
"""What CountTokens' ``converse`` input takes of a Converse request."""


def count_url(base: str, model: str) -> str:
    return f"{base}/model/{quote(model, safe='')}/count-tokens"


def count_body(body: dict[str, Any], model: str) -> dict[str, Any]:
    return {"input": {"converse": {key: value for key, value in body.items() if key in COUNTED_FIELDS}}}


def read_count(body: object) -> int | None:
    tokens = (as_dict(body) or {}).get("inputTokens")
    return tokens if isinstance(tokens, int) else None


_EVENT_STREAM = "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html"
_RECORDED = "recorded, no documentation found: tests/fixtures/"

_CONVERSE = "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html"
_PROJECT = f"{_CONVERSE} (projectIdentifier); botocore 1.44.8 bedrock-runtime service model (ConverseRequest)"

EXTENSIONS: tuple[Extension, ...] = (
    Extension(PROVIDER, "*", ("p",), _EVENT_STREAM),
    # In the URL on the wire (botocore's ``location: uri``), a parameter of boto3's
    # ``converse(modelId=...)``: the body as boto3 takes it holds it, and chatcodec writes it.
    *(Extension(PROVIDER, kind, ("modelId",), _CONVERSE) for kind in ("ConverseRequest", "ConverseStreamRequest")),
    # botocore 1.44.8 adds it (the project an invocation is billed to; newer than the pinned SDK).
    *(
        Extension(PROVIDER, kind, ("projectIdentifier",), _PROJECT)
        for kind in ("ConverseRequest", "ConverseStreamRequest")
    ),
    Extension(
        PROVIDER,
        "TokenUsage",
        ("serverToolUsage", "cacheReadInputTokenCount", "cacheWriteInputTokenCount"),
        _RECORDED + "bedrock-converse/response/cache_read_usage_cache_details.json",
    ),
)
"""The event stream's padding member on every event; ``modelId`` as boto3 takes it;
``projectIdentifier`` (botocore 1.44.8); usage beyond botocore (strict reading accepts them)."""

EDGE = Edge(
    PROVIDER,
    response_name="a Bedrock Converse response",
    framing=FRAMING,
    errors=ErrorShape(
        ERROR_TYPES,
        "InternalServerException",
        write_error,
        read_error,
        write_event=write_error_event,
        type_header="x-amzn-ErrorType",
        reads=ERROR_READS,
    ),
    upstream=Upstream(
        upstream_url,
        "AWS_BEARER_TOKEN_BEDROCK",
        bearer_headers,
        model_in_path,
        sigv4_headers,
        count_tokens=CountUpstream(count_url, count_body, read_count),
        answer_id_header="x-amzn-requestid",
        semconv_name="aws.bedrock",
    ),
    detection=Detection(
        package=__package__,
        roles=("user", "assistant"),
        shapes=(
            "output:object",
            "part:untyped",
        ),
    ),
    extensions=EXTENSIONS,
)
"""The Bedrock Converse edge."""
