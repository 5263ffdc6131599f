"""What a first sight's count holds besides the conversion: the interpreter's warm-up and the work
litellm's fastest anchor does not do (issue 107: a 3-step session at first sight).

:mod:`bench.states` counts chatcodec's *first sight* as the third conversion of a fresh process (two
other-seed sessions first) and litellm's fastest anchor in the steady process, after its warm-ups.
CPython 3.11 runs a function's first calls unspecialized and quickens it at its eighth call (or
loop turn), so a count in a fresh process also holds the warm-up of every function run once a
request. This counts, each in a fresh process under callgrind, one conversion after ``warm`` others
of the same shape from other seeds:

* chatcodec on the whole session;
* chatcodec on its ``model`` and ``messages`` alone (what litellm's converter for OpenAI Chat ->
  Anthropic writes: no tools, no settings);
* litellm's anchors of the pair (``bench.anchors_litellm_agents``), each on the same terms.

``python bench/warm_up_split.py --shape none --steps 3 --warm 2 20`` (a feature shape of
:mod:`bench.feature_shapes`, or ``--held-out KIND`` for one of :mod:`bench.held_out`;
``--pair openai-chat->anthropic``).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHATCODEC, MESSAGES_ONLY = "chatcodec", "chatcodec, model and messages only"


def _bodies(source: str, target: str, shape: str, steps: int, *, warm: int, held: str | None) -> list[dict[str, Any]]:
    """``warm`` sessions from other seeds, then the counted one (its seed the generator's own)."""
    if held is not None:
        from bench import held_out

        build = held_out.BUILDERS[held]
        seeds = [*held_out.OTHER_SEEDS, *range(5000, 5000 + warm)][:warm]
        return [build(steps, seed) for seed in seeds] + [build(steps)]
    from bench import feature_shapes

    features = () if shape == "none" else next(on for name, on in feature_shapes.combinations() if name == shape)
    seeds = [*feature_shapes.OTHER_SEEDS, *range(2000, 2000 + warm)][:warm]
    return [feature_shapes.body(source, target, steps, features, seed) for seed in seeds] + [
        feature_shapes.body(source, target, steps, features)
    ]


def _prepared(subject: str, source: str, target: str, body: dict[str, Any]) -> Callable[[], object]:
    """``subject``'s conversion of ``body``, ready to call (an anchor made before, as the bench makes it)."""
    if subject in (CHATCODEC, MESSAGES_ONLY):
        import chatcodec

        given = body if subject == CHATCODEC else {"model": body["model"], "messages": body["messages"]}
        return partial(chatcodec.convert_request, given, source=source, target=target, on_loss="ignore")
    from bench import anchors_litellm_agents

    return next(item for item in anchors_litellm_agents.anchors(source, target, body) if item.name == subject).call


def child(library: Path, job: Path) -> int:
    """Convert the warm-up bodies, then count the last one once (this process runs under callgrind)."""
    from bench import callgrind

    fields = json.loads(job.read_text(encoding="utf-8"))
    texts: list[str] = fields["bodies"]
    subject, source, target = fields["subject"], fields["source"], fields["target"]
    for text in texts[:-1]:  # each read on its own, as a request is
        _prepared(subject, source, target, json.loads(text))()
    counted = _prepared(subject, source, target, json.loads(texts[-1]))
    requests = callgrind.Requests(library)
    gc.collect()
    gc.freeze()
    requests.start()
    requests.zero()
    requests.dump("0")
    gc.collect()
    requests.zero()
    counted()
    requests.dump("1")
    requests.stop()
    return 0


def count(subject: str, source: str, target: str, bodies: list[dict[str, Any]]) -> float:
    """Instructions of ``subject``'s conversion of the last of ``bodies`` after the others, in M."""
    from bench import callgrind

    with tempfile.TemporaryDirectory(prefix="chatcodec-warm-up-") as temporary:
        folder = Path(temporary)
        library = callgrind.build(folder)
        job = folder / "job.json"
        texts = [json.dumps(body) for body in bodies]
        job.write_text(json.dumps({"subject": subject, "source": source, "target": target, "bodies": texts}))
        callgrind.run([str(Path(__file__).resolve()), "--child", str(library), str(job)], folder)
        regions = {dump.label: dump.instructions for dump in callgrind.read_dumps(folder)}
    return (regions["1"] - regions["0"]) / 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="openai-chat->anthropic")
    parser.add_argument("--shape", default="none", help="a feature shape's name (bench/feature_shapes.py)")
    parser.add_argument("--held-out", default=None, help="a held-out session's kind (bench/held_out.py) instead")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--warm", type=int, nargs="+", default=[2, 20], help="conversions before the counted one")
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        return child(*arguments.child)
    from bench import anchors_litellm_agents

    source, target = arguments.pair.split("->")
    probe = _bodies(source, target, arguments.shape, arguments.steps, warm=0, held=arguments.held_out)[0]
    subjects = [
        CHATCODEC,
        MESSAGES_ONLY,
        *(item.name for item in anchors_litellm_agents.anchors(source, target, probe)),
    ]
    shape = arguments.held_out or arguments.shape
    print(
        f"| {arguments.pair}, {shape}, {arguments.steps} steps | "
        + " | ".join(f"after {w}" for w in arguments.warm)
        + " |"
    )
    print("| --- |" + " --- |" * len(arguments.warm))
    for subject in subjects:
        cells = []
        for warm in arguments.warm:
            bodies = _bodies(source, target, arguments.shape, arguments.steps, warm=warm, held=arguments.held_out)
            cells.append(f"{count(subject, source, target, bodies):.3f} M")
        print(f"| {subject} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
