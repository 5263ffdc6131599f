"""A registered codec's encoder options, by name, checked: the option table's check
(:func:`~chatcodec._option_table.named_options`) applied to the table of the codec the
registry holds for a provider.

It sits beside :mod:`chatcodec._option_table`, in the kit layer with the registry, so the
callers that take options from a user and hand them to a codec (the stream converter, the
dataset engines, the CLI) import it from below ``chatcodec._api`` instead of from it: it
used to live in ``_api.py``, which made ``streams/_convert.py`` and ``datasets/`` import the
API they sit beside.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._option_table import named_options
from chatcodec._registry import get_codec

__all__ = ["checked_options"]


def checked_options(provider: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` for ``provider``'s encoder, by name, checked
    (:func:`~chatcodec._option_table.named_options`): an unknown name raises
    :class:`~chatcodec._errors.OptionError`, a legacy ``_name`` is read with a
    :class:`DeprecationWarning`."""
    return named_options(provider, get_codec(provider).options, options)
