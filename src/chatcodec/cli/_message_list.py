"""``convert``'s reading of a bare message list: a JSON array of messages is one conversation.

A stored conversation is often the messages alone (the README's ``examples/agent_session.json``,
which ``validate`` reads): a JSON array whose first item is a message (it has a ``role``, or is
a stored conversation's first item without one: a Responses item the OpenAI Agents SDK stored,
a framework's message), and none of a request's or response's own keys. ``convert`` took each
item for a request body and refused every one ("it looks like anthropic", once per message); it
now reads the array as one conversation, says so on standard error, and writes it as one ``--to`` request (its model
``--model``'s, else none):

- ``--from canonical`` reads the shapes ``validate`` reads when nothing names the format
  (canonical, OpenAI's messages, Anthropic's blocks, Verifiers' dumps: :func:`chatcodec.validate_messages`);
- any other ``--from`` reads the list as that format's messages (the codec's ``decode_messages``:
  a Gemini ``contents`` list, a Responses ``input`` list, an AI SDK ``UIMessage`` list ...).

Batch envelopes, training dialects, ``--kind response`` and JSON lines are read as before.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from chatcodec._errors import ChatcodecError
from chatcodec._narrow import as_dict
from chatcodec._payloads import parse_json
from chatcodec._registry import CANONICAL
from chatcodec._row_dialects.dialects import TRAINING_DIALECTS
from chatcodec.batch._convert_records import ConvertOptions
from chatcodec.batch._json_dump import dump_json

_BODY_KEYS = frozenset(("model", "messages", "contents", "input", "stop_reason", "choices", "done_reason"))
"""Top-level keys of a request or response body (a response carries ``role`` too: Anthropic's):
an item holding one is a body of a batch, not a message."""


def one_conversation(
    items: Iterator[bytes], options: ConvertOptions, path: Path
) -> tuple[Iterator[bytes], tuple[ConvertOptions, bytes] | None]:
    """A JSON array's ``items`` as they were, and, when they are a bare message list, that list
    as one canonical request body to convert with the options returned (``None`` otherwise).

    Raises :class:`~chatcodec.ChatcodecError` when the list is not ``--from``'s messages."""
    first = next(items, None)
    if first is None:
        return iter(()), None
    items = itertools.chain([first], items)
    if options.kind != "request" or options.envelope is not None or options.source in TRAINING_DIALECTS:
        return items, None
    try:
        opening = as_dict(parse_json(first))
    except ChatcodecError:
        return items, None
    if opening is None or not _opens_a_list(opening):
        return items, None
    listed = parse_json(b"[" + b",".join(items) + b"]")
    messages = _read(listed, options.source)
    print(
        f"{path}: a bare list of {len(listed)} messages (its first item {_opening(opening)} and no body's keys): "
        f"read as {options.source} messages, converted as one {options.target} request",
        file=sys.stderr,
    )
    return iter(()), (replace(options, source=CANONICAL), dump_json({"messages": messages}))


def _opens_a_list(opening: dict[str, object]) -> bool:
    """Whether a JSON array's first item opens a bare message list: a message (it has a
    ``role``), or a stored conversation's first item without one (a Responses item the
    OpenAI Agents SDK stored, a framework's message), and none of a body's keys."""
    if not _BODY_KEYS.isdisjoint(opening):
        return False
    if isinstance(opening.get("role"), str):
        return True
    from chatcodec._validation import opens_stored_list

    return opens_stored_list(opening)


def _opening(opening: dict[str, object]) -> str:
    """What made the first item a message, for the note on standard error."""
    return "has a 'role'" if isinstance(opening.get("role"), str) else "is a stored item"


def _read(listed: list[dict[str, object]], source: str) -> list[object]:
    """The messages of ``listed`` as canonical data, read as ``source``'s messages."""
    from chatcodec._codec_protocols import decodes_messages
    from chatcodec._registry import get_codec
    from chatcodec._validation import dump_messages

    codec = get_codec(source)
    if not decodes_messages(codec):
        raise ChatcodecError(f"{source} has no reader of a bare message list: give --from canonical")
    try:
        return list(dump_messages(codec.decode_messages(listed)))
    except ChatcodecError as error:
        hint = "" if source == CANONICAL else "; --from canonical reads the stored shapes validate reads"
        raise ChatcodecError(f"a bare message list, not {source} messages{hint}:\n{error}") from None
