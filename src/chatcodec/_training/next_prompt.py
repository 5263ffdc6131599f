"""The next prompt of a session: the ids of a sampled point extended, or a fresh rendering and
the reason it is one.

A turn's prompt is exact only while it is what the model would see: the last prompt, the ids
the model sampled after it (never re-encoded from the text a harness sends back) and the new
messages' tokens. That holds when four things are the same, and each is compared here, once,
for the gateway and the library alike:

- the conversation before the sampled answer is the one that turn saw (a compaction or an
  edit of an earlier turn rewrites it);
- the sampled answer closed (a completion cut at ``max_tokens`` has no end token: extending
  it would glue the next message into the cut answer, ``...I was\\n<|im_start|>user``);
- the answer the harness sends back is the answer the sampled ids parse to, as the template
  spells it (text edited, reasoning dropped or changed, arguments or calls changed);
- the template renders that answer the same once newer messages follow it (stock Qwen3 drops
  an earlier answer's reasoning at a new question).

Where one fails, the prompt is a fresh rendering of what the harness sent and
``prompt_break`` says which and where (a canonical message's path), so a trainer starts a
new sample there rather than training tokens after a prompt the model never saw (renderers
refuses to bridge an unclosed turn; slime re-renders a history it did not write).

A request whose conversation is one an earlier point saw (a retry, best-of-n, a subagent
fork) reuses that point's prompt ids and names it as its parent; one that extends an
earlier point that is not the last (a branch continued) extends that point, never across an
answer a later point sampled that the conversation holds otherwise (that is a divergence, and
a break names it: extending the earlier point would encode the changed answer from its text).
"""

from __future__ import annotations

import hashlib
import re
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import pydantic_core

from chatcodec._errors import json_path
from chatcodec._losses import Loss, Steps
from chatcodec._model.request import ChatRequest
from chatcodec._narrow import as_dict, as_list
from chatcodec._training import families, image_grids, image_tokens, prompt_window, tokens
from chatcodec._training.completion.end_of_turn import END_OF_TURN
from chatcodec._training.completion.tokens import Decodes, decoded_text
from chatcodec._training.reading import ReadConversation
from chatcodec._training.render import render, rendered_text
from chatcodec._validation import validate_model

HARMONY_ENDS = ("<|call|>", "<|return|>")
"""gpt-oss (harmony): the tokens that end a calling turn and a final answer."""


@dataclass(frozen=True, slots=True)
class Point:
    """A sampled turn, as a later prompt extends it or a retry reuses it."""

    seen: tuple[bytes, ...]
    """A digest of each canonical message the turn saw."""
    prompt_text: str
    prompt_ids: array[int]
    completion_ids: array[int]
    completion_text: str
    """The text of :attr:`completion_ids` (special tokens kept)."""
    answer: dict[str, Any]
    """The canonical assistant message the completion parses to."""
    cut: str | None
    """Why the completion is no closed turn (None: it ends with its end token)."""
    request_id: str
    """The recorded turn's request id, which a branch names as its parent."""
    losses: tuple[Loss, ...] | None = None
    """What the template could not show of the conversation the turn saw (None: not kept, so a
    later prompt renders the whole conversation to say it again)."""
    context: bytes = b""
    """A digest of what the turn was rendered with beside its messages (tools, variables): a
    later prompt rendered with other tools renders the whole conversation."""


@dataclass(frozen=True, slots=True)
class NextPrompt:
    """A turn's prompt ids, and why they are a fresh rendering where an extension was expected."""

    ids: list[int]
    text: str
    prompt_break: str | None
    parent: Point | None
    """The point whose ids it reuses or extends (None: a fresh rendering)."""
    seen: tuple[bytes, ...] = ()
    """A digest of each message of the conversation (:func:`digests`)."""
    losses: tuple[Loss, ...] = ()
    """What the template could not show of the conversation (also added to the caller's list)."""


