"""One file, one format: what ``validate`` holds a file of rows to when no ``--format`` is given.

Each row alone is read in the format its marks show (:mod:`chatcodec._detect`), so a file
mixing OpenAI, Anthropic and Gemini lines passed, each line "ok" in its own format: a
dataset tool reading that file as one format refuses half of it. Here the formats every row
so far can be in are kept (the intersection of its marks' formats; a row with no mark places
nothing); a row that leaves none is reported. When only canonical holds them all (two rows
of provider formats that exclude each other, both shapes canonical shares), the row must
then be canonical data itself, or it is reported too.
"""

from __future__ import annotations

from collections.abc import Callable

from chatcodec import _detect as detect
from chatcodec._errors import ValidationError

_CANONICAL_ONLY = frozenset({detect.CANONICAL})


class FileFormat:
    """The formats the rows of one file read so far can all be in."""

    __slots__ = ("first", "fits")

    def __init__(self) -> None:
        self.fits: frozenset[str] | None = None
        """The formats every row with a mark so far can be in (None: no row placed any)."""
        self.first = ""
        """The label of the first row that placed the file (``:3``, ``[2]``)."""

    def mismatch(self, data: object, label: str, canonical: Callable[[object], object]) -> str | None:
        """Why the row at ``label`` is not in the file's format (None when it can be);
        ``canonical`` reads a row as canonical data (raising :class:`ValidationError`)."""
        marks = detect.markers(data)
        if not marks:
            return None
        fits = marks[0].formats
        for mark in marks[1:]:
            fits &= mark.formats
        if self.fits is None:
            self.fits, self.first = fits, label
            return None
        joined = self.fits & fits
        if not joined:
            return (
                f"its marks fit {_listed(fits)}, but the rows before it fit only {_listed(self.fits)} "
                f"(placed at {self.first}): a file holds one format; give --format to read every row as it"
            )
        if joined == _CANONICAL_ONLY and self.fits != _CANONICAL_ONLY:
            try:
                canonical(data)
            except ValidationError as error:
                return (
                    f"its marks fit {_listed(fits)}, and the rows before it {_listed(self.fits)} (placed at "
                    f"{self.first}): only canonical data holds both, and canonical refuses it "
                    f"({error.paths[0] if error.paths else '$'}): a file holds one format; give --format"
                )
        self.fits = joined
        return None


def _listed(formats: frozenset[str]) -> str:
    return ", ".join(sorted(formats))
