"""An entry for a codec checked by name alone (``chatcodec check-codec NAME``): the facts the
codec itself gives, and none of those only its documentation gives (no recordings, finish
words, SDK oracle or tool-name rule, so the laws over those have no case for it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._answers import chat_responses
from chatcodec.testing._laws.entry import ProviderEntry, SingleHop
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import (
    without_empty_instructions,
    without_provider_data,
    without_spelling_markers,
)
from chatcodec.testing._laws.suite import capabilities
from chatcodec.testing._strategies import chat_requests, messages

Rewrites = Callable[[chatcodec.ChatRequest], Any]


def _no_deep_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    raise AssertionError("the entry states no field a stream decoder keeps as it is")


def _unchanged(body: JsonObject, raw: str) -> JsonObject:
    return body


def _generated_responses() -> st.SearchStrategy[chatcodec.ChatResponse]:
    return chat_responses(finished=True).map(without_provider_data)


def _as_is(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    return request


def _generated_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    return chat_requests().map(without_provider_data)


def any_requests() -> st.SearchStrategy[chatcodec.ChatRequest]:
    """Any canonical request, and single-message ones too (so one loss does not hide another
    change), without a registered codec's data."""
    single = st.builds(chatcodec.ChatRequest, messages=st.lists(messages(), max_size=1))
    return st.one_of(chat_requests(), single).map(without_provider_data)


def _with_capabilities(rewrites: Rewrites, name: str) -> Rewrites:
    """``rewrites`` after what the codec's capabilities say it leaves out unreported: an empty
    system or developer message where it has no empty prompt (``Capabilities.empty_system``)."""
    found = capabilities(name)
    if found is None or found.empty_system:
        return rewrites
    return lambda request: rewrites(without_empty_instructions(request))


def derived_entry(name: str, **stated: Any) -> ProviderEntry:
    """The entry :func:`chatcodec.testing.check_codec` uses for a codec whose distribution
    states none: the single-hop law over generated requests without any codec's data (and
    without what its capabilities say it leaves out). With ``stated``, the facts a built-in
    codec states over these (``built_in/``): its ``silent_rewrites`` give its single-hop normal
    form unless it states one (a request reads back as it is after them, both without
    pure-spelling markers), over its ``single_hop_requests`` (:func:`any_requests`)."""
    chatcodec.get_codec(name)  # an unknown name fails here, as the CLI says
    stated.setdefault("names_in_prose", ())
    own = "silent_rewrites" in stated
    rewrites = stated["silent_rewrites"] = _with_capabilities(stated.get("silent_rewrites", _as_is), name)
    form: Callable[[chatcodec.ChatRequest], object] = without_spelling_markers if own else without_provider_data
    requests = stated.pop("single_hop_requests", any_requests if own else _generated_requests)
    stated.setdefault("single_hop", SingleHop(requests, original=lambda request: form(rewrites(request)), decoded=form))
    return ProviderEntry.minimal(
        name,
        finish_reasons=stated.pop("finish_reasons", {}),
        with_finish_reason=stated.pop("with_finish_reason", _unchanged),
        finish_reason_fixture=stated.pop("finish_reason_fixture", ""),
        streams=stated.pop("streams", None),
        shaped_responses=stated.pop("shaped_responses", _generated_responses),
        single_hop=stated.pop("single_hop"),
        tool_name_rule=stated.pop("tool_name_rule", None),
        deep_kept_value=stated.pop("deep_kept_value", _no_deep_value),
        **stated,
    )
