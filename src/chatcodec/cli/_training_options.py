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
    from chatcodec._training.render import TrainOn


def template(name: str | None, target: str, parser: argparse.ArgumentParser) -> str | None:
    """``--template``: a family's name, or the text of a template file, checked once here
    (an unknown family or a file that is no template is a usage error, not a failure per row)."""
    if name is None:
        return None
    from chatcodec._training.errors import TemplateError
    from chatcodec._training.families import given_text, resolve
    from chatcodec.batch._training import TEMPLATE_DIALECTS

    if target not in TEMPLATE_DIALECTS:
        parser.error(f"--template writes {', '.join(TEMPLATE_DIALECTS)} rows, not {target}")
    try:
        text = given_text(name)
        resolve(text)
    except TemplateError as error:
        parser.error(f"--template: {error}")
    return text


def tokenizer(arguments: argparse.Namespace, source: str, target: str, parser: argparse.ArgumentParser) -> str | None:
    """``--tokenizer``'s path, which rollout rows need with ``--template`` (their tokens are
    rendered; a rollout converted to itself keeps its own without them), checked once here."""
    from chatcodec.batch._training import TOKEN_DIALECTS

    path: str | None = arguments.tokenizer
    if target not in TOKEN_DIALECTS:
        if path is not None:
            parser.error(
                f"--tokenizer renders rollout rows' tokens and trajectory rows' turns (--to rollout, --to "
                f"trajectory), not {target} rows"
            )
        return None
    if (path is None or arguments.template is None) and (source != target or path is not None):
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
