"""The trainers' own types and validators take ``chatcodec.trainer_rows``' rows: verifiers, verl,
SkyRL (normal and step-wise) and OpenPipe ART, on a split and an unsplit episode.

A layout that names the right fields can still be refused by the trainer (a type its model
validates otherwise, a length its validator checks, a node its graph cannot walk), so this tool
hands the rows to the packages themselves: the weather episode (a question, a call, its result,
an answer) rendered with Qwen3's real ids (``tests/training/qwen3_tokenizer.py``) under
``qwen3-training`` (one sample) and stock ``qwen3`` (two: its prompts stop extending), then

- SkyRL: ``validate_generator_output`` on the normal rows of the unsplit episode, and on the
  step-wise rows of both (``TrajectoryID`` made from each row's id), joined by SkyRL's own
  ``concatenate_generator_outputs``; the split episode in normal mode must be refused by
  ``trainer_rows`` before SkyRL sees it;
- verl: ``AgentLoopOutput`` (and its ``as_dict``) from the unsplit episode's row; the split one
  refused;
- verifiers: every node a ``MessageNode``, and each root-to-leaf ``Branch``'s ``token_ids``,
  ``sampled_mask`` and ``logprobs`` the samples' ids, mask and logprobs;
- ART: a ``Trajectory`` whose ``completions_token_histories`` are the samples' ids, with the
  sampled spans where the mask marks them.

It needs those packages, which the dev environment does not carry (torch, ray and their
dependencies): ``make check-consumers`` makes ``.venv-consumers`` (Python 3.12: SkyRL 0.4 and ART 0.5
ask for it) and runs this file there. Exits non-zero on any refusal or difference. slime is not
on the package index, so its rows are checked by their field names in the tests only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import chatcodec  # noqa: E402
from training.qwen3_tokenizer import qwen3_encoding  # noqa: E402

EPISODE = ROOT / "tests" / "fixtures" / "training" / "trajectory.jsonl"
"""The weather episode, with its tools."""


def episode() -> dict[str, Any]:
    row = json.loads(EPISODE.read_text().splitlines()[0])
    return {"messages": row["messages"], "tools": row["tools"]}


def turns(template: str) -> list[chatcodec.SampledTurn]:
    """The episode's turns under ``template``, with a logprob per sampled id."""
    found = chatcodec.render_turns(
        episode(), source="openai-chat", template=template, tokenizer=qwen3_encoding(), on_loss="ignore"
    )
    return [
        chatcodec.SampledTurn(
            message_index=turn.message_index,
            prompt_ids=turn.prompt_ids,
            completion_ids=turn.completion_ids,
            logprobs=[-0.5 - 0.001 * number for number in range(len(turn.completion_ids))],
            prompt_text=turn.prompt_text,
            completion_text=turn.completion_text,
        )
        for turn in found
    ]


def refused(layout: str, samples: list[dict[str, Any]], **given: Any) -> str:
    try:
        chatcodec.trainer_rows(samples, layout=layout, **given)
    except chatcodec.TemplateError as error:
        return str(error)
    raise AssertionError(f"{layout}: the split episode was not refused")


def check_skyrl(episodes: dict[str, list[dict[str, Any]]]) -> None:
    from skyrl.train.generators.base import TrajectoryID
    from skyrl.train.generators.utils import concatenate_generator_outputs
    from skyrl.train.utils.trainer_utils import validate_generator_output

    def typed(rows: dict[str, Any]) -> dict[str, Any]:
        ids = rows["trajectory_ids"]
        return {**rows, "trajectory_ids": None if ids is None else [TrajectoryID(**found) for found in ids]}

    normal = typed(chatcodec.trainer_rows(episodes["unsplit"], layout="skyrl", reward=1.0))
    validate_generator_output(1, normal)
    print("SkyRL normal: validate_generator_output takes the unsplit episode's row")
    print("  the split episode, refused before SkyRL:", refused("skyrl", episodes["split"], reward=1.0)[:90], "...")
    outputs = []
    for number, (name, samples) in enumerate(episodes.items()):
        options = {"step_wise": True, "trajectory_id": (f"weather-{name}", number)}
        rows = typed(chatcodec.trainer_rows(samples, layout="skyrl", reward=1.0, options=options))
        validate_generator_output(1, rows, step_wise=True)
        outputs.append(rows)
        print(f"SkyRL step-wise: validate_generator_output takes the {name} episode ({len(samples)} row(s))")
    joined = concatenate_generator_outputs(outputs, step_wise=True)
    assert joined["is_last_step"] == [True, False, True], joined["is_last_step"]
    print(
        "SkyRL step-wise: concatenate_generator_outputs joins both episodes (is_last_step", joined["is_last_step"], ")"
    )


