"""Where each shorter conversation ends, on a template that shows reasoning only after the last question.

``render`` needs, for a template that is not prefix-stable, what rendering each prefix of the
conversation alone gives (its length, and whether the whole rendering starts with it), and the
prompt before each answer: one render per message, the square of the conversation. Stock Qwen3
(and GLM-4.5, Nemotron 3, Qwen3.5 and 3.6) are not prefix-stable for one reason their profile states
(``earlier_reasoning == "after_last_user"``): an answer's reasoning is written only while no
question follows it. So renders of prefixes whose answers are written alike are prefixes of one
another, and one watched run of the longest of them (:mod:`.message_ends`) shows every shorter
one's end where the next message starts:

- the conversation is cut at each question; a segment whose answers carry no reasoning is
  written alike by every longer render, so it is read from the next run (on a template that
  writes an empty reasoning block in every answer after the last question, Qwen3.5 and 3.6,
  only a segment without answers is: the probe's ``"asked"``); a segment with
  reasoning takes one run of the conversation through it; the last segment is read from the
  whole rendering itself. One run, plus one per question whose answers' reasoning is dropped.
- a prefix ending where a message is written differently as the conversation's last
  (``loop.last``: an answer without reasoning gets an empty reasoning block, a tool result
  followed by another closes the turn) is rendered alone, as is one whose next message's start
  the run does not show.
- the prompt before an answer is that prefix and the generation prompt the first answer's
  prompt shows; where the text does not hold it there (Qwen3.5 writes an answer before the
  last question without the prompt's ``<think>``), ``render`` reads the prompt's text from that
  prefix's read render and the generation prompt (:meth:`SegmentEnds.prompt_text`), without a run.

gpt-oss (``earlier_reasoning == "dropped"``) rewrites earlier answers at another message: a
calling answer's analysis is written only while no final answer (one without calls) follows, and
a final answer is written otherwise as the last (its analysis and ``<|return|>``). So there the
conversation is cut at each final answer (:func:`_cut`), the probe's cut is a final answer, and
an answer without calls is probed as the last (``"final"``, ``"reasoned"``).

Where the rule cannot be held (a segment's run the template refuses, as Qwen3.5 refuses a
conversation with no question yet; a user message that might not count as a question to the
template, :mod:`.questions`), this answers None and ``render`` renders every prefix: those
renders are the tests' oracle. Only the families the tests hold to the rule take
this path (:func:`held_families`: their ``segment_ends`` entry in ``families.json``); given the
caller's variables (the stored profile is read without them) one read prefix and one prompt
are checked against their own renders first, as ``render`` checks the one-run ends of an
unknown prefix-stable template.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from chatcodec._training import jinja, prefix_ends, questions
from chatcodec._training.errors import TemplateError
from chatcodec._training.profile import TemplateProfile
from chatcodec._training.template_limits import BOUND_RULES, TemplateLimits

if TYPE_CHECKING:
    from chatcodec._training.render import Runner


@dataclass(frozen=True, slots=True)
class SegmentEnds:
    """What the renders of every prefix would give, read from the segments' runs."""

    ends: list[int | None]
    """For each message, the length of the conversation through it rendered alone, where the
    whole rendering starts with it (else None): what ``render``'s prefix renders give."""
    prompts: list[int | None]
    """For each message, where the prompt before it (the conversation before it and the
    generation prompt) ends in the whole rendering, where the rendering starts with that
    prompt; None where this cannot say (``render`` then asks :meth:`prompt_text`)."""
    heads: list[_Prefix | None]
    """Each prefix's read render where the generation prompt only adds to it: one ending with a
    question or a result (an answer may close otherwise once a prompt follows: gpt-oss writes
    ``<|end|>`` there, not ``<|return|>``); None elsewhere."""
    opener: str | None
    """The generation prompt after any prefix (None: not known)."""

    def prompt_text(self, index: int) -> tuple[str, str] | None:
        """The conversation before message ``index`` rendered alone, and with the generation
        prompt: what rendering the two would give, read (None where a render is needed)."""
        before = self.heads[index - 1] if index > 0 else None
        if self.opener is None or before is None or before is _UNENDED:
            return None
        head = before.string()
        return head, head + self.opener


class _Prefix(NamedTuple):
    """A prefix's render: ``text[:length]`` of a run (read), or its own render (``own``)."""

    text: str
    length: int
    shared: int
    """How much of ``text`` the whole rendering starts with."""

    def string(self) -> str:
        return self.text[: self.length]


