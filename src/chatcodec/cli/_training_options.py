"""``chatcodec convert``'s training options, each checked once before the input is read:
``--template`` (a family or a template file), ``--tokenizer`` (the ``tokenizer.json``, or a model
folder holding it, rollout and trajectory rows are rendered with) and ``--train-on`` (the answers
a rollout's mask marks).
A wrong one is a usage error, never a failure on every row."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chatcodec._training.template_limits import TemplateLimits
    from chatcodec._training.train_on import TrainOn


def add_template_limits(command: argparse.ArgumentParser) -> None:
    """``--template-seconds`` and ``--template-output-chars``: a command running a chat
    template bounds each run as ``render(template_limits=TemplateLimits(...))`` does."""
    command.add_argument(
        "--template-seconds",
        type=float,
        metavar="S",
        help="wall-clock seconds one run of the chat template may take (default 10): a template from a hub is code",
    )
    command.add_argument(
        "--template-output-chars",
        type=int,
        metavar="N",
        help="characters one run of the chat template may write or build (default 33554432)",
    )


def template_limits(arguments: argparse.Namespace, parser: argparse.ArgumentParser) -> TemplateLimits:
    """The bounds ``--template-seconds`` and ``--template-output-chars`` ask for, each checked
    once here (a bound that is no positive number is a usage error); the defaults otherwise."""
    from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits

    seconds: float | None = arguments.template_seconds
    chars: int | None = arguments.template_output_chars
    if seconds is not None and not (seconds > 0 and seconds != float("inf")):
        parser.error(f"--template-seconds is a positive number of seconds, not {seconds}")
    if chars is not None and chars <= 0:
        parser.error(f"--template-output-chars is a positive number of characters, not {chars}")
    return TemplateLimits(
        seconds=DEFAULT_LIMITS.seconds if seconds is None else seconds,
        output_chars=DEFAULT_LIMITS.output_chars if chars is None else chars,
    )


def template(
    name: str | None, target: str, parser: argparse.ArgumentParser, limits: TemplateLimits | None = None
) -> str | None:
    """``--template``: a family's name, or the text of a template file, checked once here
    (an unknown family or a file that is no template is a usage error, not a failure per row;
    its probes run within ``limits``, :func:`template_limits`)."""
    if name is None:
        return None
    from chatcodec._row_dialects.dialects import TEMPLATE_DIALECTS
    from chatcodec._training.errors import TemplateError
    from chatcodec._training.families import given_text, resolve

    if target not in TEMPLATE_DIALECTS:
        parser.error(f"--template writes {', '.join(TEMPLATE_DIALECTS)} rows, not {target}")
    try:
        text = given_text(name)
        resolve(text, limits=limits) if limits is not None else resolve(text)
    except TemplateError as error:
        parser.error(f"--template: {error}")
    return text


def tokenizer(arguments: argparse.Namespace, source: str, target: str, parser: argparse.ArgumentParser) -> str | None:
    """``--tokenizer``'s path, which token rows (rollout, trajectory, ATIF's token metrics) need
    with ``--template`` (a rollout converted to itself keeps its own tokens without them),
    checked once here by the rule ``row_options`` asks too."""
    from chatcodec._row_dialects.dialects import token_options_problem

    path: str | None = arguments.tokenizer
    problem = token_options_problem(source, target, template=arguments.template is not None, tokenizer=path is not None)
    if problem == "unused":
        parser.error(
            f"--tokenizer renders rollout rows' tokens and trajectory rows' turns (--to rollout, --to "
            f"trajectory, --to atif), not {target} rows"
        )
    if problem == "missing":
        parser.error(
            f"{target} rows hold the tokens a chat template renders: name both --template NAME and "
            f"--tokenizer tokenizer.json (a {target} converted to itself keeps its tokens without them)"
        )
    if path is not None and not Path(path).is_file() and not Path(path).is_dir():
        parser.error(f"--tokenizer {path}: no such file or model folder")
    return path


def train_on(arguments: argparse.Namespace, target: str, parser: argparse.ArgumentParser) -> TrainOn:
    """``--train-on``: which answers a rollout row's mask marks (rollout rows only)."""
    chosen: TrainOn | None = arguments.train_on
    if chosen is None:
        return "last_assistant_message"
    if target != "rollout":
        parser.error(
            f"--train-on chooses the answers a rollout row's sampled_mask marks (--to rollout), not {target} rows"
        )
    return chosen
