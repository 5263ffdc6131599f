"""The conformance laws name no provider.

A provider's facts live in its entry (``tests/providers/<name>/conformance.py``); a law
(shipped in ``chatcodec/testing/_laws/``, or a test of this folder)
that branches on a provider's name, or keeps a table keyed by one, puts them back here,
where a new provider would have to edit it. Every Python file in this folder is read as
tokens: no identifier, string (docstrings included) or comment may hold a registered
provider's name in either spelling, or a word its entry lists in ``names_in_prose``.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

import chatcodec.testing._laws as laws
from conformance.providers import PROVIDERS

HERE = Path(__file__).resolve().parent
LAWS = Path(laws.__file__).resolve().parent
LAW_FILES = sorted([*HERE.glob("*.py"), *LAWS.glob("*.py")])

CHECKED = {tokenize.NAME, tokenize.STRING, tokenize.COMMENT, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
"""Identifiers, strings (an f-string's text too: one token of its own on Python 3.12+) and comments."""


def _forbidden() -> set[str]:
    words = {word.lower() for provider in PROVIDERS for word in provider.names_in_prose}
    for provider in PROVIDERS:
        words |= {provider.name, provider.name.replace("-", "_")}
    return words


FORBIDDEN = _forbidden()


def _named(text: str) -> list[str]:
    """The forbidden words in ``text``: long ones anywhere (inside a CamelCase identifier
    too), short ones (a three-letter vendor name) as whole words only, so that a word
    which merely contains one is no hit."""
    lowered = text.lower()
    words = set(re.findall(r"[a-z0-9]+", lowered))
    return sorted(word for word in FORBIDDEN if (word in lowered if len(word) >= 5 else word in words))


def _mentions(path: Path) -> list[tuple[int, str, list[str]]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [
        (token.start[0], token.string, found)
        for token in tokens
        if token.type in CHECKED
        if (found := _named(token.string))
    ]


def test_every_provider_entry_lists_its_names_in_prose() -> None:
    assert all(provider.names_in_prose for provider in PROVIDERS)


@pytest.mark.parametrize("path", LAW_FILES, ids=lambda path: path.name)
def test_law_file_names_no_provider(path: Path) -> None:
    assert _mentions(path) == []


def test_the_check_finds_a_provider_name() -> None:
    """Not vacuous: each spelling of each registered name is found, in code and in prose."""
    for provider in PROVIDERS:
        assert _named(f"if name == {provider.name!r}:") == sorted(_named(provider.name))
        assert _named(provider.name)
        assert _named(provider.name.replace("-", "_").upper())
        for word in provider.names_in_prose:
            assert _named(f"as {word.title()}'s wire does")
    assert _named("it draws a line") == []
