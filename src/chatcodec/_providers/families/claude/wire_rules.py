"""Claude's rules, shared by the two formats that serve Claude: Anthropic Messages and
Bedrock Converse: whose thinking signatures verify where, usage counted
apart from the cache, the thinking config, stop-reason spelling, unsigned thinking.

The two wire formats spell things differently (``cache_read_input_tokens`` against
``cacheReadInputTokens``, ``stop_reason`` against ``stopReason``) but the model behind
them is the same, so the rules are too:

- **Usage.** The input count covers only the uncached part of the prompt; cache reads
  and writes are reported beside it. Canonical ``input_tokens`` is the whole prompt, so
  decoding adds the three and encoding subtracts them back
  (https://docs.anthropic.com/en/api/messages#response-usage,
  https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html).
- **Thinking config.** ``{"type": "enabled", "budget_tokens": n}``, ``adaptive`` or
  ``disabled``, the same object in both (Bedrock takes it inside
  ``additionalModelRequestFields``).
- **Stop reasons.** Lowercase snake-case words; an unknown word spelled that way is most
  likely one added after this was written, and is kept.
- **Unsigned thinking.** Claude verifies the signature of replayed thinking: thinking
  without one is dropped or, with the ``unsigned_thinking`` option ``"text"``, sent as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from chatcodec._losses import LossRecorder, Steps
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.kit.reasoning import EFFORT_BUDGETS, SMALLEST_BUDGET, budget_for_effort, thinking_on

if TYPE_CHECKING:  # annotations only: a conversion imports no canonical model
    from chatcodec._model.response_fields import UnifiedFinishReason

ANTHROPIC_API = "anthropic"
"""The Anthropic API's registry name: thinking it gives is always signed by Claude's scheme,
and thinking it may have given (no provider named) may carry a signature only Claude checks."""

CLAUDE_SIGNERS = frozenset({ANTHROPIC_API, "bedrock-converse"})
"""Providers whose Claude thinking carries Anthropic's signature scheme (the Anthropic
API itself; Claude on Bedrock Converse): Anthropic's documentation says signatures are
compatible across the platforms that serve Claude."""


def is_claude_model(model: str | None) -> bool:
    """Whether a model id names a Claude model (``claude-sonnet-4-5``, Bedrock's
    ``us.anthropic.claude-3-7-sonnet-20250219-v1:0`` or an ARN holding one)."""
    return model is not None and "claude" in model.lower()


def claude_signed(provider: str | None, model: str | None) -> bool:
    """Whether thinking from ``provider`` and ``model`` is signed by Claude's scheme, so
    another platform serving Claude can verify it: Anthropic's own, or Bedrock's when the
    model that produced it is known to be Claude."""
    if provider == ANTHROPIC_API:
        return True
    return provider in CLAUDE_SIGNERS and is_claude_model(model)


def report_image_detail(detail: str | None, losses: LossRecorder, at: Steps, wire: str) -> None:
    """OpenAI's image ``detail`` (a resolution hint) has no field on the wires that serve
    Claude: ``"auto"``, what no hint means, is dropped without a report, a real hint is a
    loss."""
    if detail not in (None, "auto"):
        losses.add((*at, "detail"), f"image detail {detail!r}", f"{wire} has no resolution hint")


def uncached_input_tokens(usage: Mapping[str, Any], losses: LossRecorder, at: Steps) -> int | None:
    """The input tokens neither read from nor written to the cache, for wires that count
    those apart (Anthropic, Bedrock Converse) while canonical ``input_tokens`` includes
    them (so nothing is counted twice). A total smaller than its cache parts cannot be
    written: it is reported and sent as zero."""
    total: int | None = usage.get("input_tokens")
    if total is None:
        return None
    uncached = total - (usage.get("cache_read_tokens") or 0) - (usage.get("cache_write_tokens") or 0)
    if uncached < 0:
        losses.add((*at, "input_tokens"), "input token count", "smaller than the cache reads plus writes", "metadata")
        return 0
    return uncached


UnsignedThinking = Literal["drop", "text"]
"""What to do with thinking Claude cannot verify: drop it, or send its text as text."""


def unsigned_thinking(context: EncodeContext) -> UnsignedThinking:
    """The ``unsigned_thinking`` option, checked (anything but ``"text"`` is ``"drop"``)."""
    return "text" if context.option("unsigned_thinking") == "text" else "drop"


# --- usage ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UsageSpelling:
    """The wire names of Claude's four counts in one format."""

    input: str
    output: str
    cache_read: str
    cache_write: str


