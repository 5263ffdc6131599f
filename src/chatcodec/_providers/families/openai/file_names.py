"""The file name OpenAI requires beside inline file data, shared by openai-chat and
openai-responses.

Both APIs reject inline ``file_data`` without a ``filename`` (Chat: "Missing required
parameter: 'messages[0].content[0].file.filename'"; Responses ``input_file`` the same).
A part with neither a file name nor a title gets ``document`` plus the
extension of its media type, and the invented name is reported (:func:`write_filename`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import mimetypes

    from chatcodec.contract import LossRecorder, Steps


@cache
def _media_types() -> mimetypes.MimeTypes:
    """The table, read on the first invented name: it reads the system's ``mime.types``,
    which only a conversion that invents a name should pay for."""
    import mimetypes

    return mimetypes.MimeTypes()


def invented_filename(media_type: str | None) -> str:
    """``document`` with the extension of ``media_type`` (``document.pdf``), or bare."""
    return f"document{_media_types().guess_extension(media_type or '', strict=False) or ''}"


def write_filename(
    part: Mapping[str, Any],
    file: dict[str, Any],
    losses: LossRecorder,
    at: Steps,
    *,
    unnamed: bool,
    words: tuple[str, str],
) -> None:
    """``file``'s ``filename``: the part's, else its title (Anthropic's ``title`` is the name
    shown, OpenAI's ``filename`` the same). Inline ``file_data`` with neither gets an
    invented name, reported, unless the part was read from a payload of the same API that
    had none (``unnamed``: its own round trip stays exact). ``words`` name the API's file
    parts and its requirement in the losses."""
    title = part.get("title")
    filename = part.get("filename")
    if filename is None:
        filename = title
    if title not in (None, filename):
        losses.add((*at, "title"), "document title", f"{words[0]} have one file name, kept")
    if filename is None and "file_data" in file and "filename" not in file and not unnamed:
        filename = invented_filename(part["source"].get("media_type"))
        losses.add((*at, "filename"), "file name", f"{words[1]} sent {filename!r}")
    if filename is not None:
        file["filename"] = filename
