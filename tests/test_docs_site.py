"""The docs site builds with warnings as errors (a broken link or anchor, a reference or a
docstring mkdocstrings cannot render), and a reader can use it: headless Chromium opens the
built pages, follows the navigation and searches (``js/site-smoke.mjs``), keeping screenshots
in ``test-output/docs-site/`` for a person to look at.

The browser is the project's own: the headless Chromium inside the ``@sparticuz/chromium`` npm
package, pinned by ``js/package-lock.json`` and unpacked by ``js/browser.mjs``, so the test runs
on a fresh clone (no system browser, nothing fetched but the npm packages)."""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from js_packages import JS, node_with_packages

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "test-output" / "docs-site"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    return folder


def test_the_site_builds_strict_with_every_page_and_the_reference(site: Path) -> None:
    for page in ("getting-started", "schema", "converting", "streams", "gateway", "datasets", "performance"):
        assert (site / page / "index.html").is_file(), page
    reference = (site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="chatcodec.convert_request"' in reference  # the public path, not chatcodec._api's
    assert 'id="chatcodec.register_codec"' in reference
    assert 'id="chatcodec._' not in reference
    rules = (site / "reference" / "rules" / "index.html").read_text(encoding="utf-8")
    assert "sampling_removed" in rules


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *arguments: object) -> None:
        """No line per request on standard error."""


@pytest.fixture
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _pinned_chromium_major() -> str:
    """Chromium's major version as js/package-lock.json pins it (@sparticuz/chromium's major)."""
    lock = json.loads((JS / "package-lock.json").read_text(encoding="utf-8"))
    version: str = lock["packages"]["node_modules/@sparticuz/chromium"]["version"]
    return version.split(".", maxsplit=1)[0]


def test_navigation_and_search_work_in_the_pinned_browser(served: str) -> None:
    node = node_with_packages()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    smoke = subprocess.run(
        [node, "site-smoke.mjs", served, str(SCREENSHOTS)],
        cwd=JS,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr
    result = json.loads(smoke.stdout.strip().splitlines()[-1])
    browser = Path(result["browser"]["executablePath"])
    assert browser.is_relative_to(JS / "node_modules" / ".cache"), browser  # not a system browser
    assert result["browser"]["version"].split(".")[0] == _pinned_chromium_major(), result["browser"]
    assert result["title"].startswith("chatcodec")
    assert {"Getting started", "The gateway", "API"} <= set(result["navigation"])
    assert result["clicked"]["url"].endswith("/getting-started/")
    assert result["clicked"]["heading"].startswith("Getting started")
    assert result["search"], "the search found nothing for convert_request"
    assert (SCREENSHOTS / "home.png").stat().st_size > 10_000
    assert (SCREENSHOTS / "search.png").stat().st_size > 10_000
