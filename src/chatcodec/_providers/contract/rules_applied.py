"""What a request writer reports of the target rules it applied, for a caller that asks.

A body is written under one API version's rules (:mod:`.target_rules`); a caller that sends
the body says that version in its header, and the version may be one the writer chose when
nobody named one (a request's own marker, a server's required version, the table's default).
So the writer hands the version back (:func:`chatcodec._conversion.write_request_data`), and
the gateway sends the header of the body it wrote, as the library would for the same request.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class RulesApplied:
    """The rules a request writer applied, filled in by the writer for the caller that passed it."""

    version: str | None = None
    """The API version whose rules the body follows (None: the provider has none)."""