class Renderer:
    """One conversation's template, tokenizer and tools: the texts and ids compared here."""

    def __init__(
        self,
        template: str,
        tokenizer: object,
        tools: Sequence[Any],
        *,
        object_arguments: bool = False,
        variables: Mapping[str, Any] | None = None,
    ) -> None:
        self.template, self.tokenizer, self.tools = template, tokens.loaded(tokenizer), list(tools)
        self.object_arguments = object_arguments
        """Whether the harness's wire holds call arguments as objects (Anthropic's ``input``): then
        their canonical text is chatcodec's, spelled as a rendering of the wire body spells it."""
        self.variables = dict(variables or {})
        self.encode = tokens.encoder(self.tokenizer)
        chosen = families.resolve(self.template)
        self.turn_end = chosen.profile.turn_end
        self.family = chosen.family
        """The template's family, where chatcodec knows it (a held family's next prompt is
        rendered in a window, :mod:`.prompt_window`)."""
        self.context = hashlib.blake2b(
            pydantic_core.to_json([self.tools, self.variables, object_arguments], fallback=str), digest_size=16
        ).digest()
        """A digest of what this renderer renders with beside the messages (:attr:`Point.context`)."""

    def text(self, messages: Sequence[Any], losses: list[Loss], *, prompt: bool) -> str:
        """The template's text of ``messages`` (with the generation prompt where ``prompt``), what
        it cannot show added to ``losses``."""
        return self._rendering(messages, losses, prompt=prompt, tokenized=False)[1]

    def compared(self, messages: Sequence[Any], *, prompt: bool) -> str:
        """The template's text of ``messages`` alone, for a comparison (no spans, no losses)."""
        return rendered_text(
            self._read(messages),
            template=self.template,
            add_generation_prompt=prompt,
            template_variables=self.variables or None,
        )

    def _read(self, messages: Sequence[Any]) -> ReadConversation:
        request = validate_model(ChatRequest, {"messages": list(messages), "tools": self.tools})
        return ReadConversation(request, self.object_arguments)  # one spelling: as render(body, source=...) reads it

    def tail(self, messages: Sequence[Any], new: int, text: str, cut: int) -> list[int] | None:
        """The ids of ``text[cut:]`` (the messages from ``new`` on, and the generation prompt),
        each image placeholder in it repeated as ``render`` repeats it; None where an image in
        those messages has no count chatcodec can tell (no rule, or a loss in the rendering)."""
        ids = self.encode(text[cut:])
        if not image_tokens.holds_image(messages[new:]):
            return ids
        rule = image_grids.image_rule(self.family)
        rendering = render(
            self._read(messages),
            template=self.template,
            tokenizer=self.tokenizer,
            add_generation_prompt=True,
            on_loss="ignore",
            template_variables=self.variables or None,
        )
        if rule is None or len(rendering.images) != text.count(rule.placeholder):
            return None
        shown = text[cut:].count(rule.placeholder)
        images: list[image_tokens.ImageTokens | None] = list(rendering.images[len(rendering.images) - shown :])
        unmarked = [False] * len(ids)
        owners = [0] * len(ids)
        return image_tokens.expanded(self.encode, self.family, images, ids=ids, trainable=unmarked, owners=owners)[0]

    def fresh(self, messages: Sequence[Any], losses: list[Loss]) -> tuple[list[int], str]:
        """The ids and text of ``messages`` rendered alone, with the generation prompt."""
        return self._rendering(messages, losses, prompt=True, tokenized=True)

    def _rendering(
        self, messages: Sequence[Any], losses: list[Loss], *, prompt: bool, tokenized: bool
    ) -> tuple[Any, str]:
        rendering = render(
            self._read(messages),
            template=self.template,
            tokenizer=self.tokenizer if tokenized else None,
            add_generation_prompt=prompt,
            on_loss="ignore",
            losses=losses,
            template_variables=self.variables or None,
        )
        return (rendering.token_ids if tokenized else rendering.text), rendering.text


def digests(messages: Sequence[Mapping[str, Any]]) -> tuple[bytes, ...]:
    """A digest of each canonical message, to tell a conversation seen before from a rewritten one."""
    return tuple(hashlib.blake2b(pydantic_core.to_json(message), digest_size=16).digest() for message in messages)


def sampled_text(completion_ids: Sequence[int], tokenizer: object) -> str:
    """The text of ``completion_ids``, special tokens kept (they are the markup)."""
    return decoded_text(list(completion_ids), cast("Decodes", tokenizer))


