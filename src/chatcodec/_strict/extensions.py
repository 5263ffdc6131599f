"""Fields that compatible servers document beyond the official SDK types, kept by hand.

Strict decoding (:mod:`chatcodec._strict.fields`) refuses a field the provider's published API
does not define; the generated ``_providers/<name>/known_fields.json`` files hold what
the SDKs define. The servers chatcodec also reads (DeepSeek, Kimi, OpenRouter, Z.ai,
vLLM, Vertex AI, ...) speak those formats with documented additions, and a request or
answer using them is not a mistake. The rows are each provider's facts, in its edge
(``Edge.extensions``, ``_providers/<name>/edge.py``); each row names where the addition
is documented, and a field listed is read as free-form (strict mode does not look
inside it).

A row's kind is a kind name of the provider's ``known_fields.json``, or a pattern
(``fnmatch``: ``*`` for every kind, ``Response*DeltaEvent``). A row sourced
"recorded" was seen in a real answer in the repository's fixtures, with no document
naming it yet (servers add answer fields before their references list them).

A row with an ``api_version`` holds fields of an older API version the provider still
serves, which the SDK the table was generated from no longer types: strict decoding
accepts the fields of every API version the provider documents, since a gateway cannot
tell which version its client speaks from the body alone (Anthropic's comes in the
``anthropic-version`` header).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable

from chatcodec._errors import ProviderLookupError
from chatcodec._providers.contract.extension import Extension
from chatcodec._registry import PROVIDER_NAMES, get_edge

__all__ = ["Extension", "all_extensions", "extension_fields"]


def all_extensions() -> tuple[Extension, ...]:
    """Every documented extension of the built-in providers' edges, with its source."""
    rows: list[Extension] = []
    for name in PROVIDER_NAMES:
        try:
            rows.extend(get_edge(name).extensions)
        except ProviderLookupError:  # a provider without an edge documents no extension
            continue
    return tuple(rows)


def extension_fields(rows: Iterable[Extension], kinds: Iterable[str]) -> dict[str, frozenset[str]]:
    """Kind name -> the extension fields (of ``rows``, one provider's) an object of that kind may hold."""
    rows = tuple(rows)
    found: dict[str, frozenset[str]] = {}
    for kind in kinds:
        fields = frozenset(field for row in rows if fnmatch.fnmatchcase(kind, row.kind) for field in row.fields)
        if fields:
            found[kind] = fields
    return found


def __getattr__(name: str) -> object:
    """``EXTENSIONS``: :func:`all_extensions`, read from the edges when first asked for
    (importing every edge when this module loads would tie strict mode to all of them)."""
    if name == "EXTENSIONS":
        return all_extensions()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
