"""Every name the command line takes as a format, for ``chatcodec formats`` and for the
one-line refusal of a name it does not know (with a "did you mean").

The built-in names come from the registry and the batch modules, so a format is named once.
A codec an installed distribution declares is listed only when listing is asked for
(``chatcodec formats``, which imports each and warns once about one that is broken, naming
its distribution), or in a refusal, which reads the entry points anyway because the name was
none of the built-ins (:mod:`chatcodec._installed_codecs`).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any, TextIO

from chatcodec._first_names import did_you_mean
from chatcodec._registry import CANONICAL, FRAMEWORK_FORMATS, PROVIDER_NAMES, available_formats
from chatcodec._row_dialects.dialects import TRAINING_DIALECTS
from chatcodec.batch._envelopes import ENVELOPE_NAMES

_BUILT_IN = (CANONICAL, *PROVIDER_NAMES, *sorted(FRAMEWORK_FORMATS))


def format_groups(dialects: Iterable[str] = TRAINING_DIALECTS, *, envelopes: bool = True) -> dict[str, list[str]]:
    """The names a format option takes, by what they are: wire formats, framework histories,
    canonical, codecs registered at run time or installed (as far as they were read), batch
    envelopes (unless not ``envelopes``) and the ``dialects``."""
    others = [name for name in available_formats() if name not in _BUILT_IN]
    groups = {
        "wire formats": list(PROVIDER_NAMES),
        "framework histories": sorted(FRAMEWORK_FORMATS),
        "chatcodec's own": [CANONICAL],
        "registered or installed": others,
        "batch envelopes (NAME:FORMAT fixes the body format)": list(ENVELOPE_NAMES) if envelopes else [],
        "training dialects": list(dialects),
    }
    return {group: names for group, names in groups.items() if names}


def unknown_format(text: str, dialects: Iterable[str] = TRAINING_DIALECTS, *, envelopes: bool = True) -> str:
    """The refusal of format name ``text``: the one line that matters (with the nearest name),
    then every name the option takes, a group a line."""
    groups = format_groups(dialects, envelopes=envelopes)
    known = [name for names in groups.values() for name in names]
    hint = did_you_mean(text, known)
    listed = "".join(f"\n  {group}: {', '.join(names)}" for group, names in groups.items())
    return f"unknown format {text!r}{hint}{listed}\n  (chatcodec formats says what each one is)"


def add_formats_command(commands: Any) -> None:
    """Register ``formats`` on the sub-command parser."""
    formats = commands.add_parser(
        "formats",
        help="list every format --from/--to/--format take, installed codecs included",
        description="Every format name, one a line with what it is. Installed codecs (chatcodec.codecs entry "
        "points) are imported to be listed; one that cannot be is a warning naming its distribution.",
    )
    formats.set_defaults(run=_run_formats)


_WHAT = {
    "wire formats": "wire format",
    "framework histories": "framework history",
    "chatcodec's own": "chatcodec's canonical JSON",
    "batch envelopes (NAME:FORMAT fixes the body format)": "batch envelope",
    "training dialects": "training dialect",
}
"""What one name of each group is."""


def _run_formats(arguments: argparse.Namespace, out: TextIO) -> int:
    from chatcodec import _installed_codecs as installed_codecs
    from chatcodec._registry import providers_in_use

    del arguments
    working = installed_codecs.checked(frozenset(_BUILT_IN))  # each imported; a broken one warned about, once
    groups = format_groups()
    width = max(len(name) for names in groups.values() for name in names)
    for group, names in groups.items():
        for name in names:
            what = _WHAT.get(group)
            if what is None:  # registered at run time, or installed
                point = working.get(name)
                if point is None and name not in providers_in_use():
                    continue  # installed and broken: the warning said why
                what = (
                    "registered at run time"
                    if point is None
                    else f"installed by {installed_codecs.distribution(point)}"
                )
            print(f"{name:<{width}}  {what}", file=out)
    return 0
