"""Where each shorter conversation ends, on a template that closes the conversation's last message otherwise.

Stock DeepSeek-V3 writes every message as it stays once others follow but for what it writes
after its loop, which depends on the last message: after a last tool result it writes the
token that ends the tool outputs (which only an answer without calls writes when it follows), and its
generation prompt opens an answer after anything but a tool result (after one it adds nothing).
So it is not prefix-stable, and ``render`` rendered every prefix of the conversation and every
answer's prompt. Here those renders are read from the one watched run (:mod:`.message_ends`):

- the conversation through a message, rendered alone, is the run's text up to where the next
  message is first read, then a closing text that depends on the kinds of the two messages
  (:func:`_kind`: what the template writes once it knows which is last, and what it wrote for
  the message after peeking at the next one); where the whole rendering goes on with that
  closing text, the shorter render ends there;
- the prompt before an answer is that render and an opener that depends on the kind of the
  message before the answer.

Both are read by rendering a probe conversation and each of its prefixes through the family's
template with the run's variables, once a process (:func:`_probed`); a pair of kinds the probe
does not show, or shows two ways, is rendered alone, as is a message the probe's rule does not
hold (a render whose run's text is no prefix of it). A template that writes a message before
its loop (DeepSeek gathers every system message into its header) is held only where those come
first: a later one changes the text before every earlier message. Elsewhere this answers None
and ``render`` renders every prefix: those renders are the tests' oracle
(``tests/training/test_render_closing.py``); only the families whose ``families.json`` entry
names that test, under ``closing_ends``, take this path.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from chatcodec._training import jinja, prefix_ends
from chatcodec._training.errors import TemplateError
from chatcodec._training.profile import TemplateProfile
from chatcodec._training.template_limits import BOUND_RULES, TemplateLimits


class Runner(prefix_ends.Runner, Protocol):
    """A template run (:class:`chatcodec._training.render.Runner`), with what the probe reads of it."""

    variables: dict[str, Any]
    limits: TemplateLimits


_Kind = str
"""A message's kind (:func:`_kind`): ``system``, ``user``, ``answer``, ``calling`` or ``tool``."""


class _Head(NamedTuple):
    """A prefix's render: ``source[:length] + closing`` (the run's text and a closing, or a
    render of its own with no closing)."""

    source: str
    length: int
    closing: str

    def string(self) -> str:
        return self.source[: self.length] + self.closing

    def starts(self, text: str, after: str = "") -> int | None:
        """The length of this render followed by ``after``, where ``text`` starts with them."""
        if self.source is not text and not text.startswith(self.source[: self.length]):
            return None
        tail = self.closing + after
        return self.length + len(tail) if text.startswith(tail, self.length) else None


@dataclass(frozen=True, slots=True)
class ClosingEnds:
    """What the renders of every prefix would give, read from the one run (as
    :class:`.segment_ends.SegmentEnds` reads them from the segments' runs)."""

    ends: list[int | None]
    """For each message, the length of the conversation through it rendered alone, where the
    whole rendering starts with it (else None)."""
    prompts: list[int | None]
    """For each message, where the prompt before it ends in the whole rendering, where the
    rendering starts with that prompt (None: :meth:`prompt_text` tells it, or a render)."""
    heads: list[_Head | None]
    openers: list[str | None]
    """What the generation prompt adds after each prefix (None: not known)."""

    def prompt_text(self, index: int) -> tuple[str, str] | None:
        """The conversation before message ``index`` rendered alone, and with the generation prompt."""
        before = self.heads[index - 1] if index > 0 else None
        opener = self.openers[index - 1] if index > 0 else None
        if before is None or opener is None:
            return None
        head = before.string()
        return head, head + opener


@functools.lru_cache(maxsize=1)
def held_families() -> frozenset[str]:
    """The families held equal to their prefix renders on this path (``closing_ends`` in
    ``families.json`` names the test that holds them)."""
    from chatcodec._training import families  # families reads profiles by rendering: it imports render

    return frozenset(name for name, entry in families.families().items() if "closing_ends" in entry)


