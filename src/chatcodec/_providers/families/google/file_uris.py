"""Which file ids Google's APIs can fetch, and as what URI: one rule for Gemini's ``fileData``
and the Interactions API's ``uri``.

Both read a file by URI (https://ai.google.dev/gemini-api/docs/files, "file_data.file_uri";
https://ai.google.dev/gemini-api/docs/interactions, a content's ``uri``): a Files API upload's
``uri``, its name ``files/abc123`` (the upload's URI is the API's base and that name), a Cloud
Storage ``gs://`` URI or an ``http(s)`` URL. Another provider's id (OpenAI's ``file-abc``,
Anthropic's ``file_011...``) names nothing Google can fetch: sent, it is refused, so a writer
reports it instead.
"""

from __future__ import annotations

FILES_API = "https://generativelanguage.googleapis.com/v1beta/"
"""Where a Files API name (``files/abc123``) lives: an upload's ``uri`` is this prefix and its ``name``."""

NOT_A_URI = "Google's APIs reference files by URI, not another provider's file id"
"""Why a file id that is no URI is not sent."""


def file_uri(file_id: str) -> str | None:
    """The URI a Google API reads the file ``file_id`` by (a Files API name made its URI), or
    None when it is another provider's id."""
    if file_id.startswith("files/"):
        return FILES_API + file_id
    return file_id if "://" in file_id else None