def cut_reason(completion_text: str, finish_reason: str | None, turn_end: str) -> str | None:
    """Why a completion (its :func:`sampled_text`) is no closed turn, or None where it ends
    with its end token."""
    if finish_reason == "length":
        return "it was cut at max_tokens (finish_reason 'length') before its end token"
    text = completion_text.rstrip()
    ends = (*END_OF_TURN, *HARMONY_ENDS, *((turn_end,) if turn_end else ()))
    if text.endswith(ends):
        return None
    return f"it ended without its end token (finish_reason {finish_reason!r}: a stop string, or an abort)"


def prompt_after(
    points: Sequence[Point],
    messages: Sequence[Mapping[str, Any]],
    renderer: Renderer,
    losses: list[Loss],
    *,
    place: Callable[[Steps], Steps] | None = None,
) -> NextPrompt:
    """The prompt of ``messages`` (canonical) in a session whose sampled ``points`` are kept
    (oldest first); what the template cannot show is added to ``losses``. ``place`` puts a
    canonical path where the harness's wire has it (a break names that place)."""
    found = _prompt_after(points, messages, renderer, place)
    losses.extend(found.losses)
    return found


def _prompt_after(
    points: Sequence[Point],
    messages: Sequence[Mapping[str, Any]],
    renderer: Renderer,
    place: Callable[[Steps], Steps] | None,
) -> NextPrompt:
    where = _Where(place)
    seen = digests(messages)
    for point in reversed(points):
        if point.seen == seen:  # the same conversation again: a retry or a sibling
            if point.losses is not None and point.context == renderer.context:  # rendered with the same
                return NextPrompt(list(point.prompt_ids), point.prompt_text, None, point, seen, point.losses)
            lost: list[Loss] = []
            text = renderer.text(messages, lost, prompt=True)
            if text == point.prompt_text:
                return NextPrompt(list(point.prompt_ids), text, None, point, seen, tuple(lost))
    extended = [point for point in points if len(point.seen) < len(seen) and seen[: len(point.seen)] == point.seen]
    if not extended:
        why = _rewritten(points[-1], seen, where) if points else None
        return _fresh(renderer, messages, seen, why)
    ordered = sorted(reversed(extended), key=lambda item: -len(item.seen))  # the longest, the latest first
    windowed = _windowed(ordered[0], messages, renderer, seen)
    if windowed is not None:
        return windowed
    rendered: dict[int, str] = {}  # the conversation through each candidate's answer, rendered once

    def rendered_through(at: int) -> str:
        if at not in rendered:
            rendered[at] = renderer.compared(messages[: at + 1], prompt=False)
        return rendered[at]

    chosen, why = _chosen(ordered, messages, renderer, rendered_through, where)
    if chosen is None:
        return _fresh(renderer, messages, seen, why)
    return _extended(chosen, messages, renderer, seen, rendered_through=rendered_through, where=where)


def _chosen(
    ordered: Sequence[Point],
    messages: Sequence[Mapping[str, Any]],
    renderer: Renderer,
    through: Callable[[int], str],
    where: _Where,
) -> tuple[Point | None, str | None]:
    """The first of the ``ordered`` candidates the answer sent back stands for, or None and why.

    An older candidate is tried only where the newer ones' answers are not in the conversation
    at all (a harness leaving an answer out and going on). Where the conversation holds an
    answer where a newer candidate sampled one, and it is none of the answers sampled there
    (edited, cut, its reasoning dropped), the conversation diverged at that answer: an older
    turn extended would encode it from its text inside the prompt, under no break."""
    first: str | None = None
    diverged: tuple[int, str] | None = None  # the latest answer the conversation holds otherwise than sampled
    for point in ordered:
        at = len(point.seen)
        if diverged is not None and at < diverged[0]:
            return None, diverged[1]
        why = _unextendable(point, messages, renderer, through, where)
        if why is None:
            return point, None
        first = first or why
        if diverged is None and messages[at].get("role") == "assistant":
            diverged = at, why
    return None, diverged[1] if diverged else first


