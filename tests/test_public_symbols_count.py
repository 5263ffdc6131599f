"""``make typecheck``'s count of the public API (``tools/public_symbols.py``, ``pyright
--verifytypes``) holds the Makefile's ``PUBLIC_SYMBOLS`` as the exact count: a count above
the real one would let that many new public names in unseen, so it fails both ways. (The
pyright run itself is ``make typecheck``'s; this checks its verdict without it.)"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("public_symbols", ROOT / "tools" / "public_symbols.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_count_must_be_exact() -> None:
    count_problem = _tool().count_problem
    assert count_problem(374, 374) is None
    over = count_problem(375, 374)
    assert over is not None
    assert "1 over the expected 374" in over
    under = count_problem(370, 374)
    assert under is not None
    assert "lower PUBLIC_SYMBOLS in the Makefile to 370" in under


def test_make_typecheck_holds_the_makefiles_count_as_the_expected_one() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^PUBLIC_SYMBOLS \?= \d+$", makefile, re.M)
    assert "tools/public_symbols.py --expected $(PUBLIC_SYMBOLS)" in makefile
