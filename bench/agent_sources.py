"""The agent sessions of each source format, and how each is checked and compared.

Claude agents send Anthropic Messages and OpenAI-SDK agents send OpenAI Chat: those two
sessions are generated (:mod:`bench.agent_workloads`). The other three formats' sessions
are those sessions *written by chatcodec* in the format (``on_loss="ignore"``): a Claude
agent on Bedrock (signed thinking as ``reasoningContent``, ``cachePoint`` blocks,
screenshots and ``status: "error"`` inside ``toolResult``), and an OpenAI-SDK agent on
Gemini and on the Responses API. A shape that such a writing leaves no trace of (strict
tools in Gemini, say) does not exist in that format and has no row.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import chatcodec
from bench import agent_views, agent_workloads, floor, floor_wires
from bench.agent_workloads import CLAUDE_FULL, CLAUDE_SHAPES, OPENAI_SHAPES

SEED = 29
"""The seed of the sessions counted; the first sight of one converts the same shapes from other
seeds first (:data:`OTHER_SEEDS`)."""
OTHER_SEEDS = (901, 902)

PROVIDERS = ("anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse")

OPENAI_MODELS = {
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-pro",
    "bedrock-converse": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "openai-responses": "gpt-5.1",
}
"""The model an OpenAI-SDK agent names, through a gateway, for each target format (model
rules, such as Gemini's thinking budget or level, follow the model)."""

FLOORS: dict[tuple[str, str], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("anthropic", "openai-chat"): floor.anthropic_to_openai,
    ("openai-chat", "anthropic"): floor.openai_to_anthropic,
    ("openai-chat", "openai-responses"): floor.openai_to_responses,
    ("openai-chat", "gemini"): floor_wires.openai_to_gemini,
    ("openai-chat", "bedrock-converse"): floor_wires.openai_to_bedrock,
    ("gemini", "openai-chat"): floor_wires.gemini_to_openai,
    ("bedrock-converse", "openai-chat"): floor_wires.bedrock_to_openai,
}
"""The bench's plain-dict floors: they convert the plainest twins (the shapes are beyond
them), so they give the plain sessions a ratio to the floor."""


@dataclass(frozen=True)
class Source:
    """One source format: whose session it is and which shapes it can carry."""

    provider: str
    native: str
    """The format the agent's session is generated in (``anthropic`` or ``openai-chat``)."""
    shapes: tuple[str, ...]
    full: frozenset[str]
    model: str | None
    """The OpenAI session's model when it is written in another format; ``None``: the
    target's (:data:`OPENAI_MODELS`), or no choice to make (Claude sessions)."""

    def session(self, turns: int, shapes: Collection[str], target: str, seed: int = SEED) -> dict[str, Any]:
        if self.native == "anthropic":
            native = agent_workloads.claude_session(turns, shapes, seed=seed)
        else:
            model = self.model or OPENAI_MODELS[target]
            native = agent_workloads.openai_session(turns, shapes, seed=seed, model=model)
        if self.provider == self.native:
            return native
        return chatcodec.convert_request(native, source=self.native, target=self.provider, on_loss="ignore")


SOURCES = (
    Source("anthropic", "anthropic", CLAUDE_SHAPES, CLAUDE_FULL, None),
    Source("openai-chat", "openai-chat", OPENAI_SHAPES, frozenset(OPENAI_SHAPES), None),
    Source("openai-responses", "openai-chat", OPENAI_SHAPES, frozenset(OPENAI_SHAPES), "gpt-5.1"),
    Source("gemini", "openai-chat", OPENAI_SHAPES, frozenset(OPENAI_SHAPES), "gemini-2.5-pro"),
    Source("bedrock-converse", "anthropic", CLAUDE_SHAPES, CLAUDE_FULL, None),
)

PLAIN = "plain twin"
FULL = "full session"


@dataclass
class Input:
    """One session a table times: its label (a shape, the plain twin, the full session)."""

    label: str
    payload: dict[str, Any]
    kib: float = field(init=False)

    def __post_init__(self) -> None:
        self.kib = agent_workloads.size_of(self.payload) / 1024


@dataclass
class Sessions:
    """The sessions of one size, made once and shared by every target that reads them the same."""

    turns: int
    seed: int = SEED
    made: dict[tuple[str, frozenset[str], str], dict[str, Any]] = field(default_factory=lambda: {})

    def get(self, source: Source, shapes: Collection[str], target: str) -> dict[str, Any]:
        model = (source.model or OPENAI_MODELS[target]) if source.native == "openai-chat" else ""
        key = (source.provider, frozenset(shapes), model)
        if key not in self.made:
            self.made[key] = source.session(self.turns, shapes, target, self.seed)
        return self.made[key]

    def inputs(self, source: Source, target: str, *, with_shapes: bool) -> list[Input]:
        """The plain twin, each shape that exists in the source format, the full session."""
        plain = self.get(source, (), target)
        inputs = [Input(PLAIN, plain)]
        for shape in source.shapes if with_shapes else ():
            payload = self.get(source, (shape,), target)
            if payload != plain:
                inputs.append(Input(shape, payload))
        inputs.append(Input(FULL, self.get(source, source.full, target)))
        return inputs


def comparable(seen: dict[str, Any], source: str, target: str) -> dict[str, Any]:
    """The view with call ids left out when Gemini is one side (it pairs calls by name)."""
    if "gemini" not in (source, target):
        return seen
    turns = [
        (role, [(item[0], "", *item[2:]) if item[0] in ("call", "result") else item for item in items])
        for role, items in seen["turns"]
    ]
    return {**seen, "turns": turns}


def viewer(source: str, target: str, *, messages_only: bool = False) -> Callable[[Any], object]:
    """The comparable view of a ``target`` request (the output of a ``source`` conversion)."""
    read = agent_views.messages_view if messages_only else agent_views.view

    def seen(request: Any) -> object:
        return comparable(read(request, target), source, target)

    return seen


def expected(payload: dict[str, Any], source: str, target: str, *, messages_only: bool = False) -> object:
    """What every conversion of ``payload`` must say: the view of the input itself."""
    read = agent_views.messages_view if messages_only else agent_views.view
    return comparable(read(payload, source), source, target)
