"""The file name OpenAI requires beside inline file data, shared by openai-chat and
openai-responses.

Both APIs reject inline ``file_data`` without a ``filename`` (Chat: "Missing required
parameter: 'messages[0].content[0].file.filename'"; Responses ``input_file`` the same).
A part with neither a file name nor a title gets ``document`` plus the
extension of its media type; the caller reports the invented name.
"""

from __future__ import annotations

import mimetypes
from functools import cache


@cache
def _media_types() -> mimetypes.MimeTypes:
    """The table, read on the first invented name: it reads the system's ``mime.types``,
    which cost every fresh process's first conversion about 18 M instructions (first use)."""
    return mimetypes.MimeTypes()


def invented_filename(media_type: str | None) -> str:
    """``document`` with the extension of ``media_type`` (``document.pdf``), or bare."""
    return f"document{_media_types().guess_extension(media_type or '', strict=False) or ''}"
