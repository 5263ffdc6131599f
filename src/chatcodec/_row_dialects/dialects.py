"""Training dataset dialects: the rows fine-tuning and RL libraries keep conversations in.

Each dialect maps a row to a conversation chatcodec converts (a request body in OpenAI
Chat's shapes, read by that codec so its spellings come back; Verifiers' rows and the pair
form by the canonical reader) and back, so
``chatcodec convert --from sharegpt --to openai-chat`` (or ``--to sharegpt``) takes one
command. The dialects, each with the documentation it follows:

``sharegpt``               ``{"conversations": [{"from", "value"}], "system", "tools"}`` as
                           LLaMA-Factory reads it (``human``/``gpt``/``function_call``/
                           ``observation``/``system``; ``tools`` and calls as JSON text):
                           https://github.com/hiyouga/LLaMA-Factory/blob/main/data/README.md.
                           Keys and role names come from a configuration
                           (:func:`layout_from_config`: LLaMA-Factory's ``columns``/``tags``
                           or axolotl's ``field_messages``/``message_property_mappings``/
                           ``roles``, https://docs.axolotl.ai/docs/dataset-formats/conversation.html)
``trl-prompt-completion``  ``{"prompt": [...], "completion": [...], "tools"?}``, TRL's
                           conversational prompt-completion type:
                           https://huggingface.co/docs/trl/dataset_formats
``verifiers``              a Verifiers rollout: ``prompt`` and ``completion`` message lists
                           (flat ``tool_calls``) beside ``answer``, ``reward``, ``info``, ...
``hf-chat``                ``{"messages", "tools"}`` in Hugging Face's chat-template shapes
                           (:mod:`.chat_template_calls`: calls without ids, object arguments)
``rollout``                an ``hf-chat`` row with the tokens a model saw and sampled:
                           ``token_ids``, ``message_indices``, ``sampled_mask`` (the names of
                           PrimeIntellect's ``renderers``), ``logprobs`` (:mod:`.rollout_columns`);
                           written by rendering (:mod:`chatcodec._training.rollouts`); a
                           Verifiers trajectory step (``prompt``, ``completion``, ``tokens``)
                           is read as one
``trajectory``             an ``hf-chat`` row with the turns its sampler saw: ``turns``, one
                           ``{message_index, prompt_ids, completion_ids, logprobs}`` per
                           answer (:mod:`.trajectory_turns`); written by rendering each turn
                           (:mod:`chatcodec._training.trajectories`); Harbor's ATIF
                           trajectory (``schema_version``, ``steps``) is read as one (:mod:`.atif`)
``alpaca``                 LLaMA-Factory's alpaca row (:mod:`.alpaca`)
``openai-evals``           an OpenAI Evals item ``{"item", "sample"}`` or a run's output
                           item (``datasource_item``, ``sample.input``/``output``), read
                           only (:mod:`.eval_items`)
``trl-preference``         ``{"prompt", "chosen", "rejected"}`` (TRL's conversational
                           preference type; without ``prompt``, the sides' shared start is
                           the prompt, and written so again)
``sharegpt-preference``    LLaMA-Factory's ShareGPT preference row: ``conversations`` (and
                           ``system``, ``tools``) then ``chosen``/``rejected`` answers
                           ``{"from": "gpt", "value"}``
``openai-dpo``             ``{"input": {"messages", "tools"?, "parallel_tool_calls"?},
                           "preferred_output", "non_preferred_output"}``:
                           https://platform.openai.com/docs/guides/direct-preference-optimization
``preference``             chatcodec's pair form: ``{"prompt": <canonical request>,
                           "chosen": <canonical messages>, "rejected": <canonical messages>}``,
                           both sides kept exactly, whatever the pair came from
==========================================================================================

A pair dialect converts only to another pair dialect. Columns a dialect does not own
(Verifiers' ``reward``, a dataset's ``id``) are kept when reading and writing the same
dialect and are a ``metadata`` loss each when moving to another. Writing a row, every field
of the body it has no place for is a loss with its path, as a provider writer reports
(:func:`unplaced_fields`; per-message ``weight`` where the row has no training flag), and
what reading made up or could not split again (a Hugging Face call's id, alpaca's
``input``) is reported unless the row is written in its own dialect again
(``tests/test_dialect_round_trips.py`` holds the law).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._registry import PROVIDER_NAMES, get_batch_rows
from chatcodec._row_dialects import alpaca, eval_items, sharegpt
from chatcodec._row_dialects.atif import from_atif, is_atif
from chatcodec._row_dialects.chat_template_calls import (
    needs_call_ids,
    object_arguments,
    with_call_ids,
    without_made_up_ids,
)
from chatcodec._row_dialects.layout import (
    SHAREGPT,
    ConversationLayout,
    TrainingRowError,
    layout_from_config,
)
from chatcodec._row_dialects.openhands import read_openhands
from chatcodec._row_dialects.rollout_columns import (
    TOKEN_COLUMNS,
    from_trajectory_step,
    is_trajectory_step,
    token_columns,
    token_losses,
)
from chatcodec._row_dialects.sessions import SESSION_DIALECTS, SESSION_FORMATS
from chatcodec._row_dialects.trajectory_turns import turn_records, turns_losses

__all__ = [
    "CONVERSATION_DIALECTS",
    "PAIR_DIALECTS",
    "READ_ONLY_DIALECTS",
    "SESSION_DIALECTS",
    "SHAREGPT",
    "TEMPLATE_DIALECTS",
    "TOKEN_DIALECTS",
    "TRAINING_DIALECTS",
    "WRITTEN_FROM",
    "WRITTEN_ONLY_DIALECTS",
    "ConversationLayout",
    "ReadConversation",
    "TrainingRowError",
    "column_losses",
    "completion_start",
    "conversation_column_message",
    "extra_columns",
    "in_dialect_names",
    "layout_from_config",
    "message_list",
    "own_columns",
    "read_conversation",
    "read_format",
    "token_options_problem",
    "unplaced_fields",
    "with_dialect_hint",
    "write_conversation",
]

CONVERSATION_DIALECTS: Final = (
    "sharegpt",
    "trl-prompt-completion",
    "verifiers",
    "hf-chat",
    "rollout",
    "trajectory",
    "alpaca",
    "openai-evals",
    "openhands",
)
"""Dialects whose row is one conversation."""
READ_ONLY_DIALECTS: Final = ("openai-evals", "openhands", *SESSION_DIALECTS)
"""Dialects read and never written (an eval item is the eval's data, a session file its
harness's record: neither is a target)."""
PAIR_DIALECTS: Final = ("trl-preference", "openai-dpo", "sharegpt-preference", "preference")
"""Dialects whose row is a preference pair: a prompt and two completions."""
WRITTEN_ONLY_DIALECTS: Final = ("atif",)
"""Dialects written and never read under their own name: Harbor's ATIF trajectory
(:mod:`chatcodec._row_dialects.atif_writer`), read with ``--from trajectory``."""
TRAINING_DIALECTS: Final = (*CONVERSATION_DIALECTS, *SESSION_DIALECTS, *WRITTEN_ONLY_DIALECTS, *PAIR_DIALECTS)
"""Every training dialect's name (``--from``/``--to``); a session dialect's row is a whole
session file (:mod:`chatcodec._row_dialects.sessions`)."""

WRITTEN_FROM: Final = next(name for name in PROVIDER_NAMES if get_batch_rows(name).training_dialects)
"""The format a conversation is converted to before a dialect's row is written from it: the
one whose folder says the training dialects hold its message shapes (its ``batch_rows.py``)."""

_READ_IN_CANONICAL: Final = frozenset({"verifiers", "preference"})
"""The dialects read by the canonical reader: a Verifiers rollout's flat calls and
``provider_state``, chatcodec's pair form. Every other dialect's conversation is in OpenAI
Chat's shapes, read by its codec, so the spellings it keeps (an assistant's ``content``
absent, ``null`` or ``""``) come back as they were."""


def read_format(dialect: str) -> str:
    """The format a dialect's conversation (or a pair's parts) is read in."""
    if dialect in SESSION_FORMATS:
        return SESSION_FORMATS[dialect]
    return "canonical" if dialect in _READ_IN_CANONICAL else WRITTEN_FROM


_OWN_COLUMNS: Final[Mapping[str, tuple[str, ...]]] = {
    "trl-prompt-completion": ("prompt", "completion", "tools"),
    "verifiers": ("prompt", "completion"),
    "hf-chat": ("messages", "tools"),
    "rollout": ("messages", "tools", *TOKEN_COLUMNS),
    "trajectory": ("messages", "tools", "turns"),
    "openai-evals": ("item", "sample", "datasource_item"),
    "openhands": ("raw_completions", "history"),
    "trl-preference": ("prompt", "chosen", "rejected", "tools"),
    "openai-dpo": ("input", "preferred_output", "non_preferred_output"),
    "preference": ("prompt", "chosen", "rejected"),
}


def own_columns(dialect: str, layout: ConversationLayout = SHAREGPT) -> tuple[str, ...]:
    """The columns a dialect's row holds the conversation in."""
    if dialect in ("sharegpt", "sharegpt-preference"):
        columns = (layout.messages, layout.system, layout.tools, layout.images)
        sides = ("chosen", "rejected") if dialect == "sharegpt-preference" else ()
        return tuple(column for column in (*columns, *sides) if column)
    if dialect == "alpaca":
        return alpaca.AlpacaColumns.of(layout).names
    return _OWN_COLUMNS[dialect]


def extra_columns(row: Mapping[str, Any], dialect: str, layout: ConversationLayout = SHAREGPT) -> list[str]:
    """The row's columns the dialect does not own."""
    owned = own_columns(dialect, layout)
    return [column for column in row if column not in owned]


def column_losses(row: Mapping[str, Any], dialect: str, target: str, layout: ConversationLayout) -> list[Loss]:
    """A ``metadata`` loss for each column of ``row`` another dialect has no place for (a
    rollout's token columns among them)."""
    tokens = token_losses(row, target) if dialect == "rollout" else []
    if dialect == "trajectory" and target not in WRITTEN_ONLY_DIALECTS:  # ATIF's steps keep the turns
        tokens = turns_losses(row, target)
    return tokens + [
        Loss(f"$.{column}", f"{dialect} column", f"{target} rows have no place for it", "metadata")
        for column in extra_columns(row, dialect, layout)
    ]


_MORE_SETTINGS: Final = frozenset({"max_completion_tokens", "seed", "n", "user"})
"""OpenAI's names for settings beyond the canonical request's fields."""


@functools.cache
def _settings() -> frozenset[str]:
    """A request body's settings (the canonical request data's fields, and OpenAI's names
    for a few more): a dialect without them reports each as a ``setting``, any other key as
    a column. Read on the first loss, so converting loads no model module."""
    from chatcodec._model.canonical_types import ChatRequestData

    return frozenset(ChatRequestData.__annotations__) | _MORE_SETTINGS


def unplaced_fields(body: Mapping[str, Any], placed: Sequence[str], dialect: str) -> list[Loss]:
    """A loss for each field of a request body a dialect's row has no place for: a setting
    (``temperature``, ``model``) or a dataset's own column (``category``, ``score``), which
    ``--column NAME`` carries beside the row instead."""
    losses: list[Loss] = []
    for key in body:
        if key in placed:
            continue
        if key in _settings():
            losses.append(Loss(f"$.{key}", key, f"{dialect} rows keep no request settings", "setting"))
        else:
            why = f"{dialect} rows have no place for it (--column {key} carries a dataset column)"
            losses.append(Loss(f"$.{key}", "field", why, "metadata"))
    return losses


CONVERSATION_COLUMN_CONFIG: Final = '{"type": "chat_template", "field_messages": "conversation"}'
"""The ``--dialect-config`` that reads a row whose messages are its ``conversation`` column."""


def conversation_column_message(body: Mapping[str, Any], source: str) -> str | None:
    """Why a row whose ``conversation`` is a list of messages (LMSYS-Chat-1M's, WildChat's)
    is not ``source`` input, and what reads it: Responses' ``conversation`` is an id, so
    the row looked like a Responses request and read as no messages at all."""
    listed = as_list(body.get("conversation"))
    if source == "sharegpt" or "messages" in body or not listed or as_dict(listed[0]) is None:
        return None
    return (
        f"this is not {source} input: its 'conversation' is a list of messages (LMSYS-Chat-1M's and WildChat's "
        "rows), not a Responses conversation id: chatcodec convert --from sharegpt --dialect-config FILE reads "
        f"it, FILE holding {CONVERSATION_COLUMN_CONFIG} [rule: conversation_column]"
    )


def with_dialect_hint(message: str, body: Mapping[str, Any]) -> str:
    """A format mismatch's message, naming the training dialect the row plainly is."""
    if as_dict(body.get("item")) is not None and set(body) <= {"item", "sample"}:
        return f"{message}; an OpenAI Evals item {{item, sample}} is --from openai-evals"
    if body.get("object") == eval_items.OUTPUT_ITEM:
        return f"{message}; an OpenAI Evals output item (eval.run.output_item) is --from openai-evals"
    if needs_call_ids(as_list(body.get("messages")) or []):
        hint = "calls without ids, results without tool_call_id: Hugging Face chat-template rows are --from hf-chat"
        return f"{message}\n({hint})"
    return message


def message_list(value: object, path: str) -> list[Any]:
    messages = as_list(value)
    if messages is None:
        text = f": {alpaca.TEXT_PAIR_HINT}" if isinstance(value, str) else ""
        raise TrainingRowError(f"expected a list of messages{text}", path)
    return messages


# --- conversations ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReadConversation:
    """A conversation row read: the body to convert, and how the row spelled it."""

    body: dict[str, Any]
    """A request body (``messages``, ``tools``) in :func:`read_format`'s shapes."""
    prompt_length: int | None = None
    """How many messages the row's ``prompt`` held (prompt/completion dialects)."""
    layout: ConversationLayout | None = None
    """The layout writing the same dialect again gives the row back with (a ShareGPT system
    prompt as a turn, not the column)."""
    notes: tuple[Loss, ...] = ()
    """What reading made up (a Hugging Face call's id), reported unless the row is written
    in its own dialect again."""
    input_length: int | None = None
    """Where an alpaca row's ``input`` started in its last prompt (``instruction\ninput``)."""
    object_arguments: bool = True
    """Whether the row gave its calls' arguments as objects (Hugging Face's spelling)."""
    nested_calls: tuple[bool, ...] = ()
    """For each tool call of a Verifiers row, in order: whether it came in OpenAI's nested
    shape (``{id, type, function: {name, arguments}}``) rather than Verifiers' flat one, so
    the same dialect written again gives each call back in the shape it came in."""
    tokens: dict[str, list[Any]] | None = None
    """A rollout row's token columns, checked (:func:`.rollout_columns.token_columns`); a
    trajectory row's ``turns``, checked (:func:`.trajectory_turns.turn_records`)."""


def read_conversation(row: Mapping[str, Any], dialect: str, layout: ConversationLayout = SHAREGPT) -> ReadConversation:
    """The conversation of a ``dialect`` row, as a request body."""
    notes: list[Loss] = []
    if dialect == "sharegpt":
        as_read = _as_read(row, layout)
        if as_read is not layout:
            why = "another format's system message comes back as the system column (LLaMA-Factory reads both alike)"
            notes.append(Loss(f"$.{layout.messages}[0]", "system turn", why, "spelling"))
        conversation = sharegpt.read_sharegpt(row, layout, notes)
        return ReadConversation(conversation, layout=as_read, notes=tuple(notes))
    if dialect == "alpaca":
        read = alpaca.read_alpaca(row, alpaca.AlpacaColumns.of(layout))
        if read.input_length is not None:
            why = "joined to the instruction by a newline, as LLaMA-Factory builds the prompt: the split is not kept"
            notes.append(Loss(f"$.{layout.query}", "alpaca input", why, "spelling"))
        imaged = sharegpt_images(read.body, row, layout)
        return ReadConversation(imaged, input_length=read.input_length, notes=tuple(notes))
    if dialect == "openai-evals":
        return ReadConversation(eval_items.read_eval_item(row, notes), notes=tuple(notes))
    if dialect == "openhands":
        return ReadConversation(read_openhands(row, notes), notes=tuple(notes))
    row, respelled = in_dialect_names(row, dialect)
    notes += respelled
    if dialect in ("hf-chat", "rollout", "trajectory"):
        given = message_list(row.get("messages"), "$.messages")
        tokens = _token_records(row, dialect)
        listed = with_call_ids(given, "$.messages", notes)
        tools = {"tools": row["tools"]} if row.get("tools") is not None else {}
        return ReadConversation(
            {"messages": listed, **tools}, notes=tuple(notes), object_arguments=object_arguments(given), tokens=tokens
        )
    prompt = message_list(row.get("prompt"), "$.prompt")
    completion = message_list(row.get("completion"), "$.completion")
    messages: list[Any] = [*prompt, *completion]
    objects = object_arguments(messages)
    if dialect == "trl-prompt-completion":
        messages = with_call_ids(messages, "$.prompt", notes)
    elif dialect == "verifiers":
        messages = [_kept_empty_text(message) for message in messages]
    body: dict[str, Any] = {"messages": messages}
    if dialect == "trl-prompt-completion" and row.get("tools") is not None:
        body["tools"] = row["tools"]
    nested = _nested_calls(messages) if dialect == "verifiers" else ()
    return ReadConversation(body, len(prompt), notes=tuple(notes), object_arguments=objects, nested_calls=nested)


def in_dialect_names(row: Mapping[str, Any], dialect: str) -> tuple[Mapping[str, Any], list[Loss]]:
    """``row`` in ``dialect``'s names where another project's record of the same thing came
    (a Verifiers trajectory step as a rollout row, Harbor's ATIF trajectory as a trajectory
    row), with the losses of the respelling; else ``row`` as it is."""
    if dialect == "rollout" and is_trajectory_step(row):
        return from_trajectory_step(row)
    if dialect == "trajectory" and is_atif(row):
        return from_atif(row)
    return row, []


def _token_records(row: Mapping[str, Any], dialect: str) -> dict[str, list[Any]] | None:
    """A rollout's token columns or a trajectory's turns, checked."""
    if dialect == "rollout":
        return token_columns(row)
    if dialect == "trajectory":
        return {"turns": turn_records(row)}
    return None


def _nested_calls(messages: Sequence[Any]) -> tuple[bool, ...]:
    """Whether each call of ``messages``, in order, is in OpenAI's nested shape."""
    return tuple(
        "function" in (as_dict(call) or {})
        for message in messages
        for call in as_list((as_dict(message) or {}).get("tool_calls")) or ()
    )


def sharegpt_images(body: dict[str, Any], row: Mapping[str, Any], layout: ConversationLayout) -> dict[str, Any]:
    """An alpaca body with its ``<image>`` placeholders read as the row's images, as
    LLaMA-Factory's multimodal alpaca rows give them."""
    return sharegpt.with_row_images(body, row, layout)


def _as_read(row: Mapping[str, Any], layout: ConversationLayout) -> ConversationLayout:
    """The layout that writes ``row`` back as it came: a system prompt given as the first
    turn stays a turn (LLaMA-Factory reads both spellings alike)."""
    first = as_dict((as_list(row.get(layout.messages)) or [None])[0])
    if first is not None and layout.roles.get(str(first.get(layout.role))) == "system" and layout.system:
        return replace(layout, system=None)
    return layout


def _kept_empty_text(message: Any) -> Any:
    """A Verifiers answer's ``content: ""`` beside its calls as an empty text part, which
    the writer gives back as ``""`` (the canonical reader drops an empty string)."""
    fields = as_dict(message)
    if fields is None or fields.get("content") != "" or not fields.get("tool_calls"):
        return message
    return {**fields, "content": [{"type": "text", "text": ""}]}


_PLACED: Final[Mapping[str, tuple[str, ...]]] = {
    "trl-prompt-completion": ("messages", "tools"),
    "verifiers": ("messages", "tools"),
    "hf-chat": ("messages", "tools"),
    "rollout": ("messages", "tools"),
    "trajectory": ("messages", "tools"),
}


def write_conversation(
    body: Mapping[str, Any],
    dialect: str,
    layout: ConversationLayout = SHAREGPT,
    *,
    prompt_length: int | None = None,
    input_length: int | None = None,
    object_arguments: bool = True,
    nested_calls: Sequence[bool] = (),
    losses: list[Loss],
) -> dict[str, Any]:
    """A ``dialect`` row from a :data:`WRITTEN_FROM` request body; every field of the body
    the row has no place for is a loss. A Verifiers row's calls are flat unless
    ``nested_calls`` says a call came nested (:attr:`ReadConversation.nested_calls`)."""
    if dialect in READ_ONLY_DIALECTS:
        raise TrainingRowError(
            f"{dialect} is read, not written: an eval item is the eval's data", rule="training_read_only"
        )
    messages = message_list(body.get("messages"), "$.messages")
    if dialect == "sharegpt":
        losses += unplaced_fields(body, ("messages", "tools"), dialect)
        return sharegpt.write_sharegpt(body, messages, layout, losses)
    if dialect == "alpaca":
        losses += unplaced_fields(body, ("messages",), dialect)
        return _write_alpaca(messages, layout, losses, input_length)
    losses += unplaced_fields(body, _PLACED[dialect], dialect)
    messages = [_without_weight(message, index, dialect, losses) for index, message in enumerate(messages)]
    if dialect == "verifiers":
        messages = [_verifiers_message(message, index, losses) for index, message in enumerate(messages)]
    else:  # TRL's rows take Hugging Face's call shapes: the ids made up reading them are left out again
        messages = without_made_up_ids(messages, losses, objects=object_arguments)
    if dialect in ("hf-chat", "rollout", "trajectory"):  # tokens and turns are the caller's: kept, or rendered
        return {"messages": messages, **({"tools": body["tools"]} if body.get("tools") else {})}
    split = prompt_length if prompt_length is not None else completion_start(messages)
    prompt, completion = messages[:split], messages[split:]
    if dialect == "verifiers":
        shapes = iter(nested_calls)
        prompt = [_flat_calls(message, shapes) for message in prompt]
        completion = [_flat_calls(message, shapes) for message in completion]
    row: dict[str, Any] = {"prompt": prompt, "completion": completion}
    if dialect == "trl-prompt-completion" and body.get("tools"):
        row["tools"] = body["tools"]
    elif body.get("tools"):
        losses.append(Loss("$.tools", "tools", f"{dialect} rows keep no tools", "content"))
    return row


def _write_alpaca(
    messages: list[Any], layout: ConversationLayout, losses: list[Loss], input_length: int | None
) -> dict[str, Any]:
    images: list[str] = []
    texts = [
        sharegpt.turn_text((as_dict(message) or {}).get("content"), images, layout, f"$.messages[{index}].content")
        for index, message in enumerate(messages)
    ]
    columns = alpaca.AlpacaColumns.of(layout)
    row = alpaca.write_alpaca(messages, columns, losses, texts=texts, input_length=input_length)
    if images and columns.images:
        row[columns.images] = images
    return row


def _without_weight(message: Any, index: int, dialect: str, losses: list[Loss]) -> Any:
    """A message without OpenAI's per-message ``weight``, which TRL's and Verifiers' rows
    have no place for (their trainers train every completion message): a loss."""
    fields = as_dict(message)
    if fields is None or "weight" not in fields:
        return message
    why = f"{dialect} rows have no per-message weight: their trainers train every answer"
    losses.append(Loss(f"$.messages[{index}].weight", "training weight", why, "setting"))
    return {key: value for key, value in fields.items() if key != "weight"}


_VERIFIERS_KEYS: Final = frozenset(
    {
        "role",
        "content",
        "name",
        "tool_calls",
        "tool_call_id",
        "refusal",
        "annotations",
        "audio",
        "reasoning_content",
        "reasoning",
        "reasoning_details",
        "thinking_blocks",
    }
)
"""The message keys a Verifiers rollout holds (OpenAI's message params, and the reasoning
fields the canonical reader takes)."""


def _verifiers_message(message: Any, index: int, losses: list[Loss]) -> Any:
    """A message without the keys a Verifiers message has no place for (axolotl's
    ``train``): a loss each."""
    fields = as_dict(message)
    if fields is None or _VERIFIERS_KEYS.issuperset(fields):
        return message
    for key in fields:
        if key not in _VERIFIERS_KEYS:
            why = "a Verifiers message holds OpenAI's message fields only"
            losses.append(Loss(f"$.messages[{index}].{key}", key, why, "metadata"))
    return {key: value for key, value in fields.items() if key in _VERIFIERS_KEYS}


TEMPLATE_DIALECTS: Final = ("hf-chat", "trl-prompt-completion", "rollout", "trajectory", "atif")
"""The dialects ``--template`` writes in a chat template's shapes (rows a template renders;
a rollout's tokens and a trajectory's turns rendered by it, ATIF's steps' token metrics)."""

TOKEN_DIALECTS: Final = ("rollout", "trajectory", "atif")
"""The dialects whose rows hold tokens a template renders (``--template`` with ``--tokenizer``;
an ATIF trajectory holds them where it is given both, and is written without them too)."""


def token_options_problem(source: str, target: str, *, template: bool, tokenizer: bool) -> str | None:
    """What is wrong with the template and tokenizer given for ``target``'s rows, or None:
    ``"unused"``, a tokenizer for rows holding no tokens (only :data:`TOKEN_DIALECTS`' do);
    ``"missing"``, token rows without both a template and a tokenizer (an ATIF trajectory is
    written without token metrics too; a row converted to its own dialect keeps its tokens).
    The one rule ``convert --tokenizer`` and ``row_options(tokenizer=...)`` ask, each wording
    it in its own option names."""
    if target not in TOKEN_DIALECTS:
        return "unused" if tokenizer else None
    optional = target == "atif" and not tokenizer  # ATIF without token metrics
    if not optional and (not tokenizer or not template) and (source != target or tokenizer):
        return "missing"
    return None
    optional = target == "atif" and not tokenizer  # ATIF without token metrics
    if not optional and (not tokenizer or not template) and (source != target or tokenizer):
        return (
            f"{target} rows hold the tokens a chat template renders: give both a template (a family such as "
            f"'qwen3', or a template's text) and a tokenizer (a tokenizer.json path or a model folder); a "
            f"{target} converted to itself keeps its tokens without them"
        )
    return None


def completion_start(messages: Sequence[Any]) -> int:
    """Where the completion starts: after the last user (or system) message."""
    for index in range(len(messages) - 1, -1, -1):
        message = as_dict(messages[index])
        if message is not None and message.get("role") in ("user", "system"):
            return index + 1
    return 0


def _flat_calls(message: Any, nested: Iterator[bool]) -> Any:
    """An OpenAI assistant message with Verifiers' flat calls (``{id, name, arguments}``),
    but for the calls ``nested`` (one flag per call, in order) says came in OpenAI's shape."""
    fields = as_dict(message)
    calls = None if fields is None else as_list(fields.get("tool_calls"))
    if fields is None or calls is None:
        return message
    written: list[Any] = []
    for call in calls:
        if next(nested, False):
            written.append(call)
            continue
        function = as_dict((as_dict(call) or {}).get("function")) or {}
        written.append(
            {
                "id": (as_dict(call) or {}).get("id"),
                "name": function.get("name"),
                "arguments": function.get("arguments"),
            }
        )
    return {**fields, "tool_calls": written}
