"""The command line's exit codes, in one place.

====  =================================================================================
0     everything converted (or valid)
1-63  ``convert``: that many payloads were rejected (63 means 63 or more; the exact
      count is printed on standard error). ``validate``: 1 when anything is invalid.
64    bad usage: an unknown option or format, a missing argument, a bad value or setting
      (``EX_USAGE``)
66    the input file is missing or cannot be opened (``EX_NOINPUT``)
69    what the command needs is not installed or cannot be loaded: an optional extra (Parquet's
      arrow, serve, otel, check-codec's testing), an installed codec, or any reference for
      check-render to compare with (``EX_UNAVAILABLE``)
70    an internal error, such as a worker process that died (``EX_SOFTWARE``)
74    reading or writing failed part-way, or an output cannot be written (``EX_IOERR``)
130   interrupted with Ctrl-C
143   ended by SIGTERM (129: SIGHUP), once nothing was left under a temporary name: the signal's own
      status (``chatcodec.cli._signals``)
====  =================================================================================

64 and up are the BSD ``sysexits.h`` values, so a shell script can tell "some lines
were rejected" from "the run itself failed".
"""

from __future__ import annotations

from typing import Final

OK: Final = 0
"""Everything converted or valid."""
MOST_REJECTS: Final = 63
"""The highest count of rejected payloads an exit code reports; more also exit 63."""
USAGE: Final = 64
"""Bad usage (``EX_USAGE``)."""
NO_INPUT: Final = 66
"""The input file is missing or unreadable (``EX_NOINPUT``)."""
UNAVAILABLE: Final = 69
"""What the command needs is not installed or cannot be loaded (``EX_UNAVAILABLE``): an optional
extra, or a codec an installed distribution declares that cannot be loaded; every command alike."""
SOFTWARE: Final = 70
"""An internal error (``EX_SOFTWARE``)."""
IO_ERROR: Final = 74
"""An input/output error part-way (``EX_IOERR``)."""
INTERRUPTED: Final = 130
"""Stopped with Ctrl-C (128 + SIGINT, as shells report it)."""


def rejects_exit_code(rejected: int) -> int:
    """The exit code for a run that rejected ``rejected`` payloads: 0, 1..63."""
    return min(rejected, MOST_REJECTS)
