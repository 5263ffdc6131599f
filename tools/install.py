"""Install into this interpreter's venv with uv when it is there, else with pip, from the same settings.

``make test``'s first run spends most of its time installing the dev environment (2 GB: pyspark,
ray, pyarrow, polars...). uv (Astral's installer, a Rust binary on PyPI) resolves and installs the
same pins several times faster (docs/getting-started.md has the measure), but it does not read
pip's configuration: a machine whose pip is set to a local index, extra indexes, a wheel folder
or a constraints file (a cap that keeps torch a CPU wheel) would have uv install something else.
So this tool reads what pip would use (``pip config list``: the config files and the ``PIP_*``
environment, in pip's own precedence) and hands the same settings to ``uv pip install``. When uv
cannot be imported (the Makefile's ``pip install uv`` failed: no network to PyPI, an old
platform) the same arguments go to pip, which reads its settings itself::

    python tools/install.py -e ".[dev]"
    python tools/install.py --no-deps -r tests/requirements-no-deps.txt
    python tools/install.py --pip -e ".[dev]"      # pip, even with uv at hand

Only the settings below are carried; any other pip setting makes the tool use pip, so nothing
pip was told is silently dropped.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

CARRIED = {
    "index-url": "--index-url",
    "extra-index-url": "--extra-index-url",
    "find-links": "--find-links",
    "constraint": "--constraint",
    "trusted-host": "--allow-insecure-host",
}
"""pip's setting -> uv's option of the same meaning (each value may list several, space-separated)."""

HARMLESS = frozenset({"cert", "default-timeout", "disable-pip-version-check", "timeout", "quiet", "progress-bar"})
"""pip settings that change how pip talks, not what it installs (``cert`` is carried by environment)."""

_SECTIONS = (":env:", "install", "global")
"""Where ``pip config list`` puts a setting, highest precedence first (pip's own order)."""


def pip_settings(listed: str) -> dict[str, str]:
    """The settings pip's install command uses, from ``pip config list``'s ``section.key='value'`` lines."""
    found: dict[str, dict[str, str]] = {}
    for line in listed.splitlines():
        name, equals, value = line.partition("=")
        section, dot, key = name.rpartition(".")
        if equals and dot and section in _SECTIONS:
            found.setdefault(key.replace("_", "-"), {})[section] = value.strip().strip("'\"")
    return {key: next(by[section] for section in _SECTIONS if section in by) for key, by in found.items()}


def uv_command(settings: dict[str, str], arguments: Sequence[str]) -> list[str] | None:
    """``uv pip install`` with pip's settings, or ``None`` when one of them has no uv equivalent here."""
    if set(settings) - set(CARRIED) - HARMLESS:
        return None
    options: list[str] = []
    for key, option in CARRIED.items():
        for value in settings.get(key, "").split():
            options += [option, value]
    # pip takes the best version across every index it is given; uv's default stops at the first
    # index that has the name, which would let a local mirror's older copy win
    options += ["--index-strategy", "unsafe-best-match"]
    return [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--python", sys.executable, *options, *arguments]


def uv_environment(settings: dict[str, str]) -> dict[str, str]:
    """The environment uv reads pip's certificate bundle and timeout from."""
    environment = dict(os.environ)
    if "cert" in settings:
        environment.setdefault("SSL_CERT_FILE", settings["cert"])
    if "default-timeout" in settings:
        environment.setdefault("UV_HTTP_TIMEOUT", settings["default-timeout"])
    return environment


def _has_uv() -> bool:
    try:
        import uv  # noqa: F401 - the distribution's module, whose binary ``python -m uv`` runs
    except ImportError:
        return False
    return True


def main(arguments: list[str]) -> int:
    pip = [sys.executable, "-m", "pip", "install", "--quiet"]
    if arguments[:1] == ["--pip"] or not _has_uv():
        return subprocess.call([*pip, *arguments[arguments[:1] == ["--pip"] :]])
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, check=True
    ).stdout
    settings = pip_settings(listed)
    command = uv_command(settings, arguments)
    if command is None:
        print(f"install: pip settings uv is not given here ({sorted(settings)}): installing with pip", file=sys.stderr)
        return subprocess.call([*pip, *arguments])
    status = subprocess.call(command, env=uv_environment(settings))
    if status != 0:  # uv's resolver or a download failed where pip's may not: the set-up goes on with pip
        print(f"install: uv exited {status}: installing with pip", file=sys.stderr)
        return subprocess.call([*pip, *arguments])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
