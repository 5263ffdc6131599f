"""OpenAI's Batch API row layouts, shared by the two OpenAI folders whose bodies ride in
them (Chat Completions and Responses): the ``url`` field names the body's format, each
folder's ``batch_rows.py`` says which value is its own."""

from __future__ import annotations

from chatcodec._providers.contract.envelopes import BODY_SLOT, FORMAT, ID_SLOT, EnvelopeLayout

OPENAI_BATCH = EnvelopeLayout(
    "openai-batch",
    "request",
    (("/custom_id", ID_SLOT), ("/method", "POST"), ("/url", FORMAT), ("/body", BODY_SLOT)),
    "https://platform.openai.com/docs/api-reference/batch/request-input",
    id_required=True,
)
"""A Batch API input file's row."""

OPENAI_BATCH_OUTPUT = EnvelopeLayout(
    "openai-batch-output",
    "response",
    (("/custom_id", ID_SLOT), ("/response/status_code", 200), ("/response/body", BODY_SLOT), ("/error", None)),
    "https://platform.openai.com/docs/api-reference/batch/request-output",
    extras=("id",),
    failures=("/error", "/response/body/error"),
)
"""A Batch API output file's row."""
