"""Tool names a provider accepts, by one rewrite shared by every encoder (kit module).

Each provider restricts tool (function) names, and refuses a request whose name breaks
the rule with a 400 ("string does not match pattern"):

* OpenAI Chat and Responses: ``^[a-zA-Z0-9_-]{1,64}$`` (the SDK's
  ``FunctionDefinition.name``: "a-z, A-Z, 0-9, underscores and dashes, with a maximum
  length of 64"); Anthropic states the same pattern for client tools, and Bedrock
  Converse's ``ToolName`` shape is the same (botocore: ``[a-zA-Z0-9_-]+``, 1 to 64).
* Gemini: "must start with a letter or an underscore; a-z, A-Z, 0-9, underscores, dots,
  colons and dashes, with a maximum length of 128" (google-genai's
  ``FunctionDeclaration.name``).

Names from another provider break these rules all the time: Gemini's ``lookup.v2``,
MCP's ``server:tool``, a 70-character generated name, ``get weather``. A name that
breaks the rule becomes :func:`fitted_tool_name` of it: other characters become ``_``,
then a cut to fit and 8 hex digits of the name's SHA-256, so two names that differ only
past the cut, or only in characters replaced, stay two names. The rewrite is a pure
function, so a tool's definition, the calls of it and a ``tool_choice`` naming it agree,
and :func:`tool_name_map` gives a proxy the way back. Every rewrite is reported, as the
model then sees (and calls) the tool by another name. A blank name (a call a model made
with none, read from a response) is fitted the same way (``_`` and the digest), and
reported: the request is sent, the call keeps its place beside its result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from chatcodec._losses import LossRecorder, Steps


def _no_names() -> set[str]:
    """An empty set of names, typed: a factory ``set[str]`` calls a generic alias, which raises
    and clears an ``AttributeError`` inside."""
    return set()


@dataclass(frozen=True, slots=True)
class ToolNameRule:
    """One provider family's tool-name rule."""

    valid: re.Pattern[str]
    """A whole name the provider accepts."""
    limit: int
    """The longest name it accepts."""
    replaced: re.Pattern[str]
    """A character it does not accept anywhere."""
    shown: str
    """The rule as a loss says it."""
    first: re.Pattern[str] | None = None
    """A first character it accepts, when that is narrower than the rest."""
    accepted: set[str] = field(default_factory=_no_names, compare=False, hash=False, repr=False)
    """Names found valid (:meth:`takes`): a session calls a few tools many times, and a set
    lookup is a fraction of the pattern match (at most :data:`ACCEPTED_LIMIT`). A writer's
    loop looks a name up here before it calls :meth:`takes` (``name in rule.accepted or
    rule.takes(name)``): a name found costs neither the call nor the match."""

    def takes(self, name: str) -> bool:
        """Whether the rule accepts ``name`` as it is (remembered in :attr:`accepted` when it does)."""
        if name in self.accepted:
            return True
        if self.valid.match(name) is None:
            return False
        if len(self.accepted) < ACCEPTED_LIMIT:
            self.accepted.add(name)
        return True


ACCEPTED_LIMIT = 4096
"""How many valid names a rule remembers (a server sees many sessions' tools)."""


COMMON_TOOL_NAMES = ToolNameRule(
    valid=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),
    limit=64,
    replaced=re.compile(r"[^a-zA-Z0-9_-]"),
    shown="^[a-zA-Z0-9_-]{1,64}$",
)
"""The rule most APIs share (OpenAI Chat, OpenAI Responses, Anthropic client tools and
Bedrock Converse, as the module docstring cites); a folder with another rule writes its
own :class:`ToolNameRule` (Gemini's, in ``_providers/gemini/tool_names.py``)."""

TOOL_NAME_LIMIT = COMMON_TOOL_NAMES.limit
"""The longest tool name OpenAI and Anthropic accept."""


def tool_name(name: str, losses: LossRecorder, at: Steps, provider: str, rule: ToolNameRule = COMMON_TOOL_NAMES) -> str:
    """``name`` as ``provider`` is sent it, for the tool definition, call or choice at
    ``at``: itself when ``rule`` accepts it, else :func:`fitted_tool_name` of it, reported
    (a blank name too: it names no tool, and the API refuses it)."""
    if name in rule.accepted or rule.takes(name):  # the lookup inline: a call a name costs more
        return name
    sent = fitted_tool_name(name, rule)
    what = "blank tool name" if not name.strip() else f"tool name {name!r}"
    losses.add((*at, "name"), what, f"{provider} tool names match {rule.shown}; sent as {sent!r}")
    return sent


def unblank_tool_name(name: str, losses: LossRecorder, at: Steps, provider: str) -> str:
    """``name`` for a provider with no name rule (Ollama: any string): itself, or, when
    blank, :func:`fitted_tool_name` of it, reported (a blank name names no tool)."""
    if name.strip():
        return name
    sent = fitted_tool_name(name)
    losses.add((*at, "name"), "blank tool name", f"{provider} tool names need a character; sent as {sent!r}")
    return sent


def tool_name_map(names: Iterable[str], rule: ToolNameRule = COMMON_TOOL_NAMES) -> dict[str, str]:
    """``{original: sent}`` for the tool names among ``names`` an encoder rewrites, so a
    proxy can give the model's calls (``sent``) back their original names."""
    return {name: sent for name in names if (sent := fitted_tool_name(name, rule)) != name}


@lru_cache(maxsize=1024)
def fitted_tool_name(name: str, rule: ToolNameRule = COMMON_TOOL_NAMES) -> str:
    """A name ``rule`` accepts for ``name``: itself when it does; else other characters
    as ``_`` (and a leading ``_`` when the first character may not start a name), cut to
    fit beside ``_`` and 8 hex digits of the name's SHA-256."""
    if rule.valid.match(name):
        return name
    cleaned = rule.replaced.sub("_", name)
    if rule.first is not None and not rule.first.match(cleaned):
        cleaned = "_" + cleaned
    import hashlib  # only for a name the rule refuses: loading OpenSSL costs a first use

    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{cleaned[: rule.limit - len(digest) - 1]}_{digest}"