def applies(family: str | None, profile: TemplateProfile, shaped: Sequence[dict[str, Any]]) -> bool:
    """Whether the closing rule can be held for ``shaped``: a held family, its system
    messages (gathered before the loop) all before any other message."""
    if family not in held_families() or profile.prefix_stable:
        return False
    roles = [message.get("role") for message in shaped]
    leading = next((index for index, role in enumerate(roles) if role != "system"), len(roles))
    return "system" not in roles[leading:]


def _kind(message: dict[str, Any]) -> _Kind | None:
    role = message.get("role")
    if role == "assistant":
        return "calling" if message.get("tool_calls") else "answer"
    return role if role in ("system", "user", "tool") else None


def closing_ends(
    run: Runner,
    family: str,
    profile: TemplateProfile,
    shaped: list[dict[str, Any]],
    text: str,
    *,
    starts: list[int | None],
    add_generation_prompt: bool,
    checked: bool,
) -> ClosingEnds | None:
    """The prefix renders' ends and prompts for ``shaped``, whose whole rendering is ``text``
    with ``starts`` (its watched run); None where they cannot be read. ``checked``: hold one
    read prefix and one prompt against their own renders first (the caller's variables)."""
    closings, openers = _probed(family, json.dumps(run.variables, sort_keys=True, default=str), run.limits)
    kinds = [_kind(message) for message in shaped]
    count = len(shaped)
    heads: list[_Head | None] = []
    for index in range(count):
        if index == count - 1:
            heads.append(_last(run, shaped, text, kinds[index], openers, prompt=add_generation_prompt))
            continue
        following = starts[index + 1]
        closing = closings.get((kinds[index], kinds[index + 1]))  # None: a pair the probe does not show
        if following is not None and closing is not None:
            heads.append(_Head(text, following, closing))
        else:
            heads.append(_own(run, shaped[: index + 1]))
    if checked and not _holds(run, shaped, text, heads, openers):
        return None
    ends = [head.starts(text) if head is not None else None for head in heads]
    for index in range(count):  # a refused prefix: where a user turn after it would begin
        if heads[index] is None and (index < count - 1 or add_generation_prompt):
            ends[index] = prefix_ends.prefix_end(run, shaped[: index + 1], text)
    if add_generation_prompt and count and ends[-1] is None:
        ends[-1] = prefix_ends.end_before_prompt(text, profile.generation_prompt)
    known = [openers.get(kind) if kind is not None else None for kind in kinds]
    prompts: list[int | None] = [None] * count
    for index in range(1, count):
        head, opener = heads[index - 1], known[index - 1]
        if shaped[index]["role"] == "assistant" and head is not None and opener is not None:
            prompts[index] = head.starts(text, opener)
    return ClosingEnds(ends, prompts, heads, known)


def _last(
    run: Runner,
    shaped: list[dict[str, Any]],
    text: str,
    kind: _Kind | None,
    openers: dict[_Kind, str],
    *,
    prompt: bool,
) -> _Head | None:
    """The whole conversation rendered alone: the text itself, or the text before the opener
    the generation prompt adds after the last message's kind."""
    if not prompt:
        return _Head(text, len(text), "")
    opener = openers.get(kind) if kind is not None else None
    if opener is not None and text.endswith(opener):
        return _Head(text, len(text) - len(opener), "")
    return _own(run, shaped)


def _own(run: Runner, shorter: list[dict[str, Any]]) -> _Head | None:
    rendered = run.text_or_none(shorter, False)
    return None if rendered is None else _Head(rendered, len(rendered), "")


