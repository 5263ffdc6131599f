"""The building blocks every chatcodec strategy shares: sizes, scalar values and free-form JSON.

Sizes are kept small (a few items per list, short texts) so properties run fast; text alphabets
stay general (any code point but surrogates). Free-form JSON (provider metadata, tool schemas,
opaque blocks) avoids floats, so it survives any JSON round trip exactly.
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar

from hypothesis import strategies as st
from pydantic import JsonValue

from chatcodec._public_label import shown_as

ValueT = TypeVar("ValueT")

MAX_ITEMS = 5
MAX_TEXT = 20


def optional(strategy: st.SearchStrategy[ValueT]) -> st.SearchStrategy[ValueT | None]:
    return st.one_of(st.none(), strategy)


def lists(strategy: st.SearchStrategy[ValueT], min_size: int = 0) -> st.SearchStrategy[list[ValueT]]:
    return st.lists(strategy, min_size=min_size, max_size=MAX_ITEMS)


TEXTS = st.text(max_size=MAX_TEXT)
NON_EMPTY_TEXTS = st.text(min_size=1, max_size=MAX_TEXT)
TOOL_NAMES = NON_EMPTY_TEXTS.filter(str.strip)
"""Tool names: never blank, which names no tool (encoders refuse it)."""
COUNTS = st.integers(min_value=0, max_value=2**31 - 1)
TIMESTAMPS = st.integers(min_value=0, max_value=2**40)
INDEXES = st.integers(min_value=0, max_value=MAX_ITEMS)
FINITE_FLOATS = st.floats(allow_nan=False, allow_infinity=False)
KEYS = st.one_of(st.sampled_from(["id", "type", "signature", "index"]), st.text(max_size=8))
SCALARS: st.SearchStrategy[JsonValue] = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**53), max_value=2**53), TEXTS
)
PROVIDERS = st.one_of(st.sampled_from(["anthropic", "openai", "gemini", "bedrock"]), TEXTS)
MEDIA_TYPES = st.one_of(
    st.sampled_from(
        ["image/png", "image/jpeg", "audio/wav", "audio/mpeg", "video/mp4", "application/pdf", "text/plain"]
    ),
    NON_EMPTY_TEXTS,
)
BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_"


@cache
def json_values() -> st.SearchStrategy[JsonValue]:
    """Small JSON values: null, booleans, integers, strings, lists and objects (no floats)."""

    def extend(children: st.SearchStrategy[JsonValue]) -> st.SearchStrategy[JsonValue]:
        return st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(KEYS, children, max_size=3),
        )

    return st.recursive(SCALARS, extend, max_leaves=5)


@cache
def json_objects() -> st.SearchStrategy[dict[str, JsonValue]]:
    """Small JSON objects with :func:`json_values` as values."""
    return st.dictionaries(KEYS, json_values(), max_size=3)


@cache
def provider_metadata() -> st.SearchStrategy[dict[str, dict[str, JsonValue]]]:
    """Provider metadata bags: provider name to a JSON object (either may be empty)."""
    return st.dictionaries(PROVIDERS, json_objects(), max_size=2)


shown_as("chatcodec.testing", json_objects, json_values, provider_metadata)