def decode_counts(wire: Mapping[str, Any], spelling: UsageSpelling) -> dict[str, Any]:
    """The canonical counts for a wire usage object: input is the whole prompt (the
    uncached part plus cache reads and writes)."""
    canonical: dict[str, Any] = {}
    read, write = wire.get(spelling.cache_read), wire.get(spelling.cache_write)
    if wire.get(spelling.input) is not None:
        canonical["input_tokens"] = wire[spelling.input] + (read or 0) + (write or 0)
    if wire.get(spelling.output) is not None:
        canonical["output_tokens"] = wire[spelling.output]
    if read is not None:
        canonical["cache_read_tokens"] = read
    if write is not None:
        canonical["cache_write_tokens"] = write
    return canonical


def encode_counts(
    usage: Mapping[str, Any], wire: dict[str, Any], spelling: UsageSpelling, losses: LossRecorder, at: Steps
) -> None:
    """Write the four counts into ``wire``: input as the uncached part alone (``usage``:
    canonical usage data, or the model)."""
    uncached = uncached_input_tokens(usage, losses, at)
    if uncached is not None:
        wire[spelling.input] = uncached
    for key, wire_key in (
        ("output_tokens", spelling.output),
        ("cache_read_tokens", spelling.cache_read),
        ("cache_write_tokens", spelling.cache_write),
    ):
        count: int | None = usage.get(key)
        if count is not None:
            wire[wire_key] = count


# --- thinking config -----------------------------------------------------------------

ThinkingTaken = Literal["adaptive", "budget", "none"]
"""How a model takes thinking switched on by an effort alone (:func:`thinking_taken`)."""


def thinking_taken(model: str | None) -> ThinkingTaken:
    """``adaptive`` for Claude 4.6+ (and a Claude-style id no table names: a Claude newer
    than the table), ``budget`` for a Claude model before 4.6 known to have extended
    thinking (``model_limits.py``), ``none`` for any other: a Claude without extended
    thinking refuses a ``thinking`` object, and a model chatcodec cannot name may. The
    model tables are imported here, where a request's thinking is written: a stream, which
    reads this module's usage and signature rules, loads none of them."""
    from chatcodec._providers.families.claude.model_limits import known_to_think
    from chatcodec._providers.families.claude.model_rules import takes_adaptive_thinking

    if takes_adaptive_thinking(model):
        return "adaptive"
    return "budget" if known_to_think(model) else "none"


def effort_spent_on_thinking(reasoning: Mapping[str, Any], taken: ThinkingTaken) -> bool:
    """Whether an effort that switched thinking on is not sent as an effort too: on a
    model taking a budget the budget says it (such a model may not take an effort either),
    and a model taking no thinking is sent neither."""
    switched = reasoning.get("enabled") is True and reasoning.get("budget_tokens") is None
    return taken != "adaptive" and switched and not reasoning.get("adaptive")


def encode_thinking_config(
    reasoning: Mapping[str, Any],
    losses: LossRecorder,
    *,
    unsupported: tuple[str, ...],
    why: str,
    taken: ThinkingTaken = "budget",
    max_tokens: int | None = None,
) -> dict[str, Any] | None:
    """The ``thinking`` object for ``reasoning`` (None: nothing to send). The format's
    reasoning settings Claude's thinking has no place for (``unsupported``) are losses,
    reported with ``why``; ``include_thoughts`` with thinking on is not (Claude returns
    thinking whenever it thinks).

    Thinking turned on without a budget or adaptive mode (an OpenAI ``reasoning_effort``,
    Ollama's ``think``) is what the model ``taken`` (:func:`thinking_taken`): adaptive
    thinking, a budget from the effort (:mod:`chatcodec._providers.kit.reasoning`, capped
    below ``max_tokens`` as Anthropic requires), or, for a model not known to think,
    nothing (a ``default`` loss: no thinking it may refuse is made up); each reported. A
    budget of 0 with no switch (Gemini's ``thinkingBudget: 0``) is thinking disabled."""
    at = ("reasoning",)
    on = thinking_on(reasoning)
    for key in unsupported:
        value = reasoning.get(key)
        if value is not None and not (key == "include_thoughts" and value is True and on):
            losses.add((*at, key), f"reasoning {key}", why, "setting")
    enabled, budget, adaptive = reasoning.get("enabled"), reasoning.get("budget_tokens"), reasoning.get("adaptive")
    if enabled is False or (budget == 0 and enabled is None and not adaptive):
        if (budget or adaptive) and enabled is False:
            losses.add(
                at, "thinking budget or adaptive mode", "reasoning is disabled, so they were not sent", "setting"
            )
        return {"type": "disabled"}
    if budget is not None:
        if adaptive:
            losses.add(
                (*at, "adaptive"), "adaptive thinking", "a budget was given too; sent as enabled thinking", "setting"
            )
        return {"type": "enabled", "budget_tokens": budget}
    if adaptive:
        return {"type": "adaptive"}
    if enabled:
        return _switched_on(reasoning.get("effort"), losses, taken=taken, max_tokens=max_tokens)
    return None


