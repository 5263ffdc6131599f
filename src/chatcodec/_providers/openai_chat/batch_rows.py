"""Where Chat Completions bodies ride in batch files, and the training dialects' messages.

The OpenAI Batch API's rows say ``"url": "/v1/chat/completions"`` for this format, its
default (https://platform.openai.com/docs/api-reference/batch/request-input). Training
datasets (ShareGPT, TRL, Hugging Face chat, OpenAI's DPO) hold this format's message shapes,
so a dialect's row is written from a Chat Completions body.
"""

from __future__ import annotations

from chatcodec._providers.families.openai.batch import OPENAI_BATCH, OPENAI_BATCH_OUTPUT
from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec.contract import BatchRows, EnvelopeBody

BATCH_ROWS = BatchRows(
    (
        EnvelopeBody(OPENAI_BATCH, PROVIDER, default=True, told_by="/v1/chat/completions"),
        EnvelopeBody(OPENAI_BATCH_OUTPUT, PROVIDER, default=True),
    ),
    training_dialects=True,
)
