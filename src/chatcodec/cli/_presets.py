"""``convert``'s row formats beyond bare bodies: batch envelopes and custom layouts.

``--from``/``--to`` take a body format (``openai-chat``), or a batch envelope preset
(``openai-batch``, ``anthropic-batch-results``; ``NAME:FORMAT`` fixes the body format:
``bedrock-batch:anthropic``) from :data:`chatcodec.batch._envelopes.ENVELOPES`; a layout of
your own is given by JSON pointers (``--body-at /request/body --id-at /meta/id``, and
``--out-body-at``/``--out-id-at`` for the output). This module turns those arguments into
:class:`~chatcodec.batch._convert_records.ConvertOptions` fields; the row pipeline is the one every
conversion takes.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from chatcodec._errors import ProviderLookupError
from chatcodec._registry import CANONICAL, FRAMEWORK_FORMATS, PROVIDER_NAMES, is_available
from chatcodec._row_dialects import dialects as training
from chatcodec.batch import _envelopes as envelopes
from chatcodec.batch._row_formats import Labels, RowFormats, resolve_row_formats
from chatcodec.cli import _training_options as training_options

TRAINING_DIALECTS = training.TRAINING_DIALECTS
"""The training dialects' names (rows of their own, read without a codec of their own)."""

FORMATS_HELP = (
    f"a body format ({', '.join((*PROVIDER_NAMES, CANONICAL))}), a framework history "
    f"({', '.join(sorted(FRAMEWORK_FORMATS))}), a batch envelope "
    f"({', '.join(envelopes.ENVELOPE_NAMES)}; NAME:FORMAT fixes its body format) or a training dialect "
    f"({', '.join(training.TRAINING_DIALECTS)})"
)


DIALECT_LINES = {
    "sharegpt": "LLaMA-Factory / axolotl {conversations: [{from, value}], system, tools, images}",
    "trl-prompt-completion": "TRL {prompt: [...], completion: [...], tools}",
    "verifiers": "a Verifiers rollout {prompt, completion, answer, reward, ...}",
    "hf-chat": "Hugging Face chat-template {messages, tools}: calls without ids, arguments as objects",
    "rollout": "token-level rollout {messages, tools, token_ids, message_indices, sampled_mask, logprobs} "
    "(written with --template and --tokenizer)",
    "trajectory": "an episode {messages, tools, turns: [{message_index, prompt_ids, completion_ids, logprobs}]} "
    "(written with --template and --tokenizer)",
    "alpaca": "LLaMA-Factory alpaca {instruction, input, output, system, history, images}",
    "openai-evals": "OpenAI Evals items {item: {input, ...}, sample} and run output items (read only)",
    "openhands": "an OpenHands evaluation output row {instance_id, history, raw_completions?, ...}: the model's "
    "conversation (read only)",
    "claude-code": "a Claude Code session file (~/.claude/projects/<project>/<session>.jsonl), the whole file one "
    "conversation (read only)",
    "codex": "a Codex CLI rollout file (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), the whole file one "
    "conversation (read only)",
    "atif": "Harbor's agent trajectory (ATIF v1.5) {schema_version, session_id, agent, steps}, a trajectory's turns "
    "as its steps' metrics (written only: read one --from trajectory)",
    "trl-preference": "TRL {prompt, chosen, rejected} (prompt optional)",
    "openai-dpo": "OpenAI DPO {input, preferred_output, non_preferred_output}",
    "sharegpt-preference": "LLaMA-Factory {conversations, chosen, rejected}",
    "preference": "chatcodec's pair form {prompt, chosen, rejected}, canonical",
}
"""One line per training dialect, for ``convert --help``."""


def dialects_help() -> str:
    """``convert --help``'s list of training dialects, a line each."""
    width = max(len(name) for name in training.TRAINING_DIALECTS)
    lines = [f"  {name:<{width}}  {DIALECT_LINES[name]}" for name in training.TRAINING_DIALECTS]
    return "training dialects (--from/--to; --dialect-config maps keys and columns):\n" + "\n".join(lines)


