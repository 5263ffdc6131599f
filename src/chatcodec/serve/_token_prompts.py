"""The prompt ids of a turn sent to a token upstream (``vllm-generate``, ``sglang-generate``),
rendered by chatcodec, and its completion read back with the template's parser.

A turn's prompt is the training room's next prompt (:mod:`chatcodec._training.next_prompt`):
an earlier turn's prompt and the ids it sampled, extended by the new messages' tokens where
what the harness sends back is what was sampled, else a fresh rendering with the reason
(``prompt_break``) said in the turn's record, so a trainer starts a new sample there. A
retry or a sibling of an earlier turn reuses its prompt ids and names it (``parent_turn``).
Each session's last few turns are kept in a bounded memory (their prompt text, ids and
parsed answer), the oldest session forgotten first.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from chatcodec._losses import Loss, Steps
from chatcodec._model.messages import AssistantMessage
from chatcodec._training.gateway import (
    Point,
    Renderer,
    cut_reason,
    digests,
    held_calls,
    loaded,
    parse_completion,
    prompt_after,
    reasoning_opener,
    sampled_text,
    template_profile,
)
from chatcodec.serve._template_variables import template_variables

MAX_SESSIONS = 10_000
"""Sessions whose last turns are kept for the next to extend or branch from."""
MAX_POINTS = 4
"""Turns kept per session: the last, and a few a retry or a branch may start from."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """A turn's prompt ids, and why they are a fresh rendering where an extension was expected."""

    ids: list[int]
    text: str
    prompt_break: str | None
    parent_turn: str | None = None
    """The request id of the earlier turn whose ids a retry or a branch reuses or extends."""
    seen: tuple[bytes, ...] = ()
    """A digest of each message of the conversation (what the turn kept as its point saw)."""
    losses: tuple[Loss, ...] = ()
    """What the template could not show of the conversation (a later turn's window says it again)."""
    context: bytes = b""
    """A digest of the tools and variables the prompt was rendered with."""


class TokenPrompts:
    """The template and tokenizer a server renders prompts with, and each session's last turns."""

    def __init__(
        self,
        template: str,
        tokenizer: object,
        *,
        object_arguments: bool = False,
        parser: str | None = None,
        reasoning_parser: str | None = None,
    ) -> None:
        self.parser = parser
        """``--parser``: vLLM's tool-call parser name its answers are read with (None: the family's)."""
        self.reasoning_parser = reasoning_parser
        """``--reasoning-parser`` (None: the family's, else the tool-call parser's)."""
        path = Path(template)
        self.template = path.read_text(encoding="utf-8") if template.endswith(".jinja") or path.is_file() else template
        self.tokenizer: Any = loaded(tokenizer)
        # profiled once, at start: a template that cannot be is refused there, not every turn
        self.turn_end = template_profile(self.template).turn_end
        self.object_arguments = object_arguments
        """Whether the front's wire holds call arguments as objects (a rendering spells them as
        ``render(body, source=front)`` does)."""
        self._sessions: OrderedDict[str, list[Point]] = OrderedDict()

    def renderer(self, request: Mapping[str, Any]) -> Renderer:
        """What ``request``'s prompts are rendered with."""
        return Renderer(
            self.template,
            self.tokenizer,
            request.get("tools") or [],
            object_arguments=self.object_arguments,
            variables=template_variables(request, self.template),  # the harness's chat_template_kwargs
        )

    def prompt(
        self,
        session: str,
        request: Mapping[str, Any],
        losses: list[Loss],
        place: Callable[[Steps], Steps] | None = None,
    ) -> Prompt:
        """The prompt of ``request`` (canonical data) in ``session``; what the template cannot
        show is added to ``losses``; ``place`` puts a break's canonical path in the front's wire."""
        messages = list(request.get("messages") or [])
        points = self._sessions.get(session, [])
        renderer = self.renderer(request)
        found = prompt_after(points, messages, renderer, losses, place=place)
        parent = found.parent
        branch = parent is not None and (parent is not points[-1] or len(parent.seen) == len(messages))
        parent_turn = parent.request_id if branch and parent else None
        return Prompt(
            found.ids, found.text, found.prompt_break, parent_turn, found.seen, found.losses, renderer.context
        )

    def fresh_ids(self, request: Mapping[str, Any], losses: list[Loss]) -> list[int]:
        """The ids of ``request`` rendered alone, with the generation prompt (a token count)."""
        return self.renderer(request).fresh(list(request.get("messages") or []), losses)[0]

    def answered(
        self,
        session: str,
        request: Mapping[str, Any],
        prompt: Prompt,
        sampled: tuple[list[int], str | None, AssistantMessage],
        request_id: str,
    ) -> None:
        """Keep ``session``'s turn (its completion ids, finish reason and parsed answer) for
        the next to extend or branch from."""
        completion_ids, finish_reason, answer = sampled
        completed = sampled_text(completion_ids, self.tokenizer)
        point = Point(
            seen=prompt.seen or digests(list(request.get("messages") or [])),
            prompt_text=prompt.text,
            prompt_ids=array("q", prompt.ids),
            completion_ids=array("q", completion_ids),
            completion_text=completed,
            answer=answer.model_dump(mode="json", exclude_none=True),
            cut=cut_reason(completed, finish_reason, self.turn_end),
            request_id=request_id,
            losses=prompt.losses if prompt.seen else None,
            context=prompt.context,
        )
        points = [*self._sessions.get(session, []), point][-MAX_POINTS:]
        self._sessions[session] = points
        self._sessions.move_to_end(session)
        if len(self._sessions) > MAX_SESSIONS:
            self._sessions.popitem(last=False)

    def parsed(
        self, completion_ids: list[int], request: Mapping[str, Any], losses: list[Loss], prompt_text: str | None = None
    ) -> AssistantMessage:
        """The assistant message the template's parser reads in ``completion_ids``, sampled
        after ``prompt_text`` (whether it opened the reasoning: ``enable_thinking: false``
        closes it in the prompt where the template's own generation prompt opens it), its made
        call ids continuing the conversation's and repeating none it holds."""
        tools = request.get("tools") or None
        held = held_calls(request.get("messages") or [])
        opener = self.reasoning_opener if prompt_text is not None else None
        started = None if opener is None or prompt_text is None else prompt_text.rstrip().endswith(opener)
        return parse_completion(
            completion_ids,
            template=self.template,
            tokenizer=self.tokenizer,
            tools=tools,
            first_call_index=held.made,
            held_call_ids=held.ids,
            parser=self.parser,
            reasoning_parser=self.reasoning_parser,
            reasoning_started=started,
            on_loss="ignore",
            losses=losses,
        )

    @cached_property
    def reasoning_opener(self) -> str | None:
        """What opens the reasoning the parser splits off (``<think>``), or None."""
        return reasoning_opener(parser=self.parser, template=self.template, reasoning_parser=self.reasoning_parser)