def _switched_on(
    effort: str | None, losses: LossRecorder, *, taken: ThinkingTaken, max_tokens: int | None
) -> dict[str, Any] | None:
    """Thinking switched on with at most an effort: adaptive, a budget from the effort, or
    nothing for a model not known to think."""
    at = ("reasoning", "enabled")
    said = f"effort {effort!r}" if effort is not None else "reasoning on without an effort"
    if taken == "none":
        why = (
            "not sent: the model is not known to have extended thinking (families/claude/model_limits.py), "
            "and one without it refuses a thinking object; give a thinking budget to send one"
        )
        losses.add(at, said, why, "default")
        return None
    if taken == "adaptive":
        if effort is None:
            losses.add(at, "reasoning on without a budget", "sent as adaptive thinking", "setting")
        return {"type": "adaptive"}
    budget = budget_for_effort(effort or "medium")
    if max_tokens is not None and budget >= max_tokens:
        budget = max(SMALLEST_BUDGET, max_tokens - 1)
        if effort is not None:
            _report_collapse(effort, budget, max_tokens, losses)
    losses.add(
        at, said, f"sent as thinking with budget_tokens {budget} (the model has no adaptive thinking)", "setting"
    )
    return {"type": "enabled", "budget_tokens": budget}


def _report_collapse(effort: str, budget: int, max_tokens: int, losses: LossRecorder) -> None:
    """An effort whose budget reaches the ``max_tokens`` cap gets the largest budget below
    it, as every larger effort does: the efforts no longer differ, a rule loss. Claude
    requires ``budget_tokens`` below ``max_tokens`` ("budget_tokens must be less than
    max_tokens": https://platform.claude.com/docs/en/build-with-claude/extended-thinking);
    scaling the budgets under the cap instead would send budgets no effort stands for."""
    alike = [word for word, wanted in EFFORT_BUDGETS.items() if wanted >= max_tokens]
    names = ", ".join(alike[:-1]) + f" and {alike[-1]}" if len(alike) > 1 else alike[0]
    why = (
        f"its budget ({budget_for_effort(effort)}) reaches max_tokens {max_tokens}, and Claude takes "
        f"budget_tokens below max_tokens: {names} all get {budget}"
    )
    losses.add(("reasoning", "effort"), f"effort {effort!r}", why, "rule")


# --- stop reasons --------------------------------------------------------------------

"""How Claude's stop reasons are spelled; another provider's ``STOP`` or ``Stop`` is not one."""


FINISH_MARKER = "_finish_reason"
"""Response-bag key holding a stop-reason word the codec read and does not know, so it is
written back (and only then: the word alone does not say which provider sent it)."""


@dataclass(frozen=True, slots=True)
class StopReasons:
    """One format's stop-reason words, read and written by Claude's rules.

    A word the API adds later decodes to ``other`` with the raw word kept and recorded in
    the response's bag (:data:`FINISH_MARKER`), and encodes back as that word only with
    that record: a raw word is written back only by the provider that read it. Another
    provider's word (a Responses ``queued`` or ``cancelled`` status) is mapped from the
    unified value instead, reported."""

    words: Mapping[str, UnifiedFinishReason]
    """Every documented word, with its unified reason."""
    closest: Mapping[UnifiedFinishReason, str]
    """The word sent for a unified reason that came without one of ours."""
    field: str
    """The wire field (``stop_reason``), for loss messages."""
    provider: str
    """The format's display name, for loss messages."""

    def decode(self, raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
        """The canonical reason for a wire word (None: no word yet, as while streaming); a
        word this format does not document is also recorded in ``bag``."""
        if raw is None:
            return None
        if raw not in self.words:
            bag[FINISH_MARKER] = raw
        return {"unified": self.words.get(raw, "other"), "raw": raw}

    def encode(
        self,
        finish_reason: Mapping[str, Any] | None,
        bag: Mapping[str, Any],
        losses: LossRecorder,
        at: Steps,
    ) -> str | None:
        """The wire word: the raw word when it is ours and agrees with the unified value, or
        an unknown word ``bag`` (the response's own) records; else the closest word (a loss
        when that changes the unified value)."""
        if finish_reason is None:
            return None
        raw: str | None = finish_reason.get("raw")
        unified: UnifiedFinishReason = finish_reason["unified"]
        if raw is not None and self.words.get(raw) == unified:
            return raw
        if raw is not None and unified == "other" and raw not in self.words and raw == bag.get(FINISH_MARKER):
            return raw  # most likely a word added after this was written: kept as sent
        chosen = self.closest[unified]
        if self.words[chosen] != unified:
            losses.add(
                at,
                f"finish reason {unified!r}",
                f"{self.provider} has no such {self.field}; sent as {chosen!r}",
                "metadata",
            )
        return chosen
