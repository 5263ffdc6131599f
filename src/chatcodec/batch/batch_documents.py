"""Batch results that come as one document holding every row, read row by row.

A Gemini batch built from inlined requests has no results file: ``batches.get`` returns
the batch's long-running operation, whose ``response`` (a ``GenerateContentBatchOutput``)
holds ``inlinedResponses.inlinedResponses[]``, one ``InlinedResponse`` per request in the
order they were sent, each ``{"metadata": {...}, "response": GenerateContentResponse}`` or
``{"metadata": {...}, "error": Status}`` (https://ai.google.dev/api/batch-api#InlinedResponse,
https://ai.google.dev/gemini-api/docs/batch-api "Retrieving results": ``jq
'.response.inlinedResponses'``). Read as one response it is an answer with no candidates,
which is no answer at all; read here, each item is a row of the
``gemini-batch-inline-output`` envelope (:mod:`chatcodec.batch.envelopes`), converted,
rejected with its own ``error`` or counted exactly as the JSON-lines results file's rows
are. A row's number is its place in the list, counting from 1.
"""

from __future__ import annotations

from typing import Final

from chatcodec._narrow import as_dict, as_list
from chatcodec.batch import envelopes

INLINE_ROWS: Final = "gemini-batch-inline-output"
"""The envelope of each item of an inlined batch's results."""

ROW_LISTS: Final = (
    "/response/inlinedResponses/inlinedResponses",
    "/metadata/output/inlinedResponses/inlinedResponses",
    "/output/inlinedResponses/inlinedResponses",
    "/inlinedResponses/inlinedResponses",
)
"""Where the items are: in ``batches.get``'s operation (``response``, or the batch in its
``metadata.output``), in a ``GenerateContentBatch`` (``output``), or in a
``GenerateContentBatchOutput`` given alone."""

READ_FROM: Final = frozenset({"gemini-batch-output", INLINE_ROWS})
"""The envelopes a user names for these results: the results file's, or the items'."""


def document_rows(document: object, envelope: str | None) -> list[object] | None:
    """The rows of a results document read with ``--from envelope``, in order; ``None``
    when ``envelope`` takes no such document or ``document`` holds no list of rows."""
    if envelope is None or envelope.partition(":")[0] not in READ_FROM:
        return None
    fields = as_dict(document)
    if fields is None:
        return None
    for pointer in ROW_LISTS:
        items = as_list(envelopes.get_pointer(fields, pointer))
        if items is not None:
            return items
    return None


def rows_envelope(envelope: str) -> str:
    """The envelope spec of the rows (``NAME:FORMAT``'s format kept)."""
    _, colon, body_format = envelope.partition(":")
    return INLINE_ROWS + colon + body_format
