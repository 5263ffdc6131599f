"""The prompt ids of a turn sent to a token upstream (``vllm-generate``, ``sglang-generate``),
rendered by chatcodec, and its completion read back with the template's parser.

A turn's prompt is :func:`chatcodec.render` of the request with the generation prompt. A
later turn of the same session is the previous turn's prompt, its completion ids as they
were sampled (never re-encoded from the text the harness sends back) and the new messages'
tokens, where the template allows: where its rendering of the conversation so far starts
with its rendering of the previous turn's prompt and answer. Where it does not (stock Qwen3
drops an earlier answer's reasoning once a new question comes), the prompt is a fresh
rendering and the break is said in the turn's record (``prompt_break``), so a trainer
starts a new sample there. Each session's last turn is kept in a bounded memory (its
prompt text, its prompt and completion ids), the oldest session forgotten first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from chatcodec._losses import Loss
from chatcodec._model.messages import AssistantMessage
from chatcodec._training import tokens
from chatcodec._training.completion.parse import parse_completion, reasoning_opener
from chatcodec._training.families import template_profile
from chatcodec._training.render import Rendering, render
from chatcodec.serve._template_variables import template_variables

MAX_SESSIONS = 10_000
"""Sessions whose last turn is kept for the next to extend (a few kB of ids each)."""


@dataclass(frozen=True, slots=True)
class LastTurn:
    """A session's last turn, as the next one extends it."""

    messages: int
    """How many messages it saw (its answer is the next message)."""
    prompt_text: str
    """The template's rendering of those messages with the generation prompt."""
    prompt_ids: list[int]
    completion_ids: list[int]


@dataclass(frozen=True, slots=True)
class Prompt:
    """A turn's prompt ids, and why they are a fresh rendering where an extension was expected."""

    ids: list[int]
    text: str
    prompt_break: str | None


class TokenPrompts:
    """The template and tokenizer a server renders prompts with, and each session's last turn."""

    def __init__(
        self, template: str, tokenizer: object, *, parser: str | None = None, reasoning_parser: str | None = None
    ) -> None:
        self.parser = parser
        """``--parser``: vLLM's tool-call parser name its answers are read with (None: the family's)."""
        self.reasoning_parser = reasoning_parser
        """``--reasoning-parser`` (None: the family's, else the tool-call parser's)."""
        path = Path(template)
        self.template = path.read_text(encoding="utf-8") if template.endswith(".jinja") or path.is_file() else template
        self.tokenizer: Any = tokens.loaded(tokenizer)
        self._encode = tokens.encoder(self.tokenizer)
        self._turn_end = template_profile(self.template).turn_end
        self._sessions: OrderedDict[str, LastTurn] = OrderedDict()

    def prompt(self, session: str, request: Mapping[str, Any], losses: list[Loss]) -> Prompt:
        """The prompt of ``request`` (canonical data) in ``session``; what the template cannot
        show is added to ``losses``."""
        messages = list(request.get("messages") or [])
        last = self._sessions.get(session)
        if last is None or len(messages) <= last.messages:
            return self._fresh(request, messages, losses, None)
        lost: list[Loss] = []
        text = self._render(request, messages, lost, prompt=True).text
        answered = self._render(request, messages[: last.messages + 1], [], prompt=False).text
        through = answered.rfind(self._turn_end)
        if through < 0 or not answered.startswith(last.prompt_text):
            return self._fresh(request, messages, losses, "the conversation before the last answer changed")
        through += len(self._turn_end)
        if not text.startswith(answered[:through]):
            why = "the template renders the earlier answer differently once newer messages follow it"
            return self._fresh(request, messages, losses, why)
        losses.extend(lost)
        return Prompt([*last.prompt_ids, *last.completion_ids, *self._encode(text[through:])], text, None)

    def fresh_ids(self, request: Mapping[str, Any], losses: list[Loss]) -> list[int]:
        """The ids of ``request`` rendered alone, with the generation prompt (a token count)."""
        return self._fresh(request, list(request.get("messages") or []), losses, None).ids

    def _fresh(self, request: Mapping[str, Any], messages: list[Any], losses: list[Loss], why: str | None) -> Prompt:
        rendering = self._render(request, messages, losses, prompt=True, tokenized=True)
        assert rendering.token_ids is not None  # a tokenizer was given
        return Prompt(rendering.token_ids, rendering.text, why)

    def answered(self, session: str, messages: int, prompt: Prompt, completion_ids: list[int]) -> None:
        """Keep ``session``'s turn for the next to extend."""
        self._sessions[session] = LastTurn(messages, prompt.text, prompt.ids, completion_ids)
        self._sessions.move_to_end(session)
        if len(self._sessions) > MAX_SESSIONS:
            self._sessions.popitem(last=False)

    def parsed(
        self, completion_ids: list[int], request: Mapping[str, Any], losses: list[Loss], prompt_text: str | None = None
    ) -> AssistantMessage:
        """The assistant message the template's parser reads in ``completion_ids``, sampled
        after ``prompt_text`` (whether it opened the reasoning: ``enable_thinking: false``
        closes it in the prompt where the template's own generation prompt opens it)."""
        tools = request.get("tools") or None
        opener = self.reasoning_opener if prompt_text is not None else None
        started = None if opener is None or prompt_text is None else prompt_text.rstrip().endswith(opener)
        return parse_completion(
            completion_ids,
            template=self.template,
            tokenizer=self.tokenizer,
            tools=tools,
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

    def _render(
        self,
        request: Mapping[str, Any],
        messages: list[Any],
        losses: list[Loss],
        *,
        prompt: bool,
        tokenized: bool = False,
    ) -> Rendering:
        conversation = {"messages": messages, "tools": request.get("tools") or []}
        return render(
            conversation,
            template=self.template,
            tokenizer=self.tokenizer if tokenized else None,
            add_generation_prompt=prompt,
            on_loss="ignore",
            losses=losses,
            template_variables=template_variables(request, self.template),  # the harness's chat_template_kwargs
        )