def _extended(
    point: Point,
    messages: Sequence[Mapping[str, Any]],
    renderer: Renderer,
    seen: tuple[bytes, ...],
    *,
    rendered_through: Callable[[int], str],
    where: _Where,
) -> NextPrompt:
    """``point``'s ids extended by the new messages' tokens, where the template writes the
    answer, once newer messages follow it, as it was sampled; else a fresh rendering and why."""
    at = len(point.seen)
    lost: list[Loss] = []
    text = renderer.text(messages, lost, prompt=True)
    sampled = point.prompt_text + point.completion_text
    if text.startswith(sampled):  # the template writes the answer once followed as the model wrote it
        tail = renderer.tail(messages, at + 1, text, len(sampled))
        if tail is None:
            return _fresh(renderer, messages, seen, _UNTOLD_IMAGE)
        return NextPrompt([*point.prompt_ids, *point.completion_ids, *tail], text, None, point, seen, tuple(lost))
    answered = rendered_through(at)
    through = answered.rfind(renderer.turn_end, len(point.prompt_text)) if renderer.turn_end else -1
    if through < 0 or not answered.startswith(point.prompt_text):  # no turn end of the answer's own (GLM-4.5)
        answer = where("messages", at)
        why = f"the template renders the conversation before the answer at {answer} otherwise than its prompt"
        return _fresh(renderer, messages, seen, why)
    through += len(renderer.turn_end)
    if not text.startswith(answered[:through]):
        left_out = _left_out(answered[:through], text, len(point.prompt_text))
        return _fresh(renderer, messages, seen, _respelled(point, left_out, where("messages", at)))
    tail = renderer.tail(messages, at + 1, text, through)
    if tail is None:
        return _fresh(renderer, messages, seen, _UNTOLD_IMAGE)
    return NextPrompt([*point.prompt_ids, *point.completion_ids, *tail], text, None, point, seen, tuple(lost))


def _left_out(answered: str, text: str, start: int) -> str | None:
    """The one span of ``answered`` (the conversation through an answer that starts at
    ``start``, rendered as the last message) that ``text`` (the same once newer messages follow)
    leaves out of the answer, or None where the two differ otherwise."""
    if not text.startswith(answered[:start]):
        return None  # they part before the answer
    at = start
    while at < len(answered) and at < len(text) and answered[at] == text[at]:
        at += 1
    for end in range(at, min(len(answered), at + _SHOWN_SPAN) + 1):
        if text.startswith(answered[end:], at):
            return answered[at:end] or None
    return None


_SHOWN_SPAN = 400
"""The longest text a break quotes as what the template leaves out of an earlier answer."""
_MARKUP = re.compile(r"<[^<>]*>|\s")


def _respelled(point: Point, left_out: str | None, answer: str) -> str:
    """Why the template's rendering of the answer at ``answer`` (a path) once newer messages
    follow it is not the rendering it was sampled after: what it leaves out, and whose it is."""
    head = f"the template renders the earlier answer differently once newer messages follow it ({answer}"
    if left_out is None:
        return f"{head}; stock Qwen3 drops an earlier answer's reasoning at a new question)"
    reasoning = "".join(
        str(part.get("text") or "")
        for part in (as_dict(item) or {} for item in as_list(point.answer.get("content")) or [])
        if part.get("type") == "thinking"
    ).strip()
    if reasoning and reasoning in left_out:
        whose = "the answer's reasoning: stock Qwen3 drops an earlier answer's reasoning at a new question"
    elif not reasoning and not _MARKUP.sub("", left_out) and left_out in point.completion_text:
        whose = (
            "the answer's reasoning as sampled, empty: "
            "the template writes an empty reasoning block only on the last message"
        )
    else:
        whose = "text the model sampled" if left_out in point.completion_text else "text of the template's own"
    return f"{head}: it leaves out {left_out!r}, {whose})"


_UNTOLD_IMAGE = (
    "an image in the new messages has no token count chatcodec can tell (an 'image tokens' loss names it): "
    "the prompt is a fresh rendering, its placeholder one token"
)


