"""``created_at`` (RFC 3339 text, nanoseconds and a zone: ``2023-08-04T08:52:19.385406455-07:00``)
<-> the canonical ``created`` (Unix seconds).

The server writes Go's ``time.Time`` (``RFC3339Nano``, trailing zeros cut). The decoder
gives the whole seconds as ``created`` and keeps the text in the bag unless it is exactly
what :func:`format_created` writes for those seconds (``2024-09-12T21:17:29Z``), so a
same-provider round trip gives the text back and a response from another provider gets a
``created_at`` a Go client parses. Text that is not an RFC 3339 time gives no ``created``
(an unset ``time.Time``, ``0001-01-01T00:00:00Z``, is one: year 1).
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, datetime

_RFC3339 = re.compile(
    r"(?P<date>\d{4}-\d{2}-\d{2})[Tt](?P<time>\d{2}:\d{2}:\d{2})(?:\.\d+)?(?P<zone>[Zz]|[+-]\d{2}:\d{2})\Z"
)


def created_of(stamp: str) -> int | None:
    """The Unix seconds of ``stamp`` (fractions cut), or None when it is not RFC 3339."""
    found = _RFC3339.match(stamp)
    if found is None:
        return None
    zone = found["zone"].upper()
    try:
        moment = datetime.fromisoformat(f"{found['date']}T{found['time']}{'+00:00' if zone == 'Z' else zone}")
        return calendar.timegm(moment.astimezone(UTC).timetuple())
    except (ValueError, OverflowError):  # a day that does not exist, or a zone past year 1 or 9999
        return None


def format_created(created: int) -> str | None:
    """``created`` as the server writes a whole second, or None past what RFC 3339 holds."""
    try:
        moment = datetime.fromtimestamp(created, UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return f"{moment.year:04d}-{moment:%m-%dT%H:%M:%S}Z"
