"""verifiers' message graph: a ``MessageNode`` per message, each holding the tokens it adds.

Field names and types from verifiers 0.4.0 (PrimeIntellect-ai/verifiers, ``verifiers/v1/graph.py``:
``parent``, ``message``, ``sampled``, ``token_ids``, ``mask``, ``logprobs``, ``tools``; the messages
as ``verifiers/v1/types.py`` types them, calls flat as ``{id, type, name, arguments}``). verifiers
builds the graph from each turn's prompt, by the renderer's per-message spans: a new input
message's node holds its tokens and the template's scaffold before them, the generation prompt
goes on the assistant node before its sampled completion, and a root-to-leaf path's tokens are
the ``prompt_ids + completion_ids`` the model saw. So the graph is written from the turns, each
prompt rendered to learn which message each token belongs to (``chatcodec.render``'s
``message_indices``), and refused where the rendering is not the turn's prompt. A turn joins the
path its prompt extends, as :func:`~chatcodec.trainer_samples` joins a sample; a turn that
extends none (a break, a retry) starts a new root, so each branch is one trainer sample. Each
turn's prompt is rendered once, as verifiers' renderer client renders it: an episode costs a
rendering a turn, the square of its turns on a long one, where the samples cost none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatcodec import AnyMessage
from chatcodec._training import reading
from chatcodec._training import render as rendering
from chatcodec._training.layouts.episode import Episode
from chatcodec._training.layouts.verifiers_messages import verifiers_message
from chatcodec._training.turns import SampledTurn
from chatcodec.contract import LossRecorder


def rows(episode: Episode) -> list[dict[str, Any]]:
    assert episode.turns is not None  # the table says this layout needs them
    conversation = episode.option("conversation")
    if conversation is None or episode.option("template") is None or episode.option("tokenizer") is None:
        raise episode.refuse(
            "the graph's nodes are the conversation's messages, each with its tokens: pass "
            "options={'conversation': ..., 'template': ..., 'tokenizer': ...} as render_turns took them",
            "$.options",
            rule="trainer_options",
        )
    read = reading.read_input(conversation, episode.option("source"), LossRecorder())
    messages = list(read.request.messages)
    graph = _Graph(episode.recorder)
    for number, turn in enumerate(episode.turns):
        if not 0 <= turn.message_index < len(messages) or messages[turn.message_index].role != "assistant":
            raise episode.refuse(
                f"turn {number}'s answer is message {turn.message_index}, no assistant message of the conversation",
                f"$[{number}].message_index",
                rule="trainer_turns",
            )
        owners = _prompt_owners(episode, read, turn, number)
        graph.add(turn, owners, messages, episode, number)
    given = episode.option("tools")
    defined = read.request.tools if given is None else rendering.tools_of(given)  # the tools the prompts rendered
    tools = [_tool(tool.model_dump(mode="json", exclude_none=True)) for tool in defined]
    return [{**node, "tools": tools} if node["parent"] is None and tools else node for node in graph.nodes]


def _prompt_owners(episode: Episode, read: reading.ReadConversation, turn: SampledTurn, number: int) -> list[int]:
    """Which message each of the turn's prompt ids belongs to (-1: the generation prompt), from
    the template's rendering of the messages before the answer, refused where it is another."""
    head = reading.ReadConversation(
        read.request.model_copy(update={"messages": read.request.messages[: turn.message_index]}),
        read.object_arguments,
    )
    rendered = rendering.render(
        head,
        template=episode.option("template"),
        tokenizer=episode.option("tokenizer"),
        tools=episode.option("tools"),
        add_generation_prompt=True,
        on_loss="ignore",
        template_variables=episode.option("template_variables"),
    )
    ids = list(rendered.token_ids)
    if ids != turn.prompt_ids:
        at = next((k for k, (a, b) in enumerate(zip(ids, turn.prompt_ids, strict=False)) if a != b), None)
        where = f"from id {at}" if at is not None else f"{len(ids)} ids against {len(turn.prompt_ids)}"
        raise episode.refuse(
            f"turn {number}'s prompt is not the template's rendering of the messages before its answer ({where}): "
            "which message each id belongs to cannot be told",
            f"$[{number}].prompt_ids",
            rule="trainer_prompt",
        )
    return list(rendered.message_indices)


