"""Every code block of the documentation runs as written (``tests/doc_blocks.py`` finds them).

A page runs as a reader pastes it into one session from a checkout's root: its Python
blocks in order in one namespace, its shell blocks with bash (``chatcodec`` from this
environment), its TOML blocks read as ``chatcodec serve --config`` reads them, its SQL with
DuckDB, in a folder of its own that sees the checkout's ``examples/`` and ``tests/``. Nothing
is supplied to a block that the page does not define. A block that cannot run is marked in
its fence with a reason, and those are counted: they stay the exception.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from doc_blocks import ROOT, RUNNABLE, Block, blocks, matches, pages

PAGES = [page for page in pages() if blocks(page)]


def _run_python(block: Block, namespace: dict[str, Any]) -> None:
    printed = io.StringIO()
    with warnings.catch_warnings(record=True), contextlib.redirect_stdout(printed):
        warnings.simplefilter("always")  # a LossWarning is printed in a session, not raised
        exec(compile(block.code, block.where, "exec"), namespace)
    expected = block.expected_output()
    if expected is not None:
        assert matches(expected, printed.getvalue()), f"{block.where} printed:\n{printed.getvalue()}"


def _run_shell(block: Block) -> None:
    environment = dict(os.environ)
    environment.pop("CHATCODEC_HYPOTHESIS_PROFILE", None)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block.code],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{block.where} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"


def _run_toml(block: Block) -> None:
    from chatcodec.serve._config import ServeConfig, read_config_file

    Path("chatcodec.toml").write_text(block.code, encoding="utf-8")
    ServeConfig(**read_config_file("chatcodec.toml"))


def _run_sql(block: Block) -> None:
    import duckdb

    connection = duckdb.connect()
    code = "\n".join(line for line in block.code.splitlines() if not line.strip().startswith("--"))
    for statement in (part.strip() for part in code.split(";")):
        if statement:
            connection.sql(statement).fetchall()


def _node(arguments: list[str]) -> None:
    node = shutil.which("node")
    assert node is not None, "node (20 or later) must be on the PATH for the docs' JavaScript and TypeScript"
    done = subprocess.run([node, *arguments], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"node {' '.join(arguments)}:\n{done.stdout}\n{done.stderr}"


def _run_javascript(block: Block) -> None:
    """Run as an ES module beside js/'s packages (ajv...), from the page's folder."""
    if not Path("node_modules").exists():
        Path("node_modules").symlink_to(ROOT / "js" / "node_modules")
    Path(f"example-{block.line}.mjs").write_text(block.code, encoding="utf-8")
    _node([f"example-{block.line}.mjs"])


def _run_typescript(block: Block) -> None:
    """Compile under ``tsc --strict`` beside the types json-schema-to-typescript generates
    from the schemas (as js/types.mjs writes them for make test), imported as ``./<kind>.js``."""
    folder = Path(f"typescript-{block.line}")
    _node([str(ROOT / "js" / "types.mjs"), str(ROOT / "schemas"), str(folder)])
    (folder / "example.ts").write_text(block.code, encoding="utf-8")
    (folder / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    settings = {"strict": True, "target": "es2022", "module": "nodenext", "noEmit": True, "types": []}
    (folder / "tsconfig.json").write_text(json.dumps({"compilerOptions": settings, "include": ["*.ts"]}))
    _node([str(ROOT / "js" / "node_modules" / "typescript" / "bin" / "tsc"), "-p", str(folder / "tsconfig.json")])


def _run(block: Block, namespace: dict[str, Any]) -> None:
    if block.language == "js":
        _run_javascript(block)
    elif block.language == "ts":
        _run_typescript(block)
    elif block.language == "python":
        _run_python(block, namespace)
    elif block.language == "sh":
        _run_shell(block)
    elif block.language == "toml":
        _run_toml(block)
    else:
        _run_sql(block)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_the_page_runs_as_written(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("examples", "tests", "schemas"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")  # chatcodec here
    namespace: dict[str, Any] = {"__name__": "__doc_example__"}
    for block in blocks(page):
        if block.skip_reason is None:
            _run(block, namespace)


def test_every_code_block_runs_or_says_why_not() -> None:
    everything = [block for page in pages() for block in blocks(page)]
    skipped = [block for block in everything if block.skip_reason is not None]
    unexplained = [block.where for block in skipped if not block.skip_reason.strip()]
    assert unexplained == [], 'a skipped block gives its reason: {test="skip" reason="..."}'
    unrunnable = [block.where for block in everything if block.skip_reason is None and block.language not in RUNNABLE]
    assert unrunnable == [], "the harness cannot run these: mark them skipped with a reason"
    assert len(skipped) * 4 <= len(everything), f"{len(skipped)} of {len(everything)} blocks skipped: the exception"


def test_the_harness_finds_indented_blocks_skips_and_expected_output(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "text\n\n```python\nprint(1 + 1)\n#> 2\n```\n\n- item\n\n  ```sh\n  chatcodec --version\n  ```\n\n"
        '```ts {test="skip" reason="type-checked elsewhere"}\nconst a = 1;\n```\n\n```text\nshown\n```\n',
        encoding="utf-8",
    )
    found = blocks(page) if page.is_relative_to(ROOT) else _blocks_outside_root(page)
    assert [(block.language, block.line, block.skip_reason) for block in found] == [
        ("python", 3, None),
        ("sh", 10, None),
        ("ts", 14, "type-checked elsewhere"),
    ]
    assert found[0].expected_output() == "2"
    assert found[1].code == "chatcodec --version\n"
    assert matches("at $.x: ... [rule: y]", "at $.x: anything here [rule: y]\n")
    assert not matches("2", "3")


def _blocks_outside_root(page: Path) -> list[Block]:
    import doc_blocks

    original = doc_blocks.ROOT
    doc_blocks.ROOT = page.parent
    try:
        return blocks(page)
    finally:
        doc_blocks.ROOT = original