def _windowed(
    point: Point, messages: Sequence[Mapping[str, Any]], renderer: Renderer, seen: tuple[bytes, ...]
) -> NextPrompt | None:
    """:func:`_extended`'s prompt rendered in the answer's window (:mod:`.prompt_window`): the
    messages before the answer proved by their digests, not rendered again, and the template
    run over the window's few messages only. None where the window does not apply or does not
    show an extension (the whole conversation then decides, a break included)."""
    at = len(point.seen)
    if point.losses is None or point.cut is not None or point.context != renderer.context:
        return None
    if image_tokens.holds_image(messages[at + 1 :]):
        return None  # an image's placeholder is repeated as render repeats it: the whole path's tail
    sent = messages[at]
    found = None if sent.get("role") != "assistant" else prompt_window.window(messages, at, renderer.family)
    if found is None:
        return None
    before = [messages[index] for index in found.before]
    sampled = _with_ids(point.answer, sent)
    answered = renderer.compared([*before, sent], prompt=False)
    if sampled != sent and answered != renderer.compared([*before, sampled], prompt=False):
        return None  # the answer sent back is not the one sampled: the whole conversation says where
    prompt = renderer.compared(before, prompt=True)
    asked = renderer.compared(before[: found.question], prompt=False)
    if not prompt.startswith(asked) or not point.prompt_text.endswith(prompt[len(asked) :]):
        return None  # the window writes the turn before the answer otherwise than its prompt
    lost: list[Loss] = []
    text = renderer.text([*before, *messages[at:]], lost, prompt=True)
    if text.startswith(prompt + point.completion_text):
        written, tail = point.completion_text, text[len(prompt) + len(point.completion_text) :]
    else:
        through = answered.rfind(renderer.turn_end, len(prompt)) if renderer.turn_end else -1
        if through < 0 or not answered.startswith(prompt):
            return None
        through += len(renderer.turn_end)
        if not text.startswith(answered[:through]):
            return None
        written, tail = answered[len(prompt) : through], text[through:]
    ids = [*point.prompt_ids, *point.completion_ids, *renderer.encode(tail)]
    kept = (*_before(point.losses, at), *_placed(lost, found.before, at))
    return NextPrompt(ids, point.prompt_text + written + tail, None, point, seen, kept)


_MESSAGE_PATH = re.compile(r"\$\.messages\[(\d+)\]")


def _before(losses: Sequence[Loss], at: int) -> list[Loss]:
    """The losses of the messages before ``messages[at]``."""
    return [loss for loss in losses if (found := _MESSAGE_PATH.match(loss.path)) and int(found[1]) < at]


def _placed(losses: Sequence[Loss], before: Sequence[int], at: int) -> list[Loss]:
    """A window's losses at the conversation's paths: those of the answer and what follows it,
    and those of no message (the tools); the window's earlier messages' are the point's."""
    placed: list[Loss] = []
    for loss in losses:
        found = _MESSAGE_PATH.match(loss.path)
        if found is None:
            placed.append(loss)
            continue
        index = int(found[1]) - len(before)
        if index >= 0:
            path = f"$.messages[{at + index}]{loss.path[found.end() :]}"
            placed.append(Loss(path, loss.what, loss.why, loss.kind))
    return placed


def _fresh(renderer: Renderer, messages: Sequence[Any], seen: tuple[bytes, ...], why: str | None) -> NextPrompt:
    lost: list[Loss] = []
    ids, text = renderer.fresh(messages, lost)
    return NextPrompt(ids, text, why, None, seen, tuple(lost))


class _Where:
    """A canonical path as the harness's wire names it (``$.messages[2].content[1].input``)."""

    def __init__(self, place: Callable[[Steps], Steps] | None) -> None:
        self._place = place

    def __call__(self, *steps: str | int) -> str:
        placed: Steps = steps
        if self._place is not None:
            try:
                placed = self._place(steps)
            except (LookupError, TypeError, ValueError):  # an origin that cannot place it: the canonical path
                placed = steps
        return json_path(placed)


def _rewritten(last: Point, seen: tuple[bytes, ...], where: _Where) -> str:
    """Where ``seen`` parts from the conversation the session's ``last`` point saw."""
    at = next((index for index, (old, new) in enumerate(zip(last.seen, seen, strict=False)) if old != new), None)
    if at is None:
        if len(seen) < len(last.seen):
            return (
                f"the conversation holds {len(seen)} messages where the last turn saw {len(last.seen)} "
                "(earlier turns dropped: a compaction or a rewind)"
            )
        return f"{where('messages', len(last.seen))} is not the answer sampled there"
    rewritten = "an earlier turn rewritten: a compaction or an edit"
    return f"{where('messages', at)} differs from what the last turn saw ({rewritten})"


