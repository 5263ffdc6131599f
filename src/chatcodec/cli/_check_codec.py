"""``chatcodec check-codec NAME``: the provider laws over one installed codec (built-in, or
found by its ``chatcodec.codecs`` entry point), from the installed package.

Prints one line per failing law case and a last line ``laws: P passed, F failed``; exits 1
when any fails. ``-k TEXT`` runs the cases whose id holds the text (repeatable: any of them),
``--seed N`` draws other examples than the default run (the same ones for the same seed), and
``--max-examples N`` sets each law's budget. A run is derandomized (the same examples every
time) and bounded: a failing example is reported as drawn, not shrunk, unless ``--shrink``
asks for it (Hypothesis may then spend up to five minutes per law making it smaller). The
laws draw examples with Hypothesis, an optional dependency: without it the command says what
to install and exits 69 (``EX_UNAVAILABLE``), as every command does for a missing extra; an
unknown name exits 64, an installed codec that cannot be loaded 69.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn, TextIO

from chatcodec._extras import install_hint
from chatcodec.cli import _exit_codes as exit_codes

DEFAULT_EXAMPLES = 100
"""Each law's examples when ``--max-examples`` is not given (Hypothesis's own default)."""


def add_check_codec_command(commands: Any) -> None:
    """Register ``check-codec`` on the sub-command parser."""
    check = commands.add_parser(
        "check-codec",
        help="run every provider law over an installed codec (needs the testing extra)",
        description="Run the provider laws the built-in codecs pass over an installed codec: one line per failing "
        "law, then 'laws: P passed, F failed'. Derandomized (the same examples every run) and bounded (failing "
        "examples are not shrunk unless --shrink).",
    )
    check.add_argument("name", help="the codec's registry name (a built-in, or one an installed distribution declares)")
    check.add_argument(
        "-k",
        dest="keywords",
        action="append",
        default=[],
        metavar="TEXT",
        help="run only the law cases whose id holds TEXT (e.g. law_streamed, round_trips); repeatable: any of them",
    )
    check.add_argument(
        "--seed", type=int, metavar="N", help="draw the examples from seed N (default: the same ones every run)"
    )
    check.add_argument(
        "--max-examples",
        type=_positive,
        default=DEFAULT_EXAMPLES,
        metavar="N",
        help=f"the examples each law draws (default {DEFAULT_EXAMPLES}; some laws draw at most 4x this floor)",
    )
    check.add_argument(
        "--shrink",
        action="store_true",
        help="shrink a failing example to a smaller one (Hypothesis may spend minutes on one law)",
    )
    check.set_defaults(run=_run_check_codec)


def _positive(text: str) -> int:
    value = int(text) if text.isdigit() else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not {text!r}")
    return value


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _bounded_examples(arguments: argparse.Namespace) -> None:
    """This run's examples: no deadline (a law checks what a codec gives, not how fast, and its
    first example pays for the imports, which on a loaded machine outlast Hypothesis's default
    deadline: a failure that says nothing about the codec), ``--max-examples`` of them,
    drawn the same way every run (a CI check that passes passes again; a search for new cases
    is ``--seed`` or a pytest run over codec_law_cases), not shrunk unless ``--shrink`` (a
    shrink is bounded by Hypothesis at five minutes per law, too long for a check), and no
    example database written into the caller's folder."""
    from hypothesis import Phase, settings

    phases = tuple(Phase) if arguments.shrink else tuple(phase for phase in Phase if phase is not Phase.shrink)
    settings.register_profile(
        "chatcodec-check-codec",
        parent=settings.default,
        deadline=None,
        derandomize=True,
        database=None,
        max_examples=arguments.max_examples,
        phases=phases,
    )
    settings.load_profile("chatcodec-check-codec")


def _run_check_codec(arguments: argparse.Namespace, out: TextIO) -> int:
    try:
        from hypothesis import settings
    except ModuleNotFoundError as missing:
        if missing.name != "hypothesis":
            raise
        print(f"chatcodec check-codec needs the testing extra (hypothesis): {install_hint('testing')}", file=sys.stderr)
        return exit_codes.UNAVAILABLE
    refused = _refused_name(arguments.name)
    if refused is not None:
        return refused
    before = settings.get_current_profile_name()
    _bounded_examples(arguments)  # before the laws are imported: their settings are made at import
    try:
        code = _run_laws(arguments, out)
    finally:
        settings.load_profile(before)  # a program calling main() keeps its own profile
    if getattr(arguments, "as_program", False):
        _end_process(code)
    return code


def _refused_name(name: str) -> int | None:
    """The exit code for a name no codec has (64) or an installed codec that cannot be
    loaded (69), said in one line; ``None`` for a codec to check."""
    from chatcodec._errors import CodecNotAvailableError, ProviderLookupError
    from chatcodec._registry import get_codec
    from chatcodec.cli._format_names import unknown_format

    try:
        get_codec(name)
    except CodecNotAvailableError as error:
        print(f"chatcodec check-codec: error: {error}", file=sys.stderr)
        return exit_codes.UNAVAILABLE
    except ProviderLookupError:
        print(f"chatcodec check-codec: error: {unknown_format(name, (), envelopes=False)}", file=sys.stderr)
        return exit_codes.USAGE
    return None


def _run_laws(arguments: argparse.Namespace, out: TextIO) -> int:
    from chatcodec.testing._laws import check
    from chatcodec.testing._laws.registry import seed_every_law

    cases = check.codec_law_cases(arguments.name)
    if arguments.keywords:
        cases = [case for case in cases if any(keyword in case.id for keyword in arguments.keywords)]
        if not cases:
            print(f"chatcodec check-codec: error: no law case of {arguments.name!r} matches -k", file=sys.stderr)
            return exit_codes.USAGE
    if arguments.seed is not None:
        seed_every_law(arguments.seed)
    passed = failed = 0
    for case in cases:
        try:
            case.run()
        except Exception as error:
            failed += 1
            print(f"FAILED {case.id}: {_first_line(error)}", file=out, flush=True)
        else:
            passed += 1
    print(f"laws: {passed} passed, {failed} failed", file=out)
    return 1 if failed else exit_codes.OK


def _end_process(code: int) -> NoReturn:
    """End a ``chatcodec check-codec`` process once its summary is out. The laws load native
    libraries (pyarrow's thread pools, through the columnar laws) whose teardown at interpreter
    exit was seen to abort the process after the summary was printed (``terminate called without
    an active exception``, exit 134), turning a passed check red; nothing is left to clean up."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
