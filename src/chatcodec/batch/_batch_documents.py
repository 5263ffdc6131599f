"""Batch results that come as one document holding every row, read row by row.

A Gemini batch built from inlined requests has no results file: ``batches.get`` returns
the batch's long-running operation, whose ``response`` (a ``GenerateContentBatchOutput``)
holds ``inlinedResponses.inlinedResponses[]``, one ``InlinedResponse`` per request in the
order they were sent, each ``{"metadata": {...}, "response": GenerateContentResponse}`` or
``{"metadata": {...}, "error": Status}`` (https://ai.google.dev/api/batch-api#InlinedResponse,
https://ai.google.dev/gemini-api/docs/batch-api "Retrieving results": ``jq
'.response.inlinedResponses'``). Read as one response it is an answer with no candidates,
which is no answer at all; read here, each item is a row of the envelope whose
``row_lists`` point at it (:mod:`chatcodec.batch._envelopes`), converted,
rejected with its own ``error`` or counted exactly as the JSON-lines results file's rows
are. A row's number is its place in the list, counting from 1.
"""

from __future__ import annotations

from chatcodec._narrow import as_dict, as_list
from chatcodec.batch import _envelopes as envelopes


def _lists_envelope(spec: str | None) -> envelopes.Envelope | None:
    """The envelope whose rows a results document holds, when ``--from spec`` reads one."""
    if spec is None:
        return None
    name = spec.partition(":")[0]
    return next(
        (each for each in envelopes.ENVELOPES if each.row_lists and (each.name == name or name in each.lists_for)),
        None,
    )


def reads_documents(spec: str | None) -> bool:
    """Whether ``--from spec`` reads a results document holding its rows; ``spec`` ``None``:
    whether any envelope does (``validate`` without ``--format``)."""
    if spec is None:
        return any(envelope.row_lists for envelope in envelopes.ENVELOPES)
    return _lists_envelope(spec) is not None


def document_rows(document: object, spec: str | None) -> tuple[str, list[object]] | None:
    """The rows of a results document read with ``--from spec`` (``None``: any envelope's),
    in order, with the envelope spec reading each (``NAME:FORMAT``'s format kept); ``None``
    when ``spec`` reads no such document or ``document`` holds no list of rows."""
    fields = as_dict(document)
    if fields is None:
        return None
    candidates = [envelope for envelope in envelopes.ENVELOPES if envelope.row_lists]
    if spec is not None:
        found = _lists_envelope(spec)
        candidates = [found] if found is not None else []
    _, colon, body_format = (spec or "").partition(":")
    for envelope in candidates:
        for pointer in envelope.row_lists:
            items = as_list(envelopes.get_pointer(fields, pointer))
            if items is not None:
                return envelope.name + colon + body_format, items
    return None
