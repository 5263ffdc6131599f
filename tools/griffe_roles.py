"""A Griffe extension for the docs site: the docstrings' Sphinx roles (``:func:`x```,
``:class:`~a.B```, ``:data:`...```) are shown as code (``x``, ``B``), as a reader of the
source reads them, rather than as the literal role text. Loaded by mkdocs.yml."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|meth|attr|data|mod|obj|exc|const):`(~?)\.?([^`]+)`")


def _shown(match: re.Match[str]) -> str:
    short, target = match.group(1), match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


class RolesAsCode(griffe.Extension):
    """Rewrite each docstring's roles once the object is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _ROLE.sub(_shown, obj.docstring.value)
