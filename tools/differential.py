"""The differential check: every output, loss and error of two chatcodec trees, compared.

A change meant to make the one path faster (or to move code) must not change what any
conversion writes, reports or refuses. This tool converts a fixed corpus with one tree's
``src`` and writes one line per conversion (the output as JSON, its losses, or the error's
type and text); run it on the tree before and after, and compare::

    git worktree add /tmp/before main
    python tools/differential.py /tmp/before  > /tmp/before.txt
    python tools/differential.py .            > /tmp/after.txt
    python tools/differential.py --compare /tmp/before.txt /tmp/after.txt

``--canonical`` digests a tree with its direct paths off (``chatcodec._direct``), so a digest
of the same tree with them on is compared with their oracle::

    python tools/differential.py --canonical . > /tmp/canonical.txt
    python tools/differential.py . > /tmp/direct.txt
    python tools/differential.py --compare /tmp/canonical.txt /tmp/direct.txt

``--compare`` prints each case whose line differs, saying whether its output (or error)
changed or only its losses, and exits 1 when any did. Run both digests with the same
interpreter and packages (the bench's venv has them: ``.venv-bench/bin/python``).

The corpus (this tool's own checkout's, whichever tree is digested): every recorded
request (``tests/fixtures``, which holds every body of the shared corpus) from its format
to every format, read leniently and strictly, given as a dict, as JSON bytes and as JSON
text, and written back to its own format through each other one; the bench's agent
sessions (OpenAI-SDK and Claude sessions of 1, 3 and 12 turns, plain, with each shape
alone, and with all of them) and ``bench/other_shapes.py``'s marked agent session (a cache
marker on the last user message, long results, reasoning, screenshots) of as many turns, and
``bench/feature_shapes.py``'s coding agent with each feature of its wire alone, none and all
(issue 107: litellm's signed ``thinking_blocks``, a marked system part, an image in a tool
result, parallel calls, long and failed results, the SDK's nulls) of 3 and 12 turns, as OpenAI
Chat and as Anthropic, ``bench/held_out.py``'s three held-out agents (Claude Code, an agent on
litellm's SDK, a Claude model through OpenRouter) of as many, and ``bench/variant_shapes.py``'s
plain sessions of each direct pair with one field or spelling more (a cache key, a tool's marker,
calls with their index, Claude's ``caller``, the ``phase`` of an easy message) of as many; the
10-step acceptance sessions of ``tests/fixtures/perf-sessions``
(nested tool arguments, which the bench's own sessions lack); the coding agent's OpenAI Chat
session with its tools carrying litellm's cache marker (:func:`_marked_tools`: on the last, the
first or every tool, with a ``ttl``, beside a strict tool, a marked system part and a marked
message, more than Anthropic's four in all); every recorded response to every
format, lenient and strict; every recorded stream to every format. Clock fields and
generated ids are blanked, as they differ from run to run.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

TARGETS = ("openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse", "bedrock-nova", "ollama")
"""Every format a conversion is written to (Nova too, since its turns and streams run on
Converse's code: a change there must show in Nova's outputs as well)."""
_CLOCKS = re.compile(r'(\\?")(created|created_at|completed_at)\\?": ?\d+')
_IDS = re.compile(r"(msg|chatcmpl|resp|call|toolu|rs|fc)_?[A-Za-z0-9]{16,}")


def _outcome(convert: Callable[[list[Any]], object]) -> str:
    losses: list[Any] = []
    try:
        output = convert(losses)
    except Exception as error:  # every error is part of the digest, whatever its type
        return f"ERR {type(error).__name__}: {str(error)[:2000]}"
    return json.dumps(output, default=repr) + " | " + json.dumps([repr(loss) for loss in losses])


CORPUS = Path(__file__).resolve().parents[1]
"""The checkout whose fixtures and bench sessions make the corpus (this tool's own), so two
trees are digested over the same cases."""


FIXTURES = CORPUS / "tests" / "fixtures"
"""The recorded bodies (each folder's provenance beside it) and the acceptance sessions' copy."""


def _requests() -> Iterator[tuple[str, str, dict[str, Any]]]:
    from bench import agent_workloads, feature_shapes, held_out, other_shapes, perf_sessions, workloads

    for path in sorted(FIXTURES.glob("*/request/*.json")):
        body = json.loads(path.read_text())
        if isinstance(body, dict):
            yield str(path.relative_to(FIXTURES)), path.parts[-3], body
    openai_shapes = agent_workloads.OPENAI_SHAPES
    claude_shapes = agent_workloads.CLAUDE_SHAPES
    claude_full = tuple(shape for shape in claude_shapes if shape in agent_workloads.CLAUDE_FULL)
    for turns in (1, 3, 12):
        for shapes in [(), *((shape,) for shape in openai_shapes), openai_shapes]:
            yield f"openai{turns}{shapes}", "openai-chat", agent_workloads.openai_session(turns, shapes, seed=turns)
        for shapes in [(), *((shape,) for shape in claude_shapes), claude_full]:
            yield f"claude{turns}{shapes}", "anthropic", agent_workloads.claude_session(turns, shapes, seed=turns)
        yield f"workload-openai{turns}", "openai-chat", workloads.openai_session(turns)
        yield f"workload-anthropic{turns}", "anthropic", workloads.anthropic_session(turns)
        for seed in (2, 3):  # the marker on the last user message, then on its text part (12 steps: the reverse)
            yield f"marked-agent{turns}-{seed}", "openai-chat", other_shapes.marked_agent_session(turns, seed)
        for shape, features in feature_shapes.combinations() if turns > 1 else ():  # each wire feature on and off
            for source, target in (("openai-chat", "anthropic"), ("anthropic", "openai-chat")):
                body = feature_shapes.body(source, target, turns, features, seed=turns)
                yield f"features{turns}-{shape}", source, body
        for kind, build in held_out.BUILDERS.items() if turns > 1 else ():  # the held-out agents' own shapes
            yield f"held-out{turns}-{kind}", held_out.PAIRS[kind][0][0], build(turns, seed=turns)
        yield from _variants(turns) if turns > 1 else ()
    for session in perf_sessions.sessions([10], FIXTURES / "perf-sessions"):
        yield f"perf-{session.source}-{session.target}-{session.shape}", session.source, session.body
    yield from _marked_tools()
    yield from _passed_fields()


_PASSED_FIELDS: dict[str, dict[str, Any]] = {
    "thinking disabled": {"thinking": {"type": "disabled"}},
    "thinking adaptive": {"thinking": {"type": "adaptive"}},
    "thinking of another shape": {"thinking": {"type": "enabled", "budget_tokens": 9, "display": "x"}},
    "thinking beside reasoning_effort": {"thinking": {"type": "adaptive"}, "reasoning_effort": "low"},
    "thinking beside OpenRouter's reasoning": {"thinking": {"type": "adaptive"}, "reasoning": {"effort": "low"}},
    "top_k of -1": {"top_k": -1},
    "a cache key of a number": {"prompt_cache_key": 7},
    "all four": {"top_k": 5, "thinking": {"type": "adaptive"}, "prompt_cache_key": "k", "safety_identifier": "s"},
}
"""Request fields real OpenAI Chat clients send beside the bench's variants (vLLM's ``top_k``,
litellm's ``thinking``, OpenAI's cache key and safety identifier): each shape the reader reads or
keeps as it came."""


def _passed_fields() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The coding agent's OpenAI Chat session with each of :data:`_PASSED_FIELDS`, and its
    Responses session with both keys."""
    from bench import feature_shapes

    for name, fields in _PASSED_FIELDS.items():
        body = copy.deepcopy(feature_shapes.body("openai-chat", "anthropic", 3, (), seed=3))
        yield f"passed-{name}", "openai-chat", {**body, **copy.deepcopy(fields)}
    body = copy.deepcopy(feature_shapes.body("openai-responses", "openai-chat", 3, (), seed=3))
    yield "passed-responses-keys", "openai-responses", {**body, "prompt_cache_key": "k", "safety_identifier": "s"}


_TOOL_MARKERS: dict[str, tuple[tuple[int, ...], dict[str, str]]] = {
    "last": ((-1,), {"type": "ephemeral"}),
    "first": ((0,), {"type": "ephemeral"}),
    "every 1h": ((0, 1, 2, 3, 4), {"type": "ephemeral", "ttl": "1h"}),
    "last 5m": ((-1,), {"type": "ephemeral", "ttl": "5m"}),
}
"""Which tools carry litellm's cache marker (``cache_control`` beside ``function``), and the marker."""


def _marked_tools() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The coding agent's OpenAI Chat session (``bench/feature_shapes.py``) with its tools marked for
    Anthropic's prompt cache (:data:`_TOOL_MARKERS`), alone and beside a marked system part and a
    marked last message; each also with its first tool strict."""
    from bench import feature_shapes

    for turns in (3, 12):
        for features in ((), (feature_shapes.SYSTEM_MARKER,)):
            for marked, (places, marker) in _TOOL_MARKERS.items():
                for strict in (False, True):
                    body = copy.deepcopy(feature_shapes.body("openai-chat", "anthropic", turns, features, seed=turns))
                    tools = body["tools"]
                    for place in places:
                        if -len(tools) <= place < len(tools):
                            tools[place]["cache_control"] = dict(marker)
                    if strict:
                        tools[0]["function"]["strict"] = True
                    if features:  # a marked last message too: more breakpoints than Anthropic takes
                        body["messages"][-1]["cache_control"] = {"type": "ephemeral"}
                    yield f"marked-tools{turns}-{marked}-strict={strict}{features}", "openai-chat", body


def _variants(turns: int) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Each direct pair's plain session with one field or spelling more (``bench/variant_shapes.py``),
    a source's body once (it is converted to every format)."""
    from bench import variant_shapes

    seen: set[tuple[str, str]] = set()
    for source, _, name, body in variant_shapes.sessions(turns):
        if (source, name) not in seen:
            seen.add((source, name))
            yield f"variant{turns}-{source}-{name}", source, body


def _request_lines(chatcodec: Any) -> Iterator[str]:
    forms: dict[str, Callable[[dict[str, Any]], object]] = {
        "dict": copy.deepcopy,
        "bytes": lambda body: json.dumps(body).encode(),
        "text": lambda body: json.dumps(body, ensure_ascii=False),
    }
    for name, source, body in _requests():
        for target in TARGETS:
            for strict in (False, True):
                for form, given in forms.items():
                    convert = partial(_convert_request, chatcodec, given(body), source, target, strict)
                    yield f"request {name} {source}->{target} strict={strict} {form}: {_outcome(convert)}"
            back = partial(_there_and_back, chatcodec, body, source, target)
            yield f"back {name} {source}->{target}->{source}: {_outcome(back)}"


def _convert_request(  # noqa: PLR0917 - bound by partial, the losses list last
    chatcodec: Any, payload: object, source: str, target: str, strict: bool, losses: list[Any]
) -> object:
    return chatcodec.convert_request(
        payload, source=source, target=target, on_loss="ignore", losses=losses, strict=strict
    )


def _there_and_back(chatcodec: Any, body: dict[str, Any], source: str, target: str, losses: list[Any]) -> object:
    there = chatcodec.convert_request(copy.deepcopy(body), source=source, target=target, on_loss="ignore")
    return chatcodec.convert_request(there, source=target, target=source, on_loss="ignore", losses=losses)


def _convert_response(  # noqa: PLR0917 - bound by partial, the losses list last
    chatcodec: Any, body: dict[str, Any], source: str, target: str, strict: bool, losses: list[Any]
) -> object:
    return chatcodec.convert_response(
        copy.deepcopy(body), source=source, target=target, on_loss="ignore", losses=losses, strict=strict
    )


def _convert_stream(convert_stream: Any, raw: bytes, source: str, target: str, losses: list[Any]) -> object:
    del losses  # a stream's losses are warnings: its output is compared
    return [chunk.decode(errors="replace") for chunk in convert_stream([raw], source=source, target=target)]


def _recorded_lines(chatcodec: Any, convert_stream: Any) -> Iterator[str]:
    for path in sorted(FIXTURES.glob("*/response/*.json")):
        source, body = path.parts[-3], json.loads(path.read_text())
        for target in TARGETS:
            for strict in (False, True):
                convert = partial(_convert_response, chatcodec, body, source, target, strict)
                yield f"response {path.relative_to(FIXTURES)} {target} strict={strict}: {_outcome(convert)}"
    for path in sorted(FIXTURES.glob("*/stream/*")):
        source, raw = path.parts[-3], path.read_bytes()
        for target in TARGETS:
            convert = partial(_convert_stream, convert_stream, raw, source, target)
            yield f"stream {path.relative_to(FIXTURES)} {target}: {_outcome(convert)}"


def digest(root: Path, *, canonical: bool = False) -> list[str]:
    """One line per conversion of the corpus, by the chatcodec under ``root/src``
    (``canonical``: by its canonical path alone, its direct paths off: their oracle)."""
    sys.path[:0] = [str(root / "src"), str(CORPUS)]
    import chatcodec
    from chatcodec.streams._convert import convert_stream

    if canonical:
        from chatcodec._direct.table import canonical_only

        with canonical_only():
            lines = [*_request_lines(chatcodec), *_recorded_lines(chatcodec, convert_stream)]
    else:
        lines = [*_request_lines(chatcodec), *_recorded_lines(chatcodec, convert_stream)]
    return [_IDS.sub(r"\1_X", _CLOCKS.sub(r"\2=0", line)) for line in lines]


def compare(before: Path, after: Path) -> int:
    """Print the cases whose lines differ; 1 when any did."""
    old, new = before.read_text().splitlines(), after.read_text().splitlines()
    if len(old) != len(new):
        print(f"the digests hold {len(old)} and {len(new)} cases: made from different corpora")
        return 1
    changed = 0
    for was, now in zip(old, new, strict=True):
        if was == now:
            continue
        changed += 1
        case = was.split(": ", 1)[0]
        what = "losses only" if was.rsplit(" | ", 1)[0] == now.rsplit(" | ", 1)[0] else "output or error"
        print(f"{what}: {case}")
    print(f"{changed} of {len(old)} cases differ")
    return 1 if changed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", type=Path, help="a checkout whose src/ is digested")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="compare two digests")
    parser.add_argument(
        "--canonical", action="store_true", help="digest with the direct paths off (the canonical path, their oracle)"
    )
    arguments = parser.parse_args()
    if arguments.compare:
        return compare(*arguments.compare)
    if arguments.tree is None:
        parser.error("give a tree to digest, or --compare BEFORE AFTER")
    warnings.simplefilter("ignore")
    for line in digest(arguments.tree.resolve(), canonical=arguments.canonical):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
