"""``chatcodec check-codec NAME``: the provider laws over one installed codec (built-in, or
found by its ``chatcodec.codecs`` entry point), from the installed package.

Prints one line per failing law case and a last line ``laws: P passed, F failed``; exits 1
when any fails. The laws draw examples with Hypothesis, an optional dependency: without it
the command says what to install and exits 69 (``EX_UNAVAILABLE``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn, TextIO

from chatcodec._extras import install_hint
from chatcodec.cli import _exit_codes as exit_codes


def add_check_codec_command(commands: Any) -> None:
    """Register ``check-codec`` on the sub-command parser."""
    check = commands.add_parser(
        "check-codec",
        help="run every provider law over an installed codec (needs the testing extra)",
        description="Run the provider laws the built-in codecs pass over an installed codec: one line per failing "
        "law, then 'laws: P passed, F failed'.",
    )
    check.add_argument("name", help="the codec's registry name (a built-in, or one an installed distribution declares)")
    check.set_defaults(run=_run_check_codec)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _untimed_examples() -> None:
    """No deadline for a law's examples in this run: a law checks what a codec gives, not how
    fast, and its first example pays for the imports (400 ms on a loaded machine against
    Hypothesis's default 200 ms deadline, a failure that says nothing about the codec). The
    examples are drawn the same way every run (a CI check that passes passes again)."""
    from hypothesis import settings

    # the rest as loaded; derandomized, so a run says the same of the same codec every time (a
    # search for new cases is a pytest run over codec_law_cases), and no example database is
    # written into the caller's folder
    settings.register_profile(
        "chatcodec-check-codec", parent=settings.default, deadline=None, derandomize=True, database=None
    )
    settings.load_profile("chatcodec-check-codec")


def _run_check_codec(arguments: argparse.Namespace, out: TextIO) -> int:
    try:
        _untimed_examples()  # before the laws are imported: their settings are made at import
        from chatcodec.testing import check_codec
    except ModuleNotFoundError as missing:
        if missing.name != "hypothesis":
            raise
        print(f"chatcodec check-codec needs the testing extra (hypothesis): {install_hint('testing')}", file=sys.stderr)
        return exit_codes.UNAVAILABLE
    passed = failed = 0
    for case, error in check_codec(arguments.name):
        if error is None:
            passed += 1
        else:
            failed += 1
            print(f"FAILED {case.id}: {_first_line(error)}", file=out, flush=True)
    print(f"laws: {passed} passed, {failed} failed", file=out)
    code = 1 if failed else exit_codes.OK
    if getattr(arguments, "as_program", False):
        _end_process(code)
    return code


def _end_process(code: int) -> NoReturn:
    """End a ``chatcodec check-codec`` process once its summary is out. The laws load native
    libraries (pyarrow's thread pools, through the columnar laws) whose teardown at interpreter
    exit was seen to abort the process after the summary was printed (``terminate called without
    an active exception``, exit 134), turning a passed check red; nothing is left to clean up."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
