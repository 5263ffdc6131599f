"""Where Gemini bodies ride in batch files: the Gemini API's batch mode (a JSON Lines input
file, a results file, or the results inlined in the batch) and Vertex AI's batch prediction."""

from __future__ import annotations

from chatcodec._providers.gemini.markers import PROVIDER
from chatcodec.codec_kit import BODY_SLOT, ID_SLOT
from chatcodec.contract import BatchRows, EnvelopeBody, EnvelopeLayout

GEMINI_BATCH = EnvelopeLayout(
    "gemini-batch",
    "request",
    (("/key", ID_SLOT), ("/request", BODY_SLOT)),
    "https://ai.google.dev/gemini-api/docs/batch-api (input file)",
)
GEMINI_BATCH_OUTPUT = EnvelopeLayout(
    "gemini-batch-output",
    "response",
    (("/key", ID_SLOT), ("/response", BODY_SLOT)),
    "https://ai.google.dev/gemini-api/docs/batch-api (results file)",
    extras=("error", "status"),
    failures=("/error",),
)
GEMINI_BATCH_INLINE_OUTPUT = EnvelopeLayout(
    "gemini-batch-inline-output",
    "response",
    (("/metadata/key", ID_SLOT), ("/response", BODY_SLOT)),
    "https://ai.google.dev/api/batch-api#InlinedResponse (a batch of inlined requests: batches.get's "
    "response.inlinedResponses.inlinedResponses[], each {metadata, response | error})",
    extras=("error", "metadata"),
    failures=("/error",),
    row_lists=(  # batches.get's operation (response, or the batch in metadata.output), the batch, its output
        "/response/inlinedResponses/inlinedResponses",
        "/metadata/output/inlinedResponses/inlinedResponses",
        "/output/inlinedResponses/inlinedResponses",
        "/inlinedResponses/inlinedResponses",
    ),
    lists_for=("gemini-batch-output",),
)
VERTEX_BATCH = EnvelopeLayout(
    "vertex-batch",
    "request",
    (("/request", BODY_SLOT),),
    "https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/batch-prediction-from-cloud-storage",
)
VERTEX_BATCH_OUTPUT = EnvelopeLayout(
    "vertex-batch-output",
    "response",
    (("/status", ""), ("/response", BODY_SLOT)),
    "https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/batch-prediction-from-cloud-storage",
    extras=("processed_time", "request"),
    failures=("/status",),  # the error message, "" for a row that succeeded
)

BATCH_ROWS = BatchRows(
    tuple(
        EnvelopeBody(layout, PROVIDER, default=True)
        for layout in (GEMINI_BATCH, GEMINI_BATCH_OUTPUT, GEMINI_BATCH_INLINE_OUTPUT, VERTEX_BATCH, VERTEX_BATCH_OUTPUT)
    )
)
