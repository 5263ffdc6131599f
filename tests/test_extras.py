"""A missing optional dependency is one line naming what to install, for how chatcodec was
installed (issue 62): a checkout gets its editable install of the extra, any other copy the
extra's own packages. Parquet without pyarrow was a traceback and "internal error; please
report it"; the hints said ``pip install 'chatcodec[arrow]'``, which the index cannot serve."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from chatcodec import _extras
from chatcodec.serve._response_store_redis import RedisBackend

ROOT = Path(__file__).resolve().parents[1]

BLOCKING = """
import sys

class Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Blocked())
from chatcodec.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""A run of the command line in which ``blocked`` cannot be imported, as where it is not installed."""


def _run_without(blocked: set[str], *arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKING.format(blocked=blocked), *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )


def test_the_extras_named_are_those_of_pyproject() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional = declared["optional-dependencies"]
    assert {extra: tuple(optional[extra]) for extra in _extras.EXTRAS} == dict(_extras.EXTRAS)


def test_every_install_hint_in_src_goes_through_the_one_helper() -> None:
    """No module but ``_extras.py`` spells a ``pip install`` (or an extra in brackets)."""
    spelled = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "src" / "chatcodec").rglob("*.py"))
        if path.name != "_extras.py"
        and ("pip install" in (text := path.read_text(encoding="utf-8")) or "chatcodec[" in text)
    ]
    assert spelled == []


def test_a_checkout_is_told_its_editable_install_and_a_wheel_the_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _extras.checkout() == ROOT
    assert _extras.install_hint("arrow") == f"pip install -e '.[arrow]' (in the chatcodec checkout {ROOT})"
    monkeypatch.setattr(_extras, "checkout", lambda: None)
    assert _extras.install_hint("arrow") == "pip install 'pyarrow>=17' (chatcodec's arrow extra)"
    error = _extras.missing_extra("Parquet", "serve", "uvicorn")
    assert isinstance(error, ModuleNotFoundError)
    assert error.name == "uvicorn"
    assert str(error) == (
        "Parquet needs the serve extra (uvicorn is not installed): "
        "pip install 'starlette>=0.40' 'uvicorn>=0.30' 'httpx>=0.27' (chatcodec's serve extra)"
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("no-pyarrow")
    (folder / "requests.jsonl").write_text(
        '{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}\n', encoding="utf-8"
    )
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(
        pa.table({"request": [(folder / "requests.jsonl").read_text(encoding="utf-8")]}), folder / "in.parquet"
    )
    return folder


@pytest.mark.parametrize(
    "arguments",
    [
        ("convert", "requests.jsonl", "--from", "openai-chat", "--to", "anthropic", "--out", "out.parquet"),
        ("convert", "in.parquet", "--from", "openai-chat", "--to", "anthropic"),
        ("validate", "in.parquet"),
    ],
    ids=["write", "read", "validate"],
)
def test_parquet_without_pyarrow_is_one_line_naming_the_extra(files: Path, arguments: tuple[str, ...]) -> None:
    ran = _run_without({"pyarrow"}, *arguments, cwd=files)
    assert ran.returncode == 69, ran.stderr  # EX_UNAVAILABLE, as every command's missing extra (issue 77)
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1, ran.stderr
    assert "needs the arrow extra (pyarrow is not installed): pip install -e '.[arrow]'" in lines[0]
    assert "Traceback" not in ran.stderr
    assert "internal error" not in ran.stderr
    assert not (files / "out.parquet").exists()


def test_serve_without_its_extra_names_it(tmp_path: Path) -> None:
    ran = _run_without({"uvicorn", "starlette"}, "serve", "--api", "openai-chat", cwd=tmp_path)
    assert ran.returncode == 69, ran.stderr  # EX_UNAVAILABLE, as every command's missing extra (issue 77)
    assert ran.stderr.strip().splitlines() == [
        f"chatcodec serve needs the serve extra (uvicorn is not installed): "
        f"pip install -e '.[serve]' (in the chatcodec checkout {ROOT})"
    ]


def test_a_redis_store_without_redis_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name == "redis" or name.startswith("redis.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "redis", None)  # what an environment without it gives
    with pytest.raises(ValueError, match=r"^a Redis store needs the redis extra \(redis is not installed\): pip"):
        RedisBackend("redis://localhost:6379/0", 10, 1000)
