"""Where a first sight's count goes, step by step: a callgrind region around each call of the
request's steps (issue 107: the fixed per-request cost of a 3-step session).

``callgrind_annotate`` names C functions only (every Python function is ``_PyEval_EvalFrameDefault``),
and a profiler hook puts the interpreter in its tracing mode, which runs every opcode slower and
specializes none. Here the functions named (:data:`STEPS`, or ``--at module:function``,
``module:Class.method``) are wrapped for the count: each call dumps the counts at its start and at
its end (:class:`bench.callgrind.Requests`), so each dump holds the instructions since the one
before, charged to the innermost step running then. The process converts ``warm`` sessions of the
same shape from other seeds first (a first sight is the third conversion: ``--warm 2``), then the
generator's own, counted; the cost of a dump (an empty region, counted first) is taken out of each.
A wrapped call still adds its wrapper's frame (some hundreds of instructions) to its caller's own
count, so the sum is a little over the conversion's unwrapped count.

``python bench/call_regions.py --shape none --steps 3`` (``--pair``, ``--held-out``, ``--warm``, ``--at``;
``--steady`` converts the counted body once before it too, for what a first sight pays over a repeat).
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

STEPS = (
    "chatcodec._api:get_codec",
    "chatcodec._api:direct_conversion",
    "chatcodec._losses:LossRecorder.settle",
    "chatcodec._direct.openai_chat_to_anthropic:DirectReading.__init__",
    "chatcodec._direct.openai_chat_to_anthropic:admit",
    "chatcodec._direct.openai_chat_to_anthropic:write_directly",
    "chatcodec._direct.openai_chat_source:read_request_data",
    "chatcodec._direct.openai_chat_source:write_request_data",
    "chatcodec._direct.openai_chat_source:admitted_origins",
    "chatcodec._providers.contract.provider_codec:ProviderCodec.read_request",
    "chatcodec._providers.contract.provider_codec:ProviderCodec.write_request",
    "chatcodec._providers.contract.provider_codec:ProviderCodec._encode_context",
    "chatcodec._providers.contract.provider_codec:apply_target_rules",
    "chatcodec._providers.contract.provider_codec:outside_own_ranges",
    "chatcodec._providers.openai_chat.request:decode_request",
    "chatcodec._providers.openai_chat.request:front_copy",
    "chatcodec._providers.contract.context:recall",
    "chatcodec._providers.kit.closed_schema:LazyValidator.validate",
    "chatcodec._providers.anthropic.request:encode_request",
    "chatcodec._providers.anthropic.request:encode_tools",
    "chatcodec._providers.anthropic.request:_turns",
    "chatcodec._direct.openai_chat_to_anthropic:usual",
    "chatcodec._direct.openai_chat_to_anthropic:recall",
    "chatcodec._direct.openai_chat_to_anthropic:begun",
    "chatcodec._direct.openai_chat_to_anthropic:begin_remembering",
    "chatcodec._direct.openai_chat_to_anthropic:finish",
    "chatcodec._direct.openai_chat_to_anthropic:DirectReading.direct_turns",
    "chatcodec._direct.openai_chat_to_anthropic:write_turns",
    "chatcodec._direct.top_levels.openai_chat_usual:tools_written_whole",
    "chatcodec._direct.top_levels.openai_chat_usual:_settings",
    "chatcodec._direct.top_levels.openai_chat_to_anthropic:encode_required",
    "chatcodec._direct.top_levels.openai_chat_to_anthropic:encode_choice",
    "chatcodec._direct.top_levels.openai_chat_to_anthropic:apply_target_rules",
    "chatcodec._direct.top_levels.openai_chat_to_anthropic:admitted_origins",
    "chatcodec._providers.anthropic.request:encode_knobs",
    "chatcodec._providers.anthropic.request:encode_settings",
    "chatcodec._providers.anthropic.tools:_encode_functions",
    "chatcodec._providers.anthropic.tools:encode_choice",
)
"""The steps of an OpenAI Chat -> Anthropic conversion on its direct path, each named where its
caller looks it up (a module's global, a class's method)."""

_A2OC = "chatcodec._direct.anthropic_to_openai_chat"
A2OC_STEPS = (
    "chatcodec._api:get_codec",
    "chatcodec._api:direct_conversion",
    "chatcodec._losses:LossRecorder.settle",
    f"{_A2OC}:admitted",
    f"{_A2OC}:proved",
    f"{_A2OC}:read_request_data",
    f"{_A2OC}:read_usual",
    "chatcodec._direct.top_levels.anthropic_to_openai_chat:decode_tools",
    "chatcodec._direct.top_levels.anthropic_to_openai_chat:decode_system",
    f"{_A2OC}:trace_source",
    f"{_A2OC}:write_request_data",
    f"{_A2OC}:DirectReading.direct_messages",
    f"{_A2OC}:encode_plain_message",
    f"{_A2OC}:encode_tool_message",
    f"{_A2OC}:decode_user_turn",
    "chatcodec._providers.contract.provider_codec:ProviderCodec.read_request",
    "chatcodec._providers.contract.provider_codec:ProviderCodec.write_request",
    "chatcodec._providers.contract.provider_codec:ProviderCodec._encode_context",
    "chatcodec._providers.contract.provider_codec:apply_target_rules",
    "chatcodec._providers.kit.closed_schema:LazyValidator.validate",
    "chatcodec._providers.contract.context:recall",
)
"""The steps of an Anthropic -> OpenAI Chat conversion on its direct path."""

PAIR_STEPS = {"openai-chat->anthropic": STEPS, "anthropic->openai-chat": A2OC_STEPS}
"""The default steps of each pair (``--at`` names others)."""

EMPTY, WHOLE = "<dump>", "convert_request"


@dataclass(frozen=True)
class Step:
    """One step's count: its calls, its instructions with what it called (``inclusive``) and
    without the steps it called (``own``)."""

    name: str
    calls: int
    inclusive: int
    own: int


def steps(dumps: Iterable[tuple[str, int]], dump_cost: int) -> list[Step]:
    """Each step's count from the dumps in order (``C|name`` at a call, ``R|name`` at its return,
    each holding the instructions since the dump before), ``dump_cost`` taken out of each; the
    largest inclusive first."""
    stack: list[str] = []
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    for label, count in dumps:
        kind, _, name = label.partition("|")
        spent = count - dump_cost
        if stack:
            own[stack[-1]] += spent
            for running in set(stack):
                inclusive[running] += spent
        if kind == "C":
            stack.append(name)
            calls[name] += 1
        elif not stack or stack.pop() != name:
            raise ValueError(f"a return out of order: {label}")
    return [Step(name, calls[name], total, own[name]) for name, total in inclusive.most_common()]


def wrapped(name: str, function: Callable[..., Any], dump: Callable[[str], None]) -> Callable[..., Any]:
    """``function`` with a dump at its call (``C|name``) and at its return (``R|name``), its result
    and its errors as they were."""

    @functools.wraps(function)
    def counted(*arguments: Any, **keywords: Any) -> Any:
        dump(f"C|{name}")
        try:
            return function(*arguments, **keywords)
        finally:
            dump(f"R|{name}")

    return counted


def wrap_steps(at: Sequence[str], dump: Callable[[str], None]) -> None:
    """Wrap each step of ``at`` (``module:function`` or ``module:Class.method``) where its callers find it."""
    for target in at:
        module_name, _, attribute = target.partition(":")
        module = importlib.import_module(module_name)
        owner_name, _, method = attribute.rpartition(".")
        if owner_name:
            owner = getattr(module, owner_name)
            setattr(owner, method, wrapped(attribute, owner.__dict__[method], dump))
        else:
            setattr(module, attribute, wrapped(attribute, getattr(module, attribute), dump))


def child(library: Path, job: Path) -> int:
    """Wrap the steps, convert the warm-up bodies, then count the last one (under callgrind)."""
    import chatcodec
    from bench import callgrind

    fields = json.loads(job.read_text(encoding="utf-8"))
    source, target = fields["source"], fields["target"]
    requests = callgrind.Requests(library)
    started = [False]

    def dump(label: str) -> None:
        if started[0]:
            requests.dump(label)

    wrap_steps(fields["at"], dump)
    bodies = [json.loads(text) for text in fields["bodies"]]
    for body in bodies[:-1]:
        chatcodec.convert_request(body, source=source, target=target, on_loss="ignore")
    gc.collect()
    gc.freeze()
    requests.start()
    started[0] = True
    requests.zero()
    dump(f"C|{EMPTY}")
    dump(f"R|{EMPTY}")
    gc.collect()
    requests.zero()
    dump(f"C|{WHOLE}")
    chatcodec.convert_request(bodies[-1], source=source, target=target, on_loss="ignore")
    dump(f"R|{WHOLE}")
    requests.stop()
    return 0


def count(source: str, target: str, bodies: list[dict[str, Any]], at: Sequence[str]) -> list[Step]:
    """The steps ``at`` of converting the last of ``bodies`` after the others, in instructions."""
    from bench import callgrind

    with tempfile.TemporaryDirectory(prefix="chatcodec-call-regions-") as temporary:
        folder = Path(temporary)
        library = callgrind.build(folder)
        job = folder / "job.json"
        texts = [json.dumps(body) for body in bodies]
        job.write_text(json.dumps({"source": source, "target": target, "bodies": texts, "at": list(at)}))
        callgrind.run([str(Path(__file__).resolve()), "--child", str(library), str(job)], folder)
        dumps = [(dump.label, dump.instructions) for dump in callgrind.read_dumps(folder, in_order=True)]
    empty = [instructions for label, instructions in dumps if label == f"R|{EMPTY}"]
    counted = [(label, instructions) for label, instructions in dumps if not label.endswith(f"|{EMPTY}")]
    return steps(counted, empty[0] if empty else 0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="openai-chat->anthropic")
    parser.add_argument("--shape", default="none", help="a feature shape's name (bench/feature_shapes.py)")
    parser.add_argument("--held-out", default=None, help="a held-out session's kind (bench/held_out.py) instead")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--warm", type=int, default=2, help="conversions before the counted one")
    parser.add_argument("--steady", action="store_true", help="the counted body converted once before it too")
    parser.add_argument(
        "--at", nargs="+", default=None, help="module:function or module:Class.method (default: the pair's)"
    )
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        return child(*arguments.child)
    from bench import warm_up_split

    source, target = arguments.pair.split("->")
    bodies = warm_up_split._bodies(
        source, target, arguments.shape, arguments.steps, warm=arguments.warm, held=arguments.held_out
    )
    if arguments.steady:
        bodies.insert(-1, bodies[-1])
    shape = arguments.held_out or arguments.shape
    state = ", steady" if arguments.steady else ""
    print(f"| {arguments.pair}, {shape}, {arguments.steps} steps, after {arguments.warm}{state} | calls | k | own, k |")
    print("| --- | --- | --- | --- |")
    at = arguments.at or list(PAIR_STEPS.get(arguments.pair, STEPS))
    for step in count(source, target, bodies, at):
        print(f"| {step.name} | {step.calls} | {step.inclusive / 1000:.1f} | {step.own / 1000:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