def _unextendable(
    point: Point,
    messages: Sequence[Mapping[str, Any]],
    renderer: Renderer,
    through: Callable[[int], str],
    where: _Where,
) -> str | None:
    """Why the answer after ``point`` cannot stand for its sampled ids, or None; ``through(at)``
    is the template's text of the conversation through the answer at ``messages[at]``."""
    at = len(point.seen)
    sampler = f"sampled at turn {sum(1 for message in messages[:at] if message.get('role') == 'assistant')}"
    if point.cut is not None:
        return (
            f"the answer at {where('messages', at)} was sampled unclosed: {point.cut}; "
            f"the prompt is a fresh rendering; {sampler}"
        )
    sent = messages[at]
    if sent.get("role") != "assistant":
        return f"{where('messages', at)} is a {sent.get('role')!r} message where the sampled answer was expected"
    before = list(messages[:at])
    sampled = _with_ids(point.answer, sent)
    if through(at) == renderer.compared([*before, sampled], prompt=False):
        return None
    why = changed(point.answer, sent, at, where)
    return f"the answer sent back at {where('messages', at)} is not the one sampled: {why}; {sampler}"


def _with_ids(sampled: dict[str, Any], sent: Mapping[str, Any]) -> dict[str, Any]:
    """The ``sampled`` answer with the call ids the harness holds for its calls, in order (a
    format that writes no id had its ids made by the parser, not sampled; a library caller's
    conversation holds its own)."""
    ids = [call.get("id") for _, call in _pieces(sent)["tool_use"]]
    calls = iter(ids)
    content: list[Any] = []
    for item in as_list(sampled.get("content")) or []:
        part = as_dict(item)
        content.append({**part, "id": next(calls, part.get("id"))} if part and part.get("type") == "tool_use" else item)
    return {**sampled, "content": content} if ids else sampled


def changed(sampled: Mapping[str, Any], sent: Mapping[str, Any], at: int, where: _Where) -> str:
    """What differs between the ``sampled`` answer and the one ``sent`` back at ``messages[at]``,
    and where (the first difference of each kind)."""
    what: list[str] = []
    old, new = _pieces(sampled), _pieces(sent)
    for kind, name in (("thinking", "reasoning"), ("text", "text")):
        was, now = old[kind], new[kind]
        if [text for _, text in was] != [text for _, text in now]:  # the words, wherever the part sits
            verb = "dropped" if not now else "added" if not was else _how(was[0][1], now[0][1])
            place = where("messages", at) if not now else where("messages", at, "content", now[0][0])
            what.append(f"its {name} {verb} ({place})")
    was_calls, now_calls = old["tool_use"], new["tool_use"]
    if [call["name"] for _, call in was_calls] != [call["name"] for _, call in now_calls]:
        what.append(f"its calls changed ({len(was_calls)} sampled, {len(now_calls)} sent back)")
    else:
        for (_, before), (index, after) in zip(was_calls, now_calls, strict=True):
            if _arguments(before) != _arguments(after):
                path = where("messages", at, "content", index, "arguments")
                what.append(f"the arguments of {after['name']!r} changed ({path})")
                break
    return "; ".join(what) or f"{where('messages', at)} renders otherwise than the sampled answer"


def _how(sampled: str, sent: str) -> str:
    """How a text sent back differs from the sampled one: ``cut`` (a harness truncating it keeps
    its start) or ``changed``."""
    return "cut" if sampled.startswith(sent) else "changed"


def _pieces(message: Mapping[str, Any]) -> dict[str, list[tuple[int, Any]]]:
    """The message's reasoning and text (as strings) and calls, each with its content index."""
    found: dict[str, list[tuple[int, Any]]] = {"thinking": [], "text": [], "tool_use": []}
    content = message.get("content")
    if isinstance(content, str):
        found["text"].append((0, content))
        return found
    for index, item in enumerate(as_list(content) or []):
        part = as_dict(item) or {}
        kind = part.get("type")
        if kind in ("thinking", "text"):
            found[kind].append((index, part.get("text")))
        elif kind == "tool_use":
            found[kind].append((index, part))
    for kind in ("thinking", "text"):  # the words, however the parts are cut
        texts = found[kind]
        found[kind] = [(texts[0][0], "".join(str(text or "") for _, text in texts).strip())] if texts else []
        if found[kind] and not found[kind][0][1]:
            found[kind] = []
    return found


def _arguments(call: Mapping[str, Any]) -> object:
    """A call's arguments as values (the model's spacing set aside)."""
    arguments = call.get("arguments")
    if isinstance(arguments, str):
        try:
            return pydantic_core.from_json(arguments)
        except ValueError:
            return arguments
    return arguments