@functools.lru_cache(maxsize=1)
def held_families() -> frozenset[str]:
    """The families whose renders are held equal to their prefix renders on this path: those
    whose ``families.json`` entry names, under ``segment_ends``, the test that holds them.
    A template chatcodec does not know renders its prefixes."""
    from chatcodec._training import families  # families reads profiles by rendering: it imports render

    return frozenset(name for name, entry in families.families().items() if "segment_ends" in entry)


_UNENDED = _Prefix("", 1, 0)
"""A prefix no shorter render ends with in the whole rendering (written otherwise as the last)."""


def applies(family: str | None, profile: TemplateProfile, template: str, shaped: Sequence[dict[str, Any]]) -> bool:
    """Whether the segment rule can be held for ``shaped`` under this template."""
    if family not in held_families() or profile.prefix_stable or profile.reasoning_key is None:
        return False
    if profile.earlier_reasoning == "dropped":
        return True  # gpt-oss: cut at its final answers, where no user message counts
    if profile.earlier_reasoning != "after_last_user":
        return False
    return all(questions.is_question(message) for message in shaped if message.get("role") == "user")


def _cut(message: dict[str, Any], profile: TemplateProfile) -> bool:
    """Whether ``message`` rewrites the answers before it: a question on a template that shows
    reasoning only after the last one; on one that drops it (gpt-oss), a final answer (one
    without calls: a calling answer's analysis is written only while none follows)."""
    if profile.earlier_reasoning == "dropped":
        return message["role"] == "assistant" and not message.get("tool_calls")
    return bool(message["role"] == "user")


def segment_ends(
    run: Runner,
    family: str,
    profile: TemplateProfile,
    shaped: list[dict[str, Any]],
    text: str,
    *,
    starts: list[int | None],
    add_generation_prompt: bool,
    checked: bool,
) -> SegmentEnds | None:
    """The prefix renders' ends and prompts for ``shaped``, whose whole rendering is ``text``
    with ``starts`` (its watched run); None where they cannot be read (``render`` renders them).
    ``checked``: hold one derived prefix and one prompt against their own renders first."""
    key = profile.reasoning_key
    assert key is not None
    count = len(shaped)
    cuts = sorted({0, *(index for index, message in enumerate(shaped) if _cut(message, profile)), count})
    segments = list(itertools.pairwise(cuts))
    prefixes: list[_Prefix | None] = [None] * count
    probed = _last_differs(run, family)
    served_from = 0
    for number, (_, end) in enumerate(segments):
        last = number == len(segments) - 1
        if not last and not any(_may_differ(shaped[index], key, probed) for index in range(served_from, end)):
            continue  # written alike by the next run
        if last:
            whole, whole_starts = text, starts
        else:
            try:
                whole, _, read = run.watched(shaped[:end], False)
            except TemplateError as error:
                if error.rule in BOUND_RULES:
                    raise
                return None  # refused short (Qwen3.5: an answer before any question): the prefixes decide
            if read is None:
                return None
            whole_starts = read
        prefixes[served_from:end] = _read_segment(
            run,
            shaped,
            text,
            (served_from, end),
            whole,
            whole_starts=whole_starts,
            key=key,
            probed=probed,
            open_end=last and add_generation_prompt,
        )
        served_from = end
    if checked and not _read_holds(run, shaped, prefixes):
        return None
    ends = [prefix.length if prefix is not None and prefix.length <= prefix.shared else None for prefix in prefixes]
    if not add_generation_prompt and count:
        ends[-1] = len(text)
    elif count and ends[-1] is None:
        ends[-1] = prefix_ends.end_before_prompt(text, profile.generation_prompt)
    opener = None if checked else profile.generation_prompt  # the stored profile's, read without variables
    prompts, opener = _prompts(run, shaped, text, prefixes, ends, opener=opener)
    heads = [
        prefix if message["role"] != "assistant" else None for prefix, message in zip(prefixes, shaped, strict=True)
    ]
    return SegmentEnds(ends, prompts, heads, opener)


def _read_segment(
    run: Runner,
    shaped: list[dict[str, Any]],
    text: str,
    served: tuple[int, int],
    whole: str,
    *,
    whole_starts: list[int | None],
    key: str,
    probed: tuple[frozenset[_Kind], frozenset[_Kind]],
    open_end: bool,
) -> list[_Prefix | None]:
    """The renders of the prefixes ending in ``served`` (from, to), read from ``whole`` (the
    render through ``to``); ``open_end``: ``whole`` ends with the generation prompt."""
    served_from, end = served
    differs, alike = probed
    shared = shared_length(whole, text)
    prefixes: list[_Prefix | None] = []
    for index in range(served_from, end):
        following = whole_starts[index + 1] if index + 1 < end else None
        if index == end - 1 and not open_end:
            prefixes.append(_Prefix(whole, len(whole), shared))
            continue
        kind = None if following is None else _written_as_last(shaped, index, key)
        if following is not None and (kind is None or kind in alike):
            prefixes.append(_Prefix(whole, following, shared))
        elif kind is not None and kind in differs:
            prefixes.append(_UNENDED)  # written otherwise as the last: no shorter render ends here
        else:
            prefixes.append(_own(run, shaped[: index + 1], text))  # or a probe that could not tell
    return prefixes


