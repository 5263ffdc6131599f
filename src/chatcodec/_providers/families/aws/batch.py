"""Bedrock batch inference's row layouts: ``{recordId, modelInput}`` in, the same with
``modelOutput`` (or ``error``) out. ``modelInput`` is the body of the model's InvokeModel
(or Converse) call without the model, which the batch job names; each folder whose bodies
ride here says what its body holds differently (its ``batch_rows.py``).

https://docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-data.html
"""

from __future__ import annotations

from chatcodec._providers.contract.envelopes import BODY_SLOT, ID_SLOT, EnvelopeLayout

BEDROCK_BATCH = EnvelopeLayout(
    "bedrock-batch",
    "request",
    (("/recordId", ID_SLOT), ("/modelInput", BODY_SLOT)),
    "https://docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-data.html",
)
"""A batch job's input row."""

BEDROCK_BATCH_OUTPUT = EnvelopeLayout(
    "bedrock-batch-output",
    "response",
    (("/recordId", ID_SLOT), ("/modelOutput", BODY_SLOT)),
    "https://docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-results.html",
    extras=("modelInput", "error"),
    failures=("/error",),  # {"errorCode": 400, "errorMessage": "bad request"} in place of modelOutput
)
"""A batch job's output row (the input echoed beside the output)."""
