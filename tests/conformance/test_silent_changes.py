"""A conversion that changes a value
reports it; one that reports nothing changed nothing."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

import chatcodec
from chatcodec.testing import meaningful_markers
from conformance.providers import PROVIDER_NAMES, PROVIDERS

BIG = 2**53 + 1
"""The first integer a float cannot hold."""


def _convert(
    payload: dict[str, Any], source: str, target: str, **options: Any
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    taken = chatcodec.get_codec(target).options  # a format that takes the model in its URL has no model option
    options = {**_ENTRIES[target].sampling_options, **{name: value for name, value in options.items() if name in taken}}
    converted = chatcodec.convert_request(
        payload, source=source, target=target, on_loss="ignore", losses=losses, options=options
    )
    return converted, losses


_ENTRIES = {provider.name: provider for provider in PROVIDERS}


def _body(provider: str, **fields: Any) -> dict[str, Any]:
    request = chatcodec.ChatRequest(model="m", max_tokens=10, messages=[chatcodec.UserMessage(content="q")], **fields)
    return chatcodec.encode_request(provider, request, on_loss="error", options=_ENTRIES[provider].sampling_options)


@pytest.mark.parametrize("source", PROVIDER_NAMES)
@pytest.mark.parametrize("target", PROVIDER_NAMES)
@pytest.mark.parametrize("key", ["temperature", "top_p"])
def test_integers_above_2_53_in_sampling_parameters_survive(source: str, target: str, key: str) -> None:
    """Read back through the target's own decoder, so the law holds for every wire's
    spelling of the setting (``temperature``, ``generationConfig.temperature``, ...)."""
    payload = _body(source, **{key: BIG})
    converted, losses = _convert(payload, source, target, model="m")  # a source may keep its model in the URL
    read_back = getattr(chatcodec.decode_request(target, converted), key)
    assert read_back == BIG
    assert isinstance(read_back, int)
    assert losses == []


OWN_PARAMETERS = [(provider.name, key) for provider in PROVIDERS for key in provider.own_parameters]
"""Numeric settings only one wire has (each provider's entry's ``own_parameters``)."""


@pytest.mark.parametrize(("provider", "key"), OWN_PARAMETERS)
def test_parameters_only_one_wire_has_survive_too(provider: str, key: str) -> None:
    payload = _body(provider) | {key: BIG}
    converted, losses = _convert(payload, provider, provider)
    assert converted[key] == BIG
    assert losses == []


def _tool_call_request(arguments: str) -> chatcodec.ChatRequest:
    return chatcodec.validate_model(
        chatcodec.ChatRequest,
        {
            "model": "m",
            "max_tokens": 10,
            "messages": [
                {"role": "user", "content": "q"},
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "c1", "name": "f", "arguments": arguments}],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            ],
        },
    )


REPARSING = [provider.name for provider in PROVIDERS if provider.reports_reparsed_arguments]
"""Providers whose wire takes arguments as a parsed object and that report a change."""


@pytest.mark.parametrize("provider", REPARSING)
@pytest.mark.parametrize(
    "arguments",
    ['{"a": 1, "a": 2}', '{"x": 0.1000000000000000055511151231257827}', '{"x": 1e400}', '{"x": {"y": [1, 2], "y": 3}}'],
)
def test_arguments_reserialised_with_a_change_report_it(provider: str, arguments: str) -> None:
    """The wire takes arguments as an object: duplicate keys collapse and long numbers
    round when the text is parsed."""
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(provider, _tool_call_request(arguments), on_loss="ignore", losses=losses)
    assert [loss.path for loss in losses] == ["$.messages[1].content[0].arguments"]


@pytest.mark.parametrize("provider", REPARSING)
@pytest.mark.parametrize(
    "arguments", ['{"a": 1, "b": [1.5, 2e3, -0.25, 10000000000000000000001]}', '{ "s" : "x" }', "{}"]
)
def test_arguments_reserialised_without_a_change_report_nothing(provider: str, arguments: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(provider, _tool_call_request(arguments), on_loss="ignore", losses=losses)
    assert losses == []


def _there_and_back(payload: dict[str, Any], source: str, via: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    there, there_losses = _convert(payload, source, via)
    back, back_losses = _convert(there, via, source)
    return back, there_losses + back_losses


MEANINGFUL = [
    (provider.name, marker, payload) for provider in PROVIDERS for marker, payload in provider.marker_requests.items()
]
"""Every marker a provider declares meaningful, on a payload that makes its decoder write
it (each provider's entry's ``marker_requests``)."""


@pytest.mark.parametrize(("source", "marker", "payload"), MEANINGFUL, ids=[f"{s}{m}" for s, m, _ in MEANINGFUL])
@pytest.mark.parametrize("via", PROVIDER_NAMES)
def test_meaningful_spellings_come_back_or_are_reported(
    source: str, marker: str, payload: dict[str, Any], via: str
) -> None:
    """A marker declared meaningful: at home the payload comes back exactly and nothing
    is reported; through any other provider it comes back, or a loss names it."""
    assert marker in meaningful_markers(source)
    sent = _markers(chatcodec.decode_request(source, payload))[marker]
    assert sent >= 1
    back, losses = _there_and_back(payload, source, via)
    if via == source:
        assert (back, losses) == (payload, [])
    else:  # each one that does not come back is reported once, where it was
        came_back = _markers(chatcodec.decode_request(source, back))[marker]
        reported = sum(f" spelling {marker}" in loss.what for loss in losses)
        assert came_back + reported == sent, losses


def _markers(request: chatcodec.ChatRequest) -> Counter[str]:
    """How many bags of ``request`` hold each marker (with a value: ``null`` is no spelling)."""
    found: Counter[str] = Counter()
    pending: list[object] = [request.model_dump(mode="json")]
    while pending:
        value = pending.pop()
        if isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, dict):
            for key in ("provider_metadata", "provider_options"):
                bags = value.get(key)
                if isinstance(bags, dict):
                    found.update(
                        k for bag in bags.values() for k, v in bag.items() if k[:1] == "_" != k[1:2] and v is not None
                    )
            pending.extend(value.values())
    return found


def test_every_meaningful_marker_has_a_payload() -> None:
    declared = {(name, marker) for name in PROVIDER_NAMES for marker in meaningful_markers(name)}
    assert declared == {(source, marker) for source, marker, _ in MEANINGFUL}


RESPONSE_MARKERS = [
    (provider.name, spelling, payload)
    for provider in PROVIDERS
    for spelling, payload in provider.marker_responses.items()
]
"""A response for each meaningful marker a response decoder writes, by the spelling a
conversion reports (``marker=value``; each provider's entry's ``marker_responses``)."""


@pytest.mark.parametrize(
    ("source", "spelling", "payload"), RESPONSE_MARKERS, ids=[f"{s}{m}" for s, m, _ in RESPONSE_MARKERS]
)
@pytest.mark.parametrize("target", PROVIDER_NAMES)
def test_meaningful_spellings_in_a_response_are_reported_too(
    source: str, spelling: str, payload: dict[str, Any], target: str
) -> None:
    """The rule is the kit's, so response encoders follow it as request encoders do."""
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_response(payload, source=source, target=target, on_loss="ignore", losses=losses)
    reported = [loss for loss in losses if " spelling " in loss.what]
    if target == source:
        assert (converted, losses) == (payload, [])
    else:
        assert [loss.what for loss in reported] == [f"{source} spelling {spelling}"]


