"""Where Responses bodies ride in batch files: OpenAI Batch rows saying
``"url": "/v1/responses"`` (https://platform.openai.com/docs/api-reference/batch/request-input)."""

from __future__ import annotations

from chatcodec._providers.families.openai.batch import OPENAI_BATCH, OPENAI_BATCH_OUTPUT
from chatcodec._providers.openai_responses.markers import PROVIDER
from chatcodec.contract import BatchRows, EnvelopeBody

BATCH_ROWS = BatchRows(
    (
        EnvelopeBody(OPENAI_BATCH, PROVIDER, told_by="/v1/responses"),
        EnvelopeBody(OPENAI_BATCH_OUTPUT, PROVIDER),
    )
)
