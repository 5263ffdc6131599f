"""The public surface is deliberate: ``__all__`` is sorted, complete and importable."""

from __future__ import annotations

import subprocess
import sys

import pytest

import chatcodec


def _isort_key(name: str) -> tuple[int, str]:
    # constants, then classes, then functions: the order ruff's RUF022 keeps
    group = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return group, name


def test_all_is_sorted_and_unique() -> None:
    assert list(chatcodec.__all__) == sorted(set(chatcodec.__all__), key=_isort_key)


def test_every_name_in_all_is_importable() -> None:
    missing = [name for name in chatcodec.__all__ if not hasattr(chatcodec, name)]
    assert missing == []


def test_no_public_name_is_left_out_of_all() -> None:
    for name in chatcodec.__all__:
        getattr(chatcodec, name)  # names load lazily: resolve them all first
    public = {name for name in vars(chatcodec) if not name.startswith("_")}
    submodules = {name for name in public if type(getattr(chatcodec, name)).__name__ == "module"}
    assert public - submodules == set(chatcodec.__all__)
    assert [name for name in dir(chatcodec) if name not in submodules] == sorted(chatcodec.__all__)


def test_importing_chatcodec_loads_neither_pydantic_nor_the_models() -> None:
    # the cold-import budget (bench/ measures it): names resolve on first access
    code = "import sys, chatcodec; print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'chatcodec.'))))"
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert loaded.strip() == "[]"


def test_public_names_load_on_first_access() -> None:
    code = (
        "import sys, chatcodec; before = 'chatcodec.messages' in sys.modules; "
        "chatcodec.UserMessage; print(before, 'chatcodec.messages' in sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert loaded.split() == ["False", "True"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        getattr(chatcodec, "Nope")  # noqa: B009


def test_importing_chatcodec_loads_no_provider_codec_or_test_helper() -> None:
    code = (
        "import sys, chatcodec; "
        "print(sorted(m for m in sys.modules if m.startswith(('chatcodec.providers', 'chatcodec.testing', "
        "'hypothesis'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert loaded.strip() == "[]"


def test_package_is_typed() -> None:
    from importlib.resources import files

    assert files("chatcodec").joinpath("py.typed").is_file()
