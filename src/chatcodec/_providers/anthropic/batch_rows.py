"""Where Messages API bodies ride in batch files: Anthropic's Message Batches, and Bedrock
batch rows, whose ``modelInput`` is the InvokeModel body of a Claude model: it holds
``anthropic_version: bedrock-2023-05-31`` and no ``model`` (the job names it;
https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html),
and the Messages API refuses the version field, so a body leaving Bedrock loses it."""

from __future__ import annotations

from chatcodec._providers.anthropic.markers import PROVIDER
from chatcodec._providers.families.aws.batch import BEDROCK_BATCH, BEDROCK_BATCH_OUTPUT
from chatcodec.codec_kit import BODY_SLOT, ID_SLOT
from chatcodec.contract import BatchRows, EnvelopeBody, EnvelopeLayout, IdRule

_CUSTOM_ID = IdRule(
    r"[a-zA-Z0-9_-]{1,64}",
    "https://docs.claude.com/en/api/creating-message-batches (requests[].custom_id)",
)

ANTHROPIC_BATCH = EnvelopeLayout(
    "anthropic-batch",
    "request",
    (("/custom_id", ID_SLOT), ("/params", BODY_SLOT)),
    "https://docs.claude.com/en/api/creating-message-batches",
    id_required=True,
    id_rule=_CUSTOM_ID,
)
"""A Message Batches request."""

ANTHROPIC_BATCH_RESULTS = EnvelopeLayout(
    "anthropic-batch-results",
    "response",
    (("/custom_id", ID_SLOT), ("/result/type", "succeeded"), ("/result/message", BODY_SLOT)),
    "https://docs.claude.com/en/api/retrieving-message-batch-results",
    id_required=True,
    id_rule=_CUSTOM_ID,
    failures=("/result/error",),
)
"""A Message Batches result line."""

_VERSION = "/modelInput/anthropic_version"

BATCH_ROWS = BatchRows(
    (
        EnvelopeBody(ANTHROPIC_BATCH, PROVIDER, default=True),
        EnvelopeBody(ANTHROPIC_BATCH_RESULTS, PROVIDER, default=True),
        EnvelopeBody(
            BEDROCK_BATCH,
            PROVIDER,
            marks=(_VERSION,),
            fixed=(("anthropic_version", "bedrock-2023-05-31"),),
            dropped=("model",),
        ),
        EnvelopeBody(BEDROCK_BATCH_OUTPUT, PROVIDER, marks=(_VERSION, "/modelOutput/type")),
    )
)
