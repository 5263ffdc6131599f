"""Where Nova bodies ride in batch files: Bedrock batch rows, whose ``modelInput`` is the
InvokeModel body (the model is the job's) and ``modelOutput`` its answer
(https://docs.aws.amazon.com/nova/latest/userguide/batch-inference.html). A row whose input
says ``schemaVersion`` is a Nova row; otherwise ``--from bedrock-batch:bedrock-nova`` says so."""

from __future__ import annotations

from chatcodec._providers.bedrock_nova.markers import PROVIDER
from chatcodec._providers.families.aws.batch import BEDROCK_BATCH, BEDROCK_BATCH_OUTPUT
from chatcodec.contract import BatchRows, EnvelopeBody

_SCHEMA_VERSION = "/modelInput/schemaVersion"

BATCH_ROWS = BatchRows(
    (
        EnvelopeBody(BEDROCK_BATCH, PROVIDER, marks=(_SCHEMA_VERSION,)),
        EnvelopeBody(BEDROCK_BATCH_OUTPUT, PROVIDER, marks=(_SCHEMA_VERSION,)),
    )
)
