"""Where Converse bodies ride in batch files: Bedrock batch rows, the default body of
``modelInput`` there, without ``modelId`` (the batch job names the model;
https://docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-data.html)."""

from __future__ import annotations

from chatcodec._providers.bedrock_converse.markers import PROVIDER
from chatcodec._providers.families.aws.batch import BEDROCK_BATCH, BEDROCK_BATCH_OUTPUT
from chatcodec.contract import BatchRows, EnvelopeBody

BATCH_ROWS = BatchRows(
    (
        EnvelopeBody(BEDROCK_BATCH, PROVIDER, default=True, dropped=("modelId",)),
        EnvelopeBody(BEDROCK_BATCH_OUTPUT, PROVIDER, default=True),
    )
)
