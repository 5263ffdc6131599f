"""The import layering law, read with ``ast`` from the source.

chatcodec is drawn in seven layers, lowest first::

    vocabulary -> core validation -> kit -> providers -> readers -> API -> CLI

A module may import its own layer and the layers before it, never a later one; and no
provider imports another provider (each ``_providers/<name>/`` folder is sealed: providers
meet only through the kit and the registry). :data:`PLACES` puts every module in a layer,
one line per group of modules, kept in ``tools/import_graph.py`` (the one graph and
layer table, which ``python tools/import_graph.py`` reports from); a new module matching
no line fails :func:`test_every_module_has_a_layer` until it is placed.

Every import counts: at the top of a module, inside a function (a lazy import is still a
dependency, taken on first use), and under ``if TYPE_CHECKING:`` (a type names a module
the reader has to know; the ones there today point down or sideways, so no exception is
needed). An import of a package's ``__init__`` is an import of that package's module.
No import circle holds more than three modules (:data:`LARGEST_CIRCLE`), every kind of
import counted. What the AST does not see: the registry imports codecs by name
(``importlib``), which is the one door from the readers and the API down to the providers.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import chatcodec

SOURCE = Path(chatcodec.__file__).parent
"""The package under test (the worktree's ``src/chatcodec`` when ``src`` comes first on the path)."""


def _load_tool() -> ModuleType:
    """``tools/import_graph.py``, the one graph implementation and the one layer table
    (:data:`PLACES`): the tool's counts and this law read the same table."""
    path = Path(__file__).resolve().parents[1] / "tools" / "import_graph.py"
    spec = importlib.util.spec_from_file_location("chatcodec_import_graph", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


graph = _load_tool()
layer_of = graph.layer_of
provider_of = graph.provider_of


def upward_imports(package: Path) -> list[tuple[str, str]]:
    """Every ``(importer, imported)`` pair, by path, where the imported module sits in a
    later layer or in another provider's folder (every kind of import counts)."""
    paths = graph.module_paths(package.parent)
    edges = graph.imports(graph.module_names(package.parent))
    found = {(paths[edge.source], paths[edge.target]) for edge in graph.upward(edges, paths)}
    found |= {(paths[edge.source], paths[edge.target]) for edge in graph.across_providers(edges, paths)}
    return sorted(found)


def cycles_spanning_layers(package: Path) -> list[list[str]]:
    """The import circles (every kind of import) whose modules sit in more than one layer
    or provider folder, by path."""
    modules = graph.module_names(package.parent)
    paths = graph.module_paths(package.parent)
    components = graph.spanning_layers(graph.cycles(modules, graph.imports(modules)), paths)
    return [sorted(paths[name] for name in component) for component in components]


def large_circles(package: Path) -> list[list[str]]:
    """The import circles (every kind of import) of more than ``LARGEST_CIRCLE`` modules, by path."""
    modules = graph.module_names(package.parent)
    paths = graph.module_paths(package.parent)
    return [
        sorted(paths[name] for name in found)
        for found in graph.too_large(graph.cycles(modules, graph.imports(modules)))
    ]


# --- the law ---------------------------------------------------------------------------


def test_every_module_has_a_layer() -> None:
    unplaced = graph.unplaced(graph.module_paths(SOURCE.parent))
    assert not unplaced, f"modules in no layer (add them to PLACES): {unplaced}"


def test_no_import_goes_upward_and_no_provider_imports_another() -> None:
    found = [
        f"{path} ({layer_of(path)}) imports {target} ({layer_of(target)})" for path, target in upward_imports(SOURCE)
    ]
    assert not found, "\n".join(found)


def test_no_import_circle_spans_layers() -> None:
    assert cycles_spanning_layers(SOURCE) == []


def test_no_import_circle_holds_more_than_three_modules() -> None:
    """A circle of the contract, the kit and the registry (14 modules, through the codec
    protocols the registry held) and one of the eight laws modules under ``testing/`` were
    untangled in issue 78; imports in functions and under ``TYPE_CHECKING`` count."""
    assert graph.LARGEST_CIRCLE == 3
    assert large_circles(SOURCE) == []


def test_the_shared_packages_under_providers_are_no_provider_folder() -> None:
    """The contract, the kit, the families and the history rules sit in the kit layer and
    belong to no provider, so every folder may import them; a folder's modules are its own."""
    assert layer_of("_providers/kit/__init__.py") == layer_of("_providers/kit/bags.py") == "kit"
    assert layer_of("_providers/contract/context.py") == layer_of("_providers/families/claude/wire_rules.py") == "kit"
    assert layer_of("_providers/history/turns.py") == "kit"
    assert layer_of("_model/messages.py") == layer_of("_model/canonical_types.py") == "vocabulary"
    assert layer_of("_providers/gemini/rules.py") == "providers"
    assert layer_of("serve/__init__.py") == layer_of("serve/_app.py") == "CLI"
    for shared in ("kit/bags.py", "contract/roles.py", "families/openai/model_rules.py", "history/turns.py"):
        assert provider_of(f"_providers/{shared}") is None
    assert provider_of("_providers/gemini/rules.py") == "gemini"


def test_no_flat_module_under_providers() -> None:
    """Every module under ``_providers/`` lives in a package that says its concern (the
    contract, the kit, a family, the history rules or a provider folder)."""
    assert sorted(path.name for path in (SOURCE / "_providers").glob("*.py")) == ["__init__.py"]


def test_the_law_sees_an_upward_import(tmp_path: Path) -> None:
    """The helpers find what they are meant to: a kit module importing a dialect reader,
    a provider importing another (by an import, or by a lazy role's dotted name), and the
    circle the two close."""
    package = tmp_path / "chatcodec"
    (package / "_providers" / "openai_chat").mkdir(parents=True)
    (package / "_providers" / "anthropic").mkdir()
    (package / "_providers" / "kit").mkdir()
    (package / "_dialects").mkdir()
    files = {
        "__init__.py": "",
        "_dialects/__init__.py": "",
        "_dialects/reader.py": "from chatcodec._providers.openai_chat import parts\n",
        "_providers/__init__.py": "",
        "_providers/kit/__init__.py": "",
        "_providers/kit/tool_names.py": "def f():\n    from chatcodec._dialects import reader\n",
        "_providers/openai_chat/__init__.py": "",
        "_providers/openai_chat/parts.py": "from chatcodec._providers.kit import tool_names\n",
        "_providers/anthropic/__init__.py": "",
        "_providers/anthropic/parts.py": "from ..openai_chat.parts import x\n",
        "_providers/anthropic/codec.py": 'CODEC = ProviderCodec(edge="chatcodec._providers.openai_chat.parts")\n',
        "_providers/anthropic/markers.py": 'ROLES = {"tools": "chatcodec._providers.openai_chat.tools:TOOLS"}\n',
        "_providers/openai_chat/tools.py": "",
    }
    for path, text in files.items():
        (package / path).write_text(text)
    assert upward_imports(package) == [
        ("_providers/anthropic/codec.py", "_providers/openai_chat/parts.py"),
        ("_providers/anthropic/markers.py", "_providers/openai_chat/tools.py"),
        ("_providers/anthropic/parts.py", "_providers/openai_chat/parts.py"),
        ("_providers/kit/tool_names.py", "_dialects/reader.py"),
    ]
    circle = ["_dialects/reader.py", "_providers/kit/tool_names.py", "_providers/openai_chat/parts.py"]
    assert cycles_spanning_layers(package) == [circle]
    assert large_circles(package) == []  # three modules: a knot the size law lets pass
    (package / "_dialects/reader.py").write_text("from chatcodec._dialects import base\n")
    (package / "_dialects/base.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from chatcodec._providers.openai_chat import parts\n"
    )
    assert large_circles(package) == [["_dialects/base.py", *circle]]  # a fourth, by a TYPE_CHECKING import


# --- what the law buys: canonical validation loads no codec ------------------------------

_PROBE = textwrap.dedent(
    """
    import sys
    import chatcodec
    from chatcodec import ChatRequest, UserMessage

    chatcodec.validate_messages([{"role": "user", "content": "hi"}])
    chatcodec.validate_message({"role": "assistant", "content": [{"type": "text", "text": "hello"}]})
    chatcodec.validate_model(ChatRequest, {"messages": [{"role": "system", "content": "be brief"}]})
    UserMessage.model_validate({"role": "user", "content": "hi"})
    print(sorted(name for name in sys.modules if name.startswith("chatcodec._providers")))
    chatcodec.validate_messages([{"role": "assistant", "content": "x", "reasoning_content": "because"}])
    print(sorted(name for name in sys.modules if name.startswith("chatcodec._providers.openai_chat")))
    chatcodec.validate_messages([{"role": "assistant", "content": "x", "reasoning_details": [{"text": "because"}]}])
    print(sorted(name for name in sys.modules if name.startswith("chatcodec._providers.openai_chat.assistant")))
    """
)


def test_validating_canonical_messages_loads_no_provider_module() -> None:
    """In a fresh interpreter, ``import chatcodec`` and validating
    canonical data import nothing under ``chatcodec._providers``; a plain agent turn's
    reasoning string is read by the openai-chat folder's rule alone (its ``plain_parts``, no
    codec built), and a dialect the codec reads (OpenRouter's ``reasoning_details``) loads the
    codec, on first use."""
    source = str(SOURCE.parent)
    result = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {source!r})\n{_PROBE}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    before, plain_turn, after = result.stdout.splitlines()
    assert before == "[]"
    assert plain_turn == str(
        [f"chatcodec._providers.openai_chat{module}" for module in ("", ".markers", ".plain_parts")]
    )
    assert after == "['chatcodec._providers.openai_chat.assistant']"


_CODEC_PROBE = textwrap.dedent(
    """
    import sys
    from chatcodec._registry import PROVIDER_NAMES, get_codec

    for name in PROVIDER_NAMES:
        codec = get_codec(name)
        for role in ("_requests", "_responses", "finish_reasons", "usage", "messages", "parts", "tools", "settings"):
            getattr(codec, role)  # a built-in's roles are imported when first read
        codec.rules
    print(" ".join(sorted(name for name in sys.modules if name.startswith("chatcodec"))))
    """
)


def test_loading_every_codec_loads_no_reader() -> None:
    """A codec sits below the readers, so loading one imports no module
    of a later layer (``anthropic/__init__.py`` once imported its helpers, and with them
    ``_validation.py`` and the dialect readers, whenever its codec loaded). Each role is read,
    as a built-in codec imports a role's module when it is first read. A package's
    ``__init__`` is imported on the way to its modules, so those are left out."""
    source = str(SOURCE.parent)
    result = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {source!r})\n{_CODEC_PROBE}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    paths = graph.module_paths(SOURCE.parent)
    lower = graph.LAYER_NAMES[: graph.LAYER_NAMES.index("providers") + 1]
    loaded = [name for name in result.stdout.split() if name in paths and not paths[name].endswith("__init__.py")]
    assert "chatcodec._providers.anthropic.request" in loaded
    assert [name for name in loaded if layer_of(paths[name]) not in lower] == []


