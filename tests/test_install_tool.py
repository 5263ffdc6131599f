"""``tools/install.py``: uv installs the dev environment with the settings pip would use.

A machine whose pip reads a local index, a wheel folder or a constraints file (here: a cap that
keeps torch the CPU wheel on the disk) must get the same packages from uv; a pip setting uv is
not given makes the tool use pip, so nothing is dropped on the way."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

LISTED = """\
global.cert='/etc/ssl/certs/ca-certificates.crt'
global.constraint='/etc/xdg/pip/constraints.txt'
global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'
global.find-links='/opt/wheels'
:env:.cert='/etc/ssl/certs/ca-certificates.crt'
:env:.default-timeout='180'
:env:.disable-pip-version-check='1'
:env:.find-links='/opt/local-wheels'
"""
"""``pip config list`` on the machine this was written on (with one find-links made to differ)."""


@pytest.fixture(scope="module")
def install() -> ModuleType:
    spec = importlib.util.spec_from_file_location("install_tool", ROOT / "tools" / "install.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pip_s_settings_are_read_in_pip_s_precedence(install: ModuleType) -> None:
    settings = install.pip_settings(LISTED + "install.find-links='/opt/install-wheels'\n")
    assert settings == {
        "cert": "/etc/ssl/certs/ca-certificates.crt",
        "constraint": "/etc/xdg/pip/constraints.txt",
        "extra-index-url": "file:///opt/pypi/simple file:///opt/pypi-more/simple",
        "find-links": "/opt/local-wheels",  # the environment over the install section over global
        "default-timeout": "180",
        "disable-pip-version-check": "1",
    }


def test_uv_gets_the_same_indexes_wheels_and_constraints(install: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    command = install.uv_command(install.pip_settings(LISTED), ["-e", ".[dev]"])
    assert command[:5] == [sys.executable, "-m", "uv", "pip", "install"]
    options = command[command.index(sys.executable, 1) + 1 :]
    assert options == [
        "--extra-index-url",
        "file:///opt/pypi/simple",
        "--extra-index-url",
        "file:///opt/pypi-more/simple",
        "--find-links",
        "/opt/local-wheels",
        "--constraint",
        "/etc/xdg/pip/constraints.txt",
        "--index-strategy",
        "unsafe-best-match",
        "-e",
        ".[dev]",
    ]
    monkeypatch.delenv("UV_HTTP_TIMEOUT", raising=False)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    environment = install.uv_environment(install.pip_settings(LISTED))
    assert environment["UV_HTTP_TIMEOUT"] == "180"
    assert environment["SSL_CERT_FILE"] == "/etc/ssl/certs/ca-certificates.crt"


def test_a_setting_uv_is_not_given_leaves_the_install_to_pip(install: ModuleType) -> None:
    assert install.uv_command(install.pip_settings("global.no-binary=':all:'\n"), ["x"]) is None
    assert install.uv_command({}, ["x"])[-1] == "x"  # nothing set: uv's defaults are pip's (PyPI)


def test_the_makefile_installs_the_dev_tools_through_the_tool() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert '$(BIN)/python tools/install.py -e ".[dev]"' in makefile
    assert "$(BIN)/python tools/install.py --no-deps -r tests/requirements-no-deps.txt" in makefile
    assert 'pip install --quiet "$(UV)" || echo' in makefile  # uv missing: pip does the job
