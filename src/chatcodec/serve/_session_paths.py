"""A session named in the URL: ``/sessions/{id}/`` before any of the server's paths
(``/sessions/ep-7/v1/messages``), for a harness that can set its base URL but no header.

Why the path is rewritten before routing rather than every route written twice: the prefix
means the same before every front's path (a call, a model list, a token count), so the app
strips it once, as a reverse proxy strips a mount point, and names the session in
``x-chatcodec-session``, the header that wins over every harness's own
(:data:`~chatcodec.serve._turn_records.SESSION_HEADERS`). The steps after read one place.
An id is visible ASCII (a UUID, ``ep-7``), as a header carries it.
"""

from __future__ import annotations

from starlette.types import Scope

PREFIX = "/sessions/"
SESSION_HEADER = b"x-chatcodec-session"


def session_in_path(scope: Scope) -> Scope:
    """``scope`` with a leading ``/sessions/{id}`` taken out of its path and put in its
    ``x-chatcodec-session`` header (the same scope when its path names no session)."""
    path: str = scope.get("path", "")
    if scope.get("type") != "http" or not path.startswith(PREFIX):
        return scope
    session, slash, rest = path[len(PREFIX) :].partition("/")
    if not slash or not _header_value(session):
        return scope  # no session a header can hold: left to the routes (a 404 in the front's shape)
    headers = [(name, value) for name, value in scope.get("headers", ()) if name != SESSION_HEADER]
    headers.append((SESSION_HEADER, session.encode("ascii")))
    raw: bytes | None = scope.get("raw_path")
    parts = raw.split(b"/", 3) if raw is not None else []
    raw_rest = b"/" + parts[3] if len(parts) == 4 else None  # the rest as the caller escaped it
    return {**scope, "path": "/" + rest, "raw_path": raw_rest, "headers": headers}


def _header_value(session: str) -> bool:
    """Whether ``session`` is an id a header carries as sent: visible ASCII, at most 256 characters."""
    return 0 < len(session) <= 256 and session.isascii() and session.isprintable() and " " not in session
