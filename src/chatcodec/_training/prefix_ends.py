"""Where each message of a rendering ends, found by rendering every prefix alone: one template
run per message, so quadratic in the conversation. It is the way for templates whose one run
shows no ends (and that no segment run covers), and the oracle the faster ways are tested
against (:mod:`.segment_ends`, the one-run ends in :mod:`.render`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Runner(Protocol):
    """A template run (:class:`chatcodec._training.render.Runner`), as the prefixes need it."""

    def text_or_none(self, messages: Sequence[Mapping[str, Any]], prompt: bool) -> str | None:
        """The template's text of ``messages``, or None where it refuses them."""
        ...

    def without_tools(self) -> Runner:
        """The same template and variables, given no tools."""
        ...


def prefix_end(run: Runner, shorter: list[dict[str, Any]], text: str) -> int | None:
    """The length of ``shorter`` rendered alone, where that is a prefix of ``text``; for a
    conversation the template refuses alone (Qwen3.5's "No user query found" for a system
    message by itself), where a user turn written after it would begin (:func:`probed_end`)."""
    rendered = run.text_or_none(shorter, False)
    if rendered is None:
        return probed_end(run, shorter, text)
    return len(rendered) if text.startswith(rendered) else None


_PROBE = "\u2063chatcodec-probe\u2063"
"""A user turn's text no conversation holds, to find where a refused prefix ends."""


def probed_end(run: Runner, shorter: list[dict[str, Any]], text: str) -> int | None:
    """Where ``shorter`` ends in ``text`` when the template renders it only with a user turn
    after it: that turn's opener (what the template writes before a lone user message's text)
    begins there. None unless the opener is found right before the probe and what comes before
    it is a prefix of ``text`` (a template that adds a default system prompt to a lone user
    message gives no such opener, and no end)."""
    probe = {"role": "user", "content": _PROBE}
    followed = run.text_or_none([*shorter, probe], False)
    if followed is None or followed.count(_PROBE) != 1:
        return None
    # a lone user message's opener; given tools, a template writes them in a system turn of its
    # own before it (Qwen3.5), which the system message of ``shorter`` holds instead: then the
    # opener is read given no tools
    for alone in (run.text_or_none([probe], False), run.without_tools().text_or_none([probe], False)):
        if alone is None or alone.count(_PROBE) != 1:
            return None
        opener = alone[: alone.index(_PROBE)]
        at = followed.index(_PROBE) - len(opener)
        if opener and at > 0 and followed[at : at + len(opener)] == opener:
            return at if text.startswith(followed[:at]) else None
    return None


def message_ends(
    run: Runner, shaped: list[dict[str, Any]], text: str, generation_prompt: str | None
) -> list[int | None]:
    """Where each template message's text ends in ``text``: the length of the conversation
    up to it, rendered alone, where that is a prefix of the whole (None where it is not).
    One render per message: for templates whose one run does not show the ends.
    ``generation_prompt``: the template's, when ``text`` ends with one (None: it does not)."""
    ends: list[int | None] = []
    for count in range(1, len(shaped) + 1):
        if count == len(shaped) and generation_prompt is None:
            ends.append(len(text))
            continue
        end = prefix_end(run, shaped[:count], text)
        if end is None and count == len(shaped) and generation_prompt:
            end = end_before_prompt(text, generation_prompt)
        ends.append(end)
    return ends


def end_before_prompt(text: str, generation_prompt: str | None) -> int | None:
    """Where the last message ends in ``text`` (ending with the generation prompt) when its own
    render is no prefix of it: it closes otherwise once a prompt follows (gpt-oss: ``<|end|>``,
    not ``<|return|>``), so it ends where the template's generation prompt begins."""
    if generation_prompt and text.endswith(generation_prompt):
        return len(text) - len(generation_prompt)
    return None