def _holds(
    run: Runner, shaped: list[dict[str, Any]], text: str, heads: list[_Head | None], openers: dict[_Kind, str]
) -> bool:
    """Whether the middle prefix read from the run, and the prompt after it, are what
    rendering them alone gives."""
    read = [index for index, head in enumerate(heads[:-1]) if head is not None and head.source is text]
    if not read:
        return True
    middle = read[len(read) // 2]
    head = heads[middle]
    assert head is not None
    if run.text_or_none(shaped[: middle + 1], False) != head.string():
        return False
    kind = _kind(shaped[middle])
    opener = openers.get(kind) if kind is not None else None
    return opener is None or run.text_or_none(shaped[: middle + 1], True) == head.string() + opener


_CALL = {"id": "call_p", "type": "function", "function": {"name": "probe_n4v", "arguments": "{}"}}

_PROBE: list[dict[str, Any]] = [
    {"role": "system", "content": "Probe system s1p"},
    {"role": "user", "content": "Probe question q7x"},
    {
        "role": "assistant",
        "content": "Probe call a1c",
        "tool_calls": [{**_CALL, "id": "call_1"}, {**_CALL, "id": "call_2"}],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "Probe result t3w"},
    {"role": "tool", "tool_call_id": "call_2", "content": "Probe result t4w"},
    {"role": "assistant", "content": "Probe answer a9z"},
    {"role": "user", "content": "Probe question k2m"},
    {"role": "assistant", "content": "Probe answer b8r"},
    {"role": "assistant", "content": "Probe answer b9r"},
    {"role": "assistant", "content": None, "tool_calls": [{**_CALL, "id": "call_3"}]},
    {"role": "tool", "tool_call_id": "call_3", "content": "Probe result t5w"},
    {"role": "assistant", "content": "Probe call a2c", "tool_calls": [{**_CALL, "id": "call_4"}]},
    {"role": "tool", "tool_call_id": "call_4", "content": "Probe result t6w"},
    {"role": "user", "content": "Probe question m3n"},
    {"role": "user", "content": "Probe question m4n"},
    {
        "role": "assistant",
        "content": "Probe call a3c",
        "tool_calls": [{**_CALL, "id": "call_5"}, {**_CALL, "id": "call_6"}],
    },
    {"role": "tool", "tool_call_id": "call_5", "content": "Probe result t7w"},
    {"role": "tool", "tool_call_id": "call_6", "content": "Probe result t8w"},
    {"role": "assistant", "content": "Probe answer c1r"},
    {"role": "user", "content": "Probe question p5q"},
    {"role": "assistant", "content": "Probe answer c2r"},
]
"""A probe (OpenAI Chat's shape, read as any conversation is) holding each pair of kinds an
agent's conversation holds, most twice: after the first call and result the template knows
it has written one (DeepSeek-V3 opens only the first calling answer and the first results)."""


@functools.lru_cache(maxsize=16)
def _probed(
    family: str, variables: str, limits: TemplateLimits
) -> tuple[dict[tuple[_Kind | None, _Kind | None], str], dict[_Kind, str]]:
    """Each pair of kinds' closing text and each kind's opener, read from the probe's renders;
    a pair or kind shown two ways, or whose render is no continuation of the run's text, is
    left out (its prefixes are rendered alone)."""
    from chatcodec._training import families, message_ends, reading
    from chatcodec._training.shaping import Shaper
    from chatcodec.contract import LossRecorder

    template, profile = families.template_text(family), families.stored_profile(family)
    given = json.loads(variables)
    read = reading.read_input(_PROBE, None, LossRecorder())
    shaped, _ = Shaper(profile, LossRecorder()).messages(list(read.request.messages))

    def rendered(messages: list[dict[str, Any]], prompt: bool) -> str | None:
        try:
            return jinja.run(template, messages, variables=given, limits=limits, add_generation_prompt=prompt)[0]
        except TemplateError as error:
            if error.rule in BOUND_RULES:
                raise
            return None

    whole, _, starts = message_ends.run(
        template, shaped, tools=None, add_generation_prompt=False, variables=given, limits=limits
    )
    closings: dict[tuple[_Kind | None, _Kind | None], str | None] = {}
    openers: dict[_Kind, str | None] = {}
    kinds = [_kind(message) for message in shaped]
    for index, (kind, following) in enumerate(itertools.pairwise(kinds)):
        alone, prompted = rendered(shaped[: index + 1], False), rendered(shaped[: index + 1], True)
        at = None if starts is None else starts[index + 1]
        if kind is None or following is None:
            continue
        closing = None
        if alone is not None and at is not None and alone.startswith(whole[:at]):
            closing = alone[at:]
        pair = (kind, following)
        closings[pair] = closing if closings.get(pair, closing) == closing else None
        opener = prompted[len(alone) :] if alone is not None and prompted and prompted.startswith(alone) else None
        openers[kind] = opener if openers.get(kind, opener) == opener else None
    return (
        {pair: closing for pair, closing in closings.items() if closing is not None},
        {kind: opener for kind, opener in openers.items() if opener is not None},
    )