def check_verl(episodes: dict[str, list[dict[str, Any]]]) -> None:
    from verl.experimental.agent_loop.agent_loop import AgentLoopOutput

    [sample] = episodes["unsplit"]
    output = AgentLoopOutput(**chatcodec.trainer_rows(episodes["unsplit"], layout="verl", reward=1.0))
    assert output.prompt_ids == sample["prompt_ids"]
    assert output.response_mask == sample["response_mask"]
    tensors = output.as_dict()
    assert tensors["responses"].tolist() == sample["response_ids"]
    print("verl: AgentLoopOutput (and as_dict) takes the unsplit episode's row")
    print("  the split episode, refused before verl:", refused("verl", episodes["split"])[:90], "...")


def check_verifiers(template: str, samples: list[dict[str, Any]], given: list[chatcodec.SampledTurn]) -> None:
    from verifiers.v1.graph import MessageNode
    from verifiers.v1.trace import Branch

    options = {"conversation": episode(), "source": "openai-chat", "template": template, "tokenizer": qwen3_encoding()}
    written = chatcodec.trainer_rows(given, layout="verifiers", options=options, on_loss="ignore")
    nodes = [MessageNode.model_validate(node) for node in written]
    children = {node.parent for node in nodes if node.parent is not None}
    leaves = [index for index in range(len(nodes)) if index not in children]
    assert len(leaves) == len(samples), f"{len(leaves)} branches for {len(samples)} samples"
    for number, (leaf, sample) in enumerate(zip(leaves, samples, strict=True)):
        path: list[int] = []
        at: int | None = leaf
        while at is not None:
            path.append(at)
            at = nodes[at].parent
        branch = Branch(index=number, nodes=[nodes[index] for index in reversed(path)])
        assert branch.token_ids == sample["prompt_ids"] + sample["response_ids"], f"branch {number}: other ids"
        mask = [0] * len(sample["prompt_ids"]) + sample["response_mask"]
        assert [int(flag) for flag in branch.sampled_mask] == mask, f"branch {number}: another mask"
        assert branch.logprobs == [0.0] * len(sample["prompt_ids"]) + sample["response_logprobs"], "other logprobs"
    print(f"verifiers ({template}): {len(nodes)} MessageNodes, {len(leaves)} branch(es) equal to the samples")


def check_art(template: str, samples: list[dict[str, Any]], given: list[chatcodec.SampledTurn]) -> None:
    import art

    written = chatcodec.trainer_rows(given, layout="art", reward=1.0, options={"model": "qwen3"}, on_loss="ignore")
    trajectory = art.Trajectory.model_validate(written)
    histories = trajectory.completions_token_histories(model="qwen3")
    assert len(histories) == len(samples), f"{len(histories)} histories for {len(samples)} samples"
    for history, sample in zip(histories, samples, strict=True):
        assert history.prompt == sample["prompt_ids"] + sample["response_ids"], "a history of other ids"
        flags = [0] * len(history.prompt)
        for start, end in history.sampled_spans:
            flags[start:end] = [1] * (end - start)
        assert flags == [0] * len(sample["prompt_ids"]) + sample["response_mask"], "other sampled spans"
    print(f"ART ({template}): a Trajectory whose {len(histories)} token histories are the samples")


def main() -> int:
    by_template = {"unsplit": "qwen3-training", "split": "qwen3"}
    given = {name: turns(template) for name, template in by_template.items()}
    episodes = {name: chatcodec.trainer_samples(found, on_loss="ignore") for name, found in given.items()}
    assert [len(samples) for samples in episodes.values()] == [1, 2], "the episodes are not unsplit and split"
    check_skyrl(episodes)
    check_verl(episodes)
    for name, template in by_template.items():
        check_verifiers(template, episodes[name], given[name])
        check_art(template, episodes[name], given[name])
    print("every consumer took the rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