def _may_differ(message: dict[str, Any], key: str, probed: tuple[frozenset[_Kind], frozenset[_Kind]]) -> bool:
    """Whether an answer may be written otherwise once a cut (:func:`_cut`) follows it: one
    with reasoning (its key, or a reasoning block the template would split from its text), and
    on a template that writes an empty reasoning block after the last question (Qwen3.5) or an
    answer's text as its analysis (gpt-oss), any answer (``"asked"`` not probed alike)."""
    if message["role"] != "assistant":
        return False
    if "asked" not in probed[1]:
        return True
    content = message.get("content")
    return bool(message.get(key)) or (isinstance(content, str) and "think>" in content)


def _written_as_last(shaped: list[dict[str, Any]], index: int, key: str) -> _Kind | None:
    """How the message may be written otherwise as the conversation's last: a calling answer
    not certain to carry reasoning (an empty reasoning block), an answer without calls (gpt-oss
    writes its analysis and ``<|return|>`` only there), a tool result before another (the turn
    closed after it); None where it is written alike."""
    message = shaped[index]
    if message["role"] == "assistant":
        reasoning = message.get(key)
        reasoned = isinstance(reasoning, str) and bool(reasoning)
        if message.get("tool_calls"):
            return None if reasoned else "answer"
        return "reasoned" if reasoned else "final"
    return "result" if message["role"] == "tool" and shaped[index + 1]["role"] == "tool" else None


_Kind = Literal["answer", "final", "reasoned", "result", "asked"]
"""A message a template may write otherwise as the conversation's last (:func:`_written_as_last`),
or (``"asked"``) an answer without reasoning it may write otherwise once a cut follows (:func:`_cut`)."""


_ANSWERED: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "Probe question q7x"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": " Probe answer a9z"},
                *({"type": "tool_use", "id": f"call_{index}", "name": "probe_n4v", "input": {}} for index in range(2)),
            ],
        },
        *(
            {
                "role": "tool",
                "content": [{"type": "tool_result", "tool_use_id": f"call_{index}", "content": "Probe result t3w"}],
            }
            for index in range(2)
        ),
    ]
}
"""A probe: an answer without reasoning after the question (its text opens with a space, as
Nemotron 3 strips it only from an answer before the last question), two results of its calls;
then the family's cut (:data:`_CUTS`)."""

_CUTS: dict[str, dict[str, Any]] = {
    "after_last_user": {"role": "user", "content": "Probe question k2m"},
    "dropped": {"role": "assistant", "content": "Probe final f5q"},
}
"""What follows :data:`_ANSWERED` in the probe: a message that rewrites the answers before it."""

_FINALS: dict[str, dict[str, Any]] = {
    "final": {"role": "assistant", "content": "Probe answer b8r"},
    "reasoned": {
        "role": "assistant",
        "content": [{"type": "thinking", "text": "Probe reasoning r4e"}, {"type": "text", "text": "Probe answer b8r"}],
    },
}
"""Answers without calls, each probed as the last of ``[question, answer]`` and then followed by
another answer."""


def _last_differs(run: Runner, family: str) -> tuple[frozenset[_Kind], frozenset[_Kind]]:
    """Which kinds of message the template writes otherwise as the conversation's last, and
    which alike, read by rendering the probe conversation and its prefixes through the
    family's template with the run's variables (a kind in neither: a probe the template
    refused). Where one is written otherwise no shorter render ends, so a prefix ending with
    one is no prefix of the whole rendering."""
    return _probed(family, json.dumps(run.variables, sort_keys=True, default=str), run.limits)


