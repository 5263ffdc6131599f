"""``chatcodec check-render TEMPLATE``: a seeded corpus through every installed reference of a
chat template (:mod:`chatcodec._training.check`).

Prints what was compared, what could not be, and the first finding of each kind with its
first differing span; exits 1 when any reference disagrees, 0 when none does, and 69 when no
reference was compared at all (none installed, or none writes this template): "no disagreement"
from chatcodec alone would read as a pass it is not, unless ``--self-only`` asks for just that
(determinism and the prefix property, chatcodec against itself). ``TEMPLATE`` is a
family chatcodec knows or a file holding a template's Jinja text; ``--tokenizer`` (a
``tokenizer.json``) adds the ids check.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from chatcodec.cli import _exit_codes as exit_codes
from chatcodec.cli._training_options import add_template_limits, template_limits


def add_check_render_command(commands: Any) -> None:
    """Register ``check-render`` on the sub-command parser."""
    check = commands.add_parser(
        "check-render",
        help="render a seeded corpus through a chat template and every installed reference, and compare",
        description="Render one seeded corpus of conversations (answers, reasoning, calls, parallel calls, several "
        "turns, images, a system prompt) through a chat template and each installed reference (renderers), and "
        "print the first differing span of text, trained characters, ids and the prefix property.",
    )
    check.add_argument("template", help="a family chatcodec knows (qwen3, gpt-oss, ...) or a file of the template")
    check.add_argument("--count", type=int, default=28, metavar="N", help="conversations in the corpus (default 28)")
    check.add_argument("--seed", type=int, default=0, metavar="N", help="the corpus' seed (default 0)")
    check.add_argument("--tokenizer", type=Path, metavar="JSON", help="a tokenizer.json: compare ids too")
    add_template_limits(check)
    check.add_argument(
        "--self-only",
        action="store_true",
        help="check chatcodec against itself alone (determinism, the prefix property): exit 0 with no reference",
    )
    check.set_defaults(run=_run_check_render, parser=check)


def _run_check_render(arguments: argparse.Namespace, out: TextIO) -> int:
    from chatcodec._extras import MissingExtraError
    from chatcodec._training.check import check_render, report
    from chatcodec._training.errors import TemplateError

    try:
        check = check_render(
            arguments.template,
            count=max(arguments.count, 1),
            seed=arguments.seed,
            tokenizer=None if arguments.tokenizer is None else str(arguments.tokenizer),
            template_limits=template_limits(arguments, arguments.parser),
        )
    except TemplateError as error:
        print(f"chatcodec check-render: error: {error}", file=sys.stderr)
        return exit_codes.USAGE
    except MissingExtraError as error:
        print(f"chatcodec check-render: {error}", file=sys.stderr)
        return exit_codes.UNAVAILABLE
    print(report(check), file=out)
    if check.findings:
        return 1
    if len(check.references) == 1 and not arguments.self_only:
        missing = "; ".join(check.unavailable) or "none"
        print(
            f"chatcodec check-render: no reference was compared ({missing}): install one, or pass --self-only "
            f"to check chatcodec against itself alone",
            file=sys.stderr,
        )
        return exit_codes.UNAVAILABLE
    return exit_codes.OK
