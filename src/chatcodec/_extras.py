"""The optional dependencies, and the one line that says how to install one that is missing.

chatcodec is installed from a checkout (``pip install -e .``, or ``PYTHONPATH=src``) or
from a wheel built from one; it is not on the package index, so ``pip install
'chatcodec[arrow]'`` fails for everyone it was printed to. A missing extra is named here,
once, for how this copy of chatcodec was installed: in a checkout, the editable install of
the extra from that folder; otherwise the extra's own packages, named with their versions
(which is what the extra would have installed).

:data:`EXTRAS` is ``[project.optional-dependencies]`` of ``pyproject.toml`` for the extras
chatcodec's own code asks for (``tests/test_extras.py`` checks they agree).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

EXTRAS: Mapping[str, tuple[str, ...]] = {
    "arrow": ("pyarrow>=17",),
    "otel": ("opentelemetry-api>=1.30", "opentelemetry-sdk>=1.30"),
    "redis": ("redis>=5.0",),
    "renderers": ("renderers>=0.1.12",),
    "serve": ("starlette>=0.40", "uvicorn>=0.30", "httpx>=0.27"),
    "templates": ("jinja2>=3.1",),
    "testing": ("hypothesis>=6.100",),
    "tokenizers": ("tokenizers>=0.20",),
}
"""Each extra chatcodec's code names, with the requirements ``pyproject.toml`` gives it."""


class MissingExtraError(ModuleNotFoundError):
    """An optional dependency is not installed; the message says what to install.

    A :class:`ModuleNotFoundError` (``name`` is the missing module), so code that catches
    an import error still does; the command line prints its message as one line."""


@lru_cache(maxsize=1)
def checkout() -> Path | None:
    """The checkout this chatcodec runs from (``src/chatcodec`` beside a ``pyproject.toml``
    naming chatcodec: an editable install or ``PYTHONPATH=src``), or None (a wheel's copy
    in ``site-packages``)."""
    root = Path(__file__).resolve().parents[2]
    project = root / "pyproject.toml"
    try:
        text = project.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if 'name = "chatcodec"' in text else None


def install_hint(extra: str) -> str:
    """How to install ``extra`` here: ``pip install -e '.[arrow]' (in the chatcodec checkout
    /src/chatcodec)``, or outside a checkout ``pip install 'pyarrow>=17' (chatcodec's arrow
    extra)``."""
    root = checkout()
    if root is not None:
        return f"pip install -e '.[{extra}]' (in the chatcodec checkout {root})"
    packages = " ".join(f"'{package}'" for package in EXTRAS[extra])
    return f"pip install {packages} (chatcodec's {extra} extra)"


def missing_extra(what: str, extra: str, module: str) -> MissingExtraError:
    """The error for ``what`` (``Parquet``, ``chatcodec serve``) needing ``extra``, whose
    ``module`` is not installed: one line naming what to install."""
    return MissingExtraError(
        f"{what} needs the {extra} extra ({module} is not installed): {install_hint(extra)}", name=module
    )
