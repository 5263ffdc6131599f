"""An entry for a codec checked by name alone (``chatcodec check-codec NAME``): the facts the
codec itself gives, and none of those only its documentation gives (no recordings, finish
words, SDK oracle or tool-name rule, so the laws over those have no case for it)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._answers import chat_responses
from chatcodec.testing._laws.entry import ProviderEntry, SingleHop
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import without_provider_data
from chatcodec.testing._strategies import chat_requests


def _no_deep_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    raise AssertionError("the entry states no field a stream decoder keeps as it is")


def _unchanged(body: JsonObject, raw: str) -> JsonObject:
    return body


def _generated_responses() -> st.SearchStrategy[chatcodec.ChatResponse]:
    return chat_responses(finished=True).map(without_provider_data)


def _same(request: chatcodec.ChatRequest) -> object:
    return without_provider_data(request)


def derived_entry(name: str, **stated: Any) -> ProviderEntry:
    """The entry :func:`chatcodec.testing.check_codec` uses for a codec whose distribution
    states none: the single-hop law over generated requests without any codec's data. With
    ``stated``, the facts a built-in codec states over these (``built_in/``)."""
    chatcodec.get_codec(name)  # an unknown name fails here, as the CLI says
    stated.setdefault("names_in_prose", ())
    requests = lambda: chat_requests().map(without_provider_data)  # noqa: E731
    return ProviderEntry.minimal(
        name,
        finish_reasons=stated.pop("finish_reasons", {}),
        with_finish_reason=stated.pop("with_finish_reason", _unchanged),
        finish_reason_fixture=stated.pop("finish_reason_fixture", ""),
        streams=stated.pop("streams", None),
        shaped_responses=stated.pop("shaped_responses", _generated_responses),
        single_hop=stated.pop("single_hop", SingleHop(requests=requests, original=_same, decoded=_same)),
        tool_name_rule=stated.pop("tool_name_rule", None),
        deep_kept_value=stated.pop("deep_kept_value", _no_deep_value),
        **stated,
    )