def row_format(text: str) -> str:
    """``--from``/``--to``'s value: a body format (a known one without its codec too, refused
    once with why before a line is read; and a codec registered at run time, for a program
    that calls :func:`chatcodec.cli.main` after ``register_codec``), an envelope preset or a
    training dialect."""
    try:
        if text in PROVIDER_NAMES or text in training.TRAINING_DIALECTS or is_available(text):
            return text
    except ProviderLookupError as error:  # an installed codec's entry point is refused
        raise argparse.ArgumentTypeError(str(error)) from None
    if envelopes.is_envelope_spec(text) and not text.startswith("body="):
        try:
            envelopes.envelope_named(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        return text
    from chatcodec.cli._format_names import unknown_format

    raise argparse.ArgumentTypeError(unknown_format(text))


def add_layout_arguments(convert: Any) -> None:
    """``--model``, the JSON-pointer layout options and ``--dialect-config``."""
    convert.add_argument(
        "--model",
        metavar="NAME",
        help="the model every converted request names, replacing the input's (e.g. a batch moved to Anthropic)",
    )
    convert.add_argument(
        "--dialect-config",
        type=Path,
        metavar="JSON",
        help="a sharegpt or alpaca row's keys, columns and role names: a JSON file holding LLaMA-Factory's "
        "dataset_info entry (columns, tags) or axolotl's chat_template keys (field_messages, "
        "message_property_mappings, roles, message_field_training)",
    )
    convert.add_argument(
        "--template",
        metavar="NAME|FILE",
        help="write hf-chat, trl-prompt-completion, rollout or trajectory rows in a chat template's shapes, which that "
        "template renders without a drop: a family chatcodec knows (qwen3, qwen3.6, llama3.1, gpt-oss, ...) or a "
        "file holding the template's Jinja text (a tokenizer's chat_template)",
    )
    convert.add_argument(
        "--tokenizer",
        metavar="JSON",
        help="the tokenizer.json (or a model folder holding one) a rollout row's tokens or a trajectory row's turns "
        "are rendered with (--to "
        "rollout or trajectory, with --template; "
        "needs the tokenizers extra)",
    )
    training_options.add_template_limits(convert)
    convert.add_argument(
        "--train-on",
        choices=("last_assistant_message", "all_assistant_messages"),
        help="which answers a rollout row's sampled_mask marks, as render's train_on takes it (--to rollout; "
        "by default the last)",
    )
    convert.add_argument(
        "--id-from-line",
        action="store_true",
        help="number the rows: a row whose envelope holds no id (Vertex batch input) gets line-N, N its JSON "
        "Lines line number, as its id in the output envelope (or under --id-field)",
    )
    for prefix, side in (("", "input"), ("out-", "output")):
        convert.add_argument(
            f"--{prefix}body-at",
            metavar="POINTER",
            help=f"the JSON pointer of the body in each {side} row of a custom layout (e.g. /request/body)",
        )
        convert.add_argument(
            f"--{prefix}id-at",
            metavar="POINTER",
            help=f"the JSON pointer of the id in each {side} row of a custom layout",
        )


CLI_LABELS = Labels("--from", "--to", "--body-at", "--out-body-at", "--kind")
"""How the command line names the converters' arguments."""


def resolve(arguments: argparse.Namespace) -> RowFormats:
    """The formats and envelopes the arguments name; ``ValueError`` says what is wrong."""
    rows = resolve_row_formats(
        arguments.source,
        arguments.target,
        kind=arguments.kind,
        envelope=_layout(arguments.body_at, arguments.id_at, "--body-at"),
        out_envelope=_layout(arguments.out_body_at, arguments.out_id_at, "--out-body-at"),
        labels=CLI_LABELS,
        check_codecs=False,  # refused with its own exit code before the input is read
    )
    if getattr(arguments, "id_from_line", False) and rows.envelope is None:
        raise ValueError("--id-from-line numbers the rows of an envelope without ids (--from vertex-batch ...)")
    if arguments.id_field is not None and rows.envelope is not None and rows.out_envelope is not None:
        raise ValueError("--id-field is for a row that is a bare body; envelopes carry their own ids")
    return rows


def _layout(body_at: str | None, id_at: str | None, option: str) -> str | None:
    """A custom layout's spec from its two pointers (``None`` when neither is given)."""
    if body_at is None:
        if id_at is not None:
            raise ValueError(f"{option.replace('body', 'id')} needs {option}")
        return None
    spec = f"body={body_at}" + (f",id={id_at}" if id_at is not None else "")
    for pointer in (body_at, id_at):
        if pointer is not None:
            envelopes.split_pointer(pointer)  # raises for a pointer not starting with '/'
    envelopes.envelope_named(spec)
    return spec