def test_the_laws_over_entry_data_are_not_vacuous() -> None:
    """Some provider's entry gives each of these laws a case (an empty parameter list
    would only skip)."""
    assert OWN_PARAMETERS
    assert REPARSING
    assert RESPONSE_MARKERS


TWINS = [
    (provider.name, twin, target)
    for provider in PROVIDERS
    for twin in provider.spelling_twins
    for target in PROVIDER_NAMES
    if target != provider.name
]
"""``(source, twin, target)``: every spelling twin of every provider's entry, to every other format."""


@pytest.mark.parametrize(("source", "twin", "target"), TWINS)
def test_a_spelling_kept_for_home_converts_elsewhere_as_its_plain_twin(source: str, twin: str, target: str) -> None:
    """A spelling the source's reader marks for its own writer (``max_tokens`` for
    ``max_completion_tokens``, an SDK dump's ``null`` fields) is nothing a user sent:
    another format writes the request as it writes its plain twin, with the same reports."""
    spelled, plain = _ENTRIES[source].spelling_twins[twin]
    written, losses = _convert(copy.deepcopy(spelled), source, target)
    plain_written, plain_losses = _convert(copy.deepcopy(plain), source, target)
    assert written == plain_written
    assert [loss.what for loss in losses] == [loss.what for loss in plain_losses]


def test_some_provider_has_spelling_twins() -> None:
    """Not vacuous: the law over spelling twins has cases."""
    assert TWINS
