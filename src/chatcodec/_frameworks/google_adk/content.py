"""An event's ``content`` through the ``gemini`` codec, the one reader and writer of a
google-genai ``Content`` (ADK hands its events' contents to Gemini as they are).

The contents of a session are read as one Gemini ``contents`` list and written as one, so a
result pairs with its call as Gemini pairs them. Which message a content gave, and which
content a message was written into, is carried through the codec as a field of the content's
own (:data:`TAG`): the ``gemini`` reader keeps a content field it has no place for in the bag
of the first message the content gave, and its writer writes the bag of a turn's first message
back onto the turn. The tag never leaves this module.

Written, what a Gemini ``Content`` cannot hold is the ``gemini`` writer's loss, named at the
message it was found in; a system message is this format's (an ADK session keeps none).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from chatcodec import PayloadError, ValidationError, get_codec
from chatcodec._frameworks.google_adk.markers import PROVIDER
from chatcodec.codec_kit import Problem, as_dict, as_list, problems_error
from chatcodec.contract import EncodeContext, LossRecorder, ProviderCodec

GEMINI = "gemini"
"""The codec of an event's content, and its bag's key."""

TAG = "adkEventTag"
"""The content field that says which content (read) or message (written) a turn stands for."""

_NO_SYSTEM = "an ADK session keeps no system instruction: it is the agent's instruction"

_AT_MESSAGE = re.compile(r"^\$\.messages\[(\d+)\]")


def gemini() -> ProviderCodec:
    """The ``gemini`` codec, as any codec reaches another: by its name in the registry."""
    codec = get_codec(GEMINI)
    assert isinstance(codec, ProviderCodec)
    return codec


class ContentRefusedError(Exception):
    """A content the ``gemini`` reader refused, its problems named in the event list (``$[3]``):
    the request role names them where the list stands in what it read (:func:`refused_at`)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.problems = problems


def refused_at(refused: ContentRefusedError, title: str, *inside: str | int) -> ValidationError:
    """The refusal of a content, named at its place in the input (``inside`` the list's path)."""
    problems = [replace(problem, location=(*inside, *problem.location)) for problem in refused.problems]
    return problems_error(title, problems)


def too_deep_or(error: PayloadError) -> Exception:
    """What to raise for the ``gemini`` reader's ``error``: a :class:`RecursionError` when the
    input is nested too deep (then named at its place in the input by the reading around this
    one), else the error itself."""
    return RecursionError() if error.path != "$" and "nested" in str(error) else error


def read_contents(contents: list[dict[str, Any]], places: Sequence[int]) -> list[dict[str, Any]]:
    """``contents`` (each tagged with its position) as canonical messages; a content the
    ``gemini`` reader refuses raises :class:`ContentRefusedError`, named at its event (``places``,
    the event of each content)."""
    try:
        return gemini().read_messages(contents)
    except PayloadError as error:
        raise too_deep_or(error) from None
    except ValidationError as error:
        raise ContentRefusedError([_at_event(detail, places) for detail in error.errors()]) from None


def _at_event(detail: Mapping[str, Any], places: Sequence[int]) -> Problem:
    location = tuple(detail["loc"])
    if location and isinstance(location[0], int) and 0 <= location[0] < len(places):
        location = (places[location[0]], "content", *location[1:])
    return Problem(location, detail["type"], detail["msg"], detail.get("input"))


def taken_tag(message: dict[str, Any]) -> int | None:
    """The tag a message's ``gemini`` bag holds (taken out, the bag dropped when left empty)."""
    bags = as_dict(message.get("provider_metadata"))
    if bags is None:
        return None
    bag = as_dict(bags.get(GEMINI))
    if bag is None or TAG not in bag:
        return None
    tag = bag.pop(TAG)
    if not bag:
        del bags[GEMINI]
        if not bags:
            del message["provider_metadata"]
    return tag if isinstance(tag, int) else None


def write_contents(
    messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext
) -> list[tuple[int, dict[str, Any]]]:
    """``messages`` as Gemini contents, each with the position (in ``messages``) of the first
    message it holds; the ``gemini`` writer's losses named at the messages (``start`` is the
    position of ``messages[0]`` in the request)."""
    tagged = [_tagged(message, index) for index, message in enumerate(messages)]
    found = LossRecorder()
    wire = gemini().write_request({"messages": tagged}, found)
    losses = context.losses
    for loss in found.losses:
        losses.add(_in_request(loss.path, start, losses), loss.what, loss.why, loss.kind)
    if "systemInstruction" in wire:
        for index, message in enumerate(messages):
            if message["role"] not in ("system", "developer"):
                break
            losses.add(("messages", start + index), "system message", _NO_SYSTEM)
    written: list[tuple[int, dict[str, Any]]] = []
    for each in as_list(wire.get("contents")) or ():
        content = as_dict(each)
        if content is None:
            continue
        tag = content.pop(TAG, None)
        written.append((tag if isinstance(tag, int) else written[-1][0] if written else 0, content))
    return written


def _tagged(message: Mapping[str, Any], index: int) -> dict[str, Any]:
    """``message`` with its position in its ``gemini`` bag, and no bag of this format's (the
    events' fields are written by :mod:`.events`) or ``name`` (the event's author)."""
    bags = {key: value for key, value in (as_dict(message.get("provider_metadata")) or {}).items()}
    bags.pop(PROVIDER, None)
    bags[GEMINI] = {**(as_dict(bags.get(GEMINI)) or {}), TAG: index}
    tagged = {key: value for key, value in message.items() if key not in ("provider_metadata", "name")}
    tagged["provider_metadata"] = bags
    return tagged


def _in_request(path: str, start: int, losses: LossRecorder) -> str:
    """A loss's path in the written messages as the request names it."""
    found = _AT_MESSAGE.match(path)
    if found is None:
        return path
    return losses.request_path(("messages", start + int(found.group(1)))) + path[found.end() :]
