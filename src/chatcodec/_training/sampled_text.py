"""Where an answer's sampled text is in a rendering: after the generation prompt the text holds
before it, through the turn's end token and never what follows it. The rules ``render``'s
spans and ``render_turns``' one run both take (one home: :mod:`.render`, :mod:`.episode_run`)."""

from __future__ import annotations


def prompt_in_text(text: str, before: int | None, prompt: str) -> int | None:
    """Where the generation prompt ends, found after the conversation before the answer
    (``before``) on a prefix-stable template: None where the text does not hold it there."""
    if before is None or not prompt or not text.startswith(prompt, before):
        return None
    return before + len(prompt)


def tag_span(text: str, tagged: tuple[int, int], before: int | None, prompt: str, turn_end: str) -> tuple[int, int]:
    """What the model sampled of a generation tag's span: from where the generation prompt
    ends, where the tag opens inside it (TRL's Qwen3.5 and Qwen3.6 training templates tag the
    ``<think>`` their generation prompt already writes: the model never samples it), through
    the turn's end token."""
    prompted = prompt_before_tag(text, before, tagged[0], prompt)
    start = tagged[0] if prompted is None else max(tagged[0], prompted)
    return start, through_turn_end(text, tagged[1], turn_end)


def prompt_before_tag(text: str, before: int | None, tag_start: int, prompt: str) -> int | None:
    """Where the generation prompt ends, written after the conversation before the answer
    (``before``) and ending at or after the tag's opening; None where the text has none there."""
    if before is None or not prompt:
        return None
    found = text.rfind(prompt, before, tag_start + len(prompt))
    return None if found < 0 else found + len(prompt)


def through_turn_end(text: str, end: int, turn_end: str) -> int:
    """A generation tag's ``end``, moved past the turn's end token where the tag closes right
    before it (SkyRL's accumulate-thinking Qwen3 template tags the content only): the model
    samples that token too, and what was sampled is what is trained."""
    return end + len(turn_end) if turn_end and text.startswith(turn_end, end) else end


def trimmed(text: str, start: int, end: int, turn_end: str) -> int:
    """``end`` moved back to just after the turn's end token: what follows it (a newline
    before the next turn) is the template's, not the model's."""
    if not turn_end:
        return end
    found = text.rfind(turn_end, start, end)
    return found + len(turn_end) if found >= 0 else end