# --- the walk most users call: convert_request, and where it climbs back --------------


def test_a_call_into_a_module_that_imports_its_caller_climbs_back() -> None:
    edges = [graph.Import("a", "b", "top level", 1), graph.Import("c", "a", "TYPE_CHECKING", 2)]
    assert graph.climbs_back([("a", "b"), ("a", "c"), ("b", "c")], edges) == [("a", "c"), ("b", "c")]


def test_the_convert_request_walk_climbs_back_three_times_at_most() -> None:
    """``python tools/import_graph.py --walk``, in a fresh interpreter: the walk of
    ``convert_request`` (openai-chat -> anthropic) over the OpenAI Chat request fixtures climbed
    back 8 times at 01101256 (through the contract's circle with the registry, issue 78) and 3
    times after: the contract calling a folder's encode context and rule functions, which
    import it, and ``target_rules`` calling into ``context`` (a pair that names each other)."""
    result = subprocess.run(
        [sys.executable, str(Path(graph.__file__)), str(SOURCE.parent), "--walk"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    summary = result.stdout.splitlines()[0]
    assert int(summary.rsplit(", ", 1)[1].split()[0]) <= 3, result.stdout


# --- the training room, its row dialects and the gateway (issue 108) ---------------------


def _edges_between(source: str, target: str) -> list[str]:
    """The imports (every kind) from a module under the folder ``source`` into one under ``target``."""
    paths = graph.module_paths(SOURCE.parent)
    return sorted(
        f"{paths[edge.source]}:{edge.line} -> {paths[edge.target]} ({edge.kind})"
        for edge in graph.imports(graph.module_names(SOURCE.parent))
        if paths[edge.source].startswith(source) and paths[edge.target].startswith(target)
    )


def test_the_row_dialects_sit_below_both_rooms_that_read_them() -> None:
    """The rows datasets keep conversations in (ShareGPT, alpaca, rollout and trajectory
    rows...) are read by the batch route and the training room alike, from a room below both:
    the training room reaches nothing of ``batch/`` (it climbed there for every row it read),
    and the row dialects reach neither room."""
    assert layer_of("_row_dialects/sharegpt.py") == "readers"
    assert layer_of("batch/_convert.py") == layer_of("_training/episodes.py") == "API"
    for room in ("batch/", "cli/", "serve/", "datasets/"):
        assert _edges_between("_training/", room) == []
    for room in ("batch/", "_training/"):
        assert _edges_between("_row_dialects/", room) == []
    assert _edges_between("_training/", "_row_dialects/")  # the room reads rows there


def test_the_gateway_reaches_the_training_room_through_one_module() -> None:
    """``serve/`` imports the training room's ``gateway`` module only (it imported five of the
    room's private modules and more): the room's other modules may change shape without the
    gateway knowing."""
    reached = {line.split(" -> ")[1].split(" ")[0] for line in _edges_between("serve/", "_training/")}
    assert reached == {"_training/gateway.py"}


_WALK_PROBE = textwrap.dedent(
    """
    import functools, importlib.util, json, sys
    from pathlib import Path

    tool, source, tests = sys.argv[1:4]
    sys.path[:0] = [source, tests]
    spec = importlib.util.spec_from_file_location("chatcodec_import_graph", tool)
    graph = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = graph
    spec.loader.exec_module(graph)

    import chatcodec
    from training.qwen3_tokenizer import qwen3_encoding

    row = {
        "conversations": [
            {"from": "human", "value": "What is 2+2?"},
            {"from": "gpt", "value": "4."},
            {"from": "human", "value": "And 3+3?"},
            {"from": "gpt", "value": "6."},
        ],
        "system": "Answer briefly.",
    }
    render_turns = functools.partial(
        chatcodec.render_turns, row, source="sharegpt", template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore"
    )
    entered, steps = graph.trace(Path(source), [render_turns])
    print(json.dumps({"entered": entered, "steps": steps}))
    """
)


def test_a_render_turns_walk_from_a_sharegpt_row_climbs_no_floor() -> None:
    """``render_turns`` of a ShareGPT row, traced in a fresh interpreter: the row is read in
    ``_row_dialects/`` and no call enters ``batch/`` (or the command line and the gateway above
    it), and no call from the row dialects goes back into the training room."""
    tests = Path(__file__).resolve().parent
    result = subprocess.run(
        [sys.executable, "-c", _WALK_PROBE, str(Path(graph.__file__)), str(SOURCE.parent), str(tests)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    walked = json.loads(result.stdout)
    entered, steps = walked["entered"], [tuple(step) for step in walked["steps"]]
    assert "chatcodec._row_dialects.sharegpt" in entered
    assert "chatcodec._training.episodes" in entered
    above = ("chatcodec.batch", "chatcodec.cli", "chatcodec.serve", "chatcodec.datasets")
    assert [name for name in entered if name.startswith(above)] == []
    back = [
        (caller, callee)
        for caller, callee in steps
        if caller.startswith("chatcodec._row_dialects") and callee.startswith("chatcodec._training")
    ]
    assert back == []
    paths = graph.module_paths(SOURCE.parent)
    room = [step for step in steps if step[0].startswith(("chatcodec._training", "chatcodec._row_dialects"))]
    climbs = [
        (caller, callee)
        for caller, callee in room
        if graph.LAYER_NAMES.index(layer_of(paths[callee])) > graph.LAYER_NAMES.index(layer_of(paths[caller]))
    ]
    assert climbs == []
