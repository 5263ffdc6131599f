"""Amazon Bedrock's Mantle endpoint for the Messages API
(``https://bedrock-mantle.{region}.api.aws/anthropic``, the SDK adding ``/v1/messages``).

Bedrock's page (https://docs.aws.amazon.com/bedrock/latest/userguide/inference-messages-api.html)
gives "native access to Claude models using the Anthropic request and response format"
there, with a Bedrock API key in ``x-api-key`` (what the ``anthropic`` upstream sends) or
SigV4, and requires the header ``anthropic-version: 2023-06-01``. Unlike the other
servers here it runs Claude itself: the body is held to the Messages API's rules at that
version and to Claude's model rules (Opus 4.7+ refusing sampling, adaptive thinking
only), which apply on Bedrock as on Anthropic's API (the model-migration guide; Claude
Opus 4.7+ on Bedrock refuses ``temperature``: /work/shared/provider-changes-2026.md).
Bedrock's model ids (``anthropic.claude-opus-4-7``, ``us.anthropic.claude-sonnet-4-5-20250929-v1:0``)
name the Claude model they run, which the model rules read.
"""

from __future__ import annotations

from chatcodec._providers.anthropic.servers.server import Server

DOCS = "https://docs.aws.amazon.com/bedrock/latest/userguide/inference-messages-api.html"
API_VERSION = "2023-06-01"
"""The ``anthropic-version`` its page requires of every request on this endpoint."""

SERVER = Server(
    "bedrock-mantle",
    "Amazon Bedrock (Mantle)",
    DOCS,
    hosts=("bedrock-mantle.*.api.aws/anthropic",),
    api_version=API_VERSION,
    notes=(
        f"runs Claude: the API's rules at `anthropic-version` {API_VERSION} (the header its page requires) "
        f"and Claude's model rules apply ({DOCS})",
    ),
    semconv_name="aws.bedrock",
)
"""Bedrock's Mantle endpoint."""