class _Graph:
    """The nodes so far, and each branch's leaf with the ids along its path."""

    def __init__(self, recorder: LossRecorder) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.leaves: list[tuple[int, list[int], int]] = []  # (leaf node, ids through it, its answer's index)
        self.recorder = recorder

    def add(
        self, turn: SampledTurn, owners: list[int], messages: Sequence[AnyMessage], episode: Episode, number: int
    ) -> None:
        joined = None if turn.prompt_break is not None else self._joined(turn.prompt_ids)
        parent: int | None = None
        start = first = 0
        if joined is not None:
            parent, held, answered = self.leaves[joined]
            start, first = len(held), answered + 1
        new_ids, new_owners = turn.prompt_ids[start:], owners[start:]
        position = 0
        for index in range(first, turn.message_index):
            lead = _run(new_owners, position, 0, index)  # its leading scaffold: ids of the messages before it
            through = _run(new_owners, lead, index, index + 1)
            message = verifiers_message(messages[index], index, self.recorder, episode.refuse)
            if through == lead and messages[index].parts and index + 1 < turn.message_index:
                self.recorder.add(
                    ("messages", index),
                    "message tokens",
                    "the template does not show where this message ends in the prompt (it renders it otherwise "
                    "once more follow): its tokens are on the next message's node",
                    "rule",
                )
            parent = self._node(parent, message, new_ids[position:through], sampled=False)
            position = through
        rest = new_ids[position:]
        if any(first <= owner < turn.message_index for owner in new_owners[position:]):
            raise episode.refuse(
                f"turn {number}'s prompt holds a message's ids out of the messages' order (the template moves "
                "a message): a node per message cannot hold them",
                f"$[{number}].prompt_ids",
                rule="trainer_prompt",
            )
        answer = messages[turn.message_index]
        completion = list(turn.completion_ids)
        leaf = self._node(
            parent,
            verifiers_message(answer, turn.message_index, self.recorder, episode.refuse),
            [*rest, *completion],
            sampled=True,
            mask=[False] * len(rest) + [True] * len(completion),
            logprobs=list(turn.logprobs or []),
        )
        path = [*turn.prompt_ids, *completion]
        if joined is None:
            self.leaves.append((leaf, path, turn.message_index))
        else:
            self.leaves[joined] = (leaf, path, turn.message_index)

    def _joined(self, prompt: list[int]) -> int | None:
        """The branch ``prompt`` extends (the longest, the latest of equals), or None."""
        best: int | None = None
        for index in range(len(self.leaves) - 1, -1, -1):
            ids = self.leaves[index][1]
            if (best is None or len(ids) > len(self.leaves[best][1])) and prompt[: len(ids)] == ids:
                best = index
        return best

    def _node(
        self,
        parent: int | None,
        message: dict[str, Any],
        token_ids: list[int],
        *,
        sampled: bool,
        mask: list[bool] | None = None,
        logprobs: list[float] | None = None,
    ) -> int:
        self.nodes.append(
            {
                "parent": parent,
                "message": message,
                "sampled": sampled,
                "token_ids": token_ids,
                "mask": mask if mask is not None else [False] * len(token_ids),
                "logprobs": logprobs or [],
            }
        )
        return len(self.nodes) - 1


def _run(owners: list[int], start: int, low: int, high: int) -> int:
    """The first position from ``start`` whose owner is not in ``[low, high)``."""
    position = start
    while position < len(owners) and low <= owners[position] < high:
        position += 1
    return position


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A canonical tool definition as verifiers' ``Tool`` (``name``, ``description``, ``parameters``)."""
    written: dict[str, Any] = {"type": "function", "name": tool["name"]}
    if tool.get("description"):
        written["description"] = tool["description"]
    if tool.get("parameters") is not None:
        written["parameters"] = tool["parameters"]
    return written