@functools.lru_cache(maxsize=16)
def _probed(family: str, variables: str, limits: TemplateLimits) -> tuple[frozenset[_Kind], frozenset[_Kind]]:
    from chatcodec._training import families, reading
    from chatcodec._training.shaping import Shaper
    from chatcodec.contract import LossRecorder

    template, profile = families.template_text(family), families.stored_profile(family)
    given = json.loads(variables)

    def texts(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str | None]]:
        """The shaped messages (gpt-oss keeps one call of a turn) and each prefix's rendering."""
        read = reading.read_input({"messages": messages}, None, LossRecorder())  # canonical data: no wire named
        shaped, _ = Shaper(profile, LossRecorder()).messages(list(read.request.messages))
        return shaped, [rendered(shaped[:count]) for count in range(1, len(shaped) + 1)]

    def rendered(messages: list[dict[str, Any]]) -> str | None:
        try:
            return jinja.run(template, messages, variables=given, limits=limits)[0]
        except TemplateError as error:
            if error.rule in BOUND_RULES:
                raise
            return None

    question = _ANSWERED["messages"][0]
    shaped, answered = texts([*_ANSWERED["messages"], _CUTS[profile.earlier_reasoning]])
    results = [index for index, message in enumerate(shaped) if message["role"] == "tool"]
    answer_kind: _Kind = "answer"
    asked: _Kind = "asked"
    result: _Kind = "result"
    counts: list[tuple[_Kind, int]] = [(answer_kind, 2), (asked, len(shaped) - 1)]
    if results and results[0] + 1 in results:  # two results in a row
        counts.append((result, results[0] + 1))
    compared: list[tuple[_Kind, str | None, str | None]] = [
        (kind, answered[count - 1], answered[count]) for kind, count in counts
    ]
    final_kinds: tuple[_Kind, ...] = ("final", "reasoned")
    for kind in final_kinds:
        finals = texts([question, _FINALS[kind], _FINALS["final"]])[1]
        compared.append((kind, finals[1], finals[2]))
    differs: set[_Kind] = set()
    alike: set[_Kind] = set()
    for kind, shorter, longer in compared:
        if shorter is not None and longer is not None:
            (alike if longer.startswith(shorter) else differs).add(kind)
    return frozenset(differs), frozenset(alike)


def _own(run: Runner, shorter: list[dict[str, Any]], text: str) -> _Prefix | None:
    rendered = run.text_or_none(shorter, False)
    if rendered is None:
        return None
    return _Prefix(rendered, len(rendered), len(rendered) if text.startswith(rendered) else 0)


def shared_length(one: str, other: str) -> int:
    """The length of the longest common prefix of two texts (bisected: each compare is C's)."""
    if other.startswith(one):
        return len(one)
    low, high = 0, min(len(one), len(other))
    while low < high:
        middle = (low + high + 1) // 2
        if one[low:middle] == other[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _read_holds(run: Runner, shaped: list[dict[str, Any]], prefixes: list[_Prefix | None]) -> bool:
    """Whether the middle prefix read from a run is the conversation through it rendered alone."""
    read = [index for index, prefix in enumerate(prefixes) if prefix is not None and prefix.length < len(prefix.text)]
    if not read:
        return True
    middle = read[len(read) // 2]
    prefix = prefixes[middle]
    assert prefix is not None
    return run.text_or_none(shaped[: middle + 1], False) == prefix.string()


def _prompts(
    run: Runner,
    shaped: list[dict[str, Any]],
    text: str,
    prefixes: list[_Prefix | None],
    ends: list[int | None],
    *,
    opener: str | None,
) -> tuple[list[int | None], str | None]:
    """Where each answer's prompt ends in ``text``: the conversation before it and the
    generation prompt (``opener``: the family's; None: read off the first answer's rendered
    prompt, and checked on the middle answer's), and that generation prompt (None: not known)."""
    prompts: list[int | None] = [None] * len(shaped)
    answers = [index for index, message in enumerate(shaped) if message["role"] == "assistant" and index > 0]
    answers = [index for index in answers if _rendered(prefixes[index - 1])]
    if not answers:
        return prompts, None
    checked = opener is None
    opener = opener or _opener(run, shaped, prefixes, answers[0])
    if not opener:
        return prompts, None
    if checked:
        middle = answers[len(answers) // 2]
        before = prefixes[middle - 1]
        assert before is not None
        if run.text_or_none(shaped[:middle], True) != before.string() + opener:
            return prompts, None
    for index in answers:
        before_end = ends[index - 1]
        if before_end is not None and text.startswith(opener, before_end):
            prompts[index] = before_end + len(opener)
    return prompts, opener


def _rendered(prefix: _Prefix | None) -> bool:
    """Whether a prefix's render is known (not refused, not one no shorter render ends with)."""
    return prefix is not None and prefix is not _UNENDED


def _opener(run: Runner, shaped: list[dict[str, Any]], prefixes: list[_Prefix | None], first: int) -> str | None:
    """What the generation prompt adds after the conversation before the first answer."""
    before = prefixes[first - 1]
    prompt = run.text_or_none(shaped[:first], True)
    if before is None or prompt is None:
        return None
    head = before.string()
    return prompt[len(head) :] if prompt.startswith(head) else None
