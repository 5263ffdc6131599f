"""A conversion that changes a value reports it; one that reports nothing changed nothing:
integers past 2**53 in sampling settings, settings only one wire has, tool-call arguments a
wire reparses, the spelling markers a codec declares meaningful, and the spellings a reader
marks for its own writer (a spelled request converts elsewhere as its plain twin)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import chatcodec
from chatcodec.codec_kit import is_dict, meaningful_markers
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.mutations import places
from chatcodec.testing._laws.registry import law
from chatcodec.testing._laws.suite import Suite, capabilities

BIG = 2**53 + 1
"""The first integer a float cannot hold."""

_NO_RANGES = {"skip_rules": ["sampling_range"]}
"""The laws send numbers past any range (digits, not ranges): no codec's range rule applies."""


def _convert(
    payload: dict[str, Any], source: ProviderEntry, target: ProviderEntry, **options: Any
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    taken = chatcodec.get_codec(target.name).options  # a format that takes the model in its URL has no model option
    chosen: Any = {
        **_NO_RANGES,
        **target.sampling_options,
        **{name: value for name, value in options.items() if name in taken},
    }
    converted = chatcodec.convert_request(
        payload, source=source.name, target=target.name, on_loss="ignore", losses=losses, options=chosen
    )
    return converted, losses


def _body(provider: ProviderEntry, **fields: Any) -> dict[str, Any]:
    request = chatcodec.ChatRequest(model="m", max_tokens=10, messages=[chatcodec.UserMessage(content="q")], **fields)
    options: Any = {**_NO_RANGES, **provider.sampling_options}
    return chatcodec.encode_request(provider.name, request, on_loss="error", options=options)


def _has_setting(entry: ProviderEntry, key: str) -> bool:
    """Whether the entry's wire has a field for the sampling setting ``key`` (its codec's
    capabilities say; a wire without one reports it as lost, so the law has no case for it)."""
    found = capabilities(entry.name)
    return found is None or key in found.sampling_settings


@law(
    lambda suite: [
        (s, t, key)
        for key in ("temperature", "top_p")
        for t in suite.entries
        for s in suite.entries
        if _has_setting(s, key) and _has_setting(t, key)
    ]
)
def integers_above_2_53_in_sampling_parameters_survive(source: ProviderEntry, target: ProviderEntry, key: str) -> None:
    """Read back through the target's own decoder, so the law holds for every wire's
    spelling of the setting (``temperature``, ``generationConfig.temperature``, ...)."""
    payload = _body(source, **{key: BIG})
    converted, losses = _convert(payload, source, target, model="m")  # a source may keep its model in the URL
    read_back = getattr(chatcodec.decode_request(target.name, converted), key)
    assert read_back == BIG
    assert isinstance(read_back, int)
    assert losses == []


def own_parameters(suite: Suite) -> list[tuple[ProviderEntry, str]]:
    """Numeric settings only one wire has (each entry's ``own_parameters``)."""
    return [(entry, key) for entry in suite.entries for key in entry.own_parameters]


@law(own_parameters)
def parameters_only_one_wire_has_survive_too(provider: ProviderEntry, key: str) -> None:
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


def reparsing(suite: Suite) -> list[ProviderEntry]:
    """Codecs whose wire takes arguments as a parsed object and that report a change."""
    return [entry for entry in suite.entries if entry.reports_reparsed_arguments]


_CHANGED = [
    '{"a": 1, "a": 2}',
    '{"x": 0.1000000000000000055511151231257827}',
    '{"x": 1e400}',
    '{"x": {"y": [1, 2], "y": 3}}',
]
_UNCHANGED = ['{"a": 1, "b": [1.5, 2e3, -0.25, 10000000000000000000001]}', '{ "s" : "x" }', "{}"]


@law(lambda suite: [(entry, arguments) for arguments in _CHANGED for entry in reparsing(suite)])
def arguments_reserialised_with_a_change_report_it(provider: ProviderEntry, arguments: str) -> None:
    """The wire takes arguments as an object: duplicate keys collapse and long numbers
    round when the text is parsed."""
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(provider.name, _tool_call_request(arguments), on_loss="ignore", losses=losses)
    assert [loss.path for loss in losses] == ["$.messages[1].content[0].arguments"]


@law(lambda suite: [(entry, arguments) for arguments in _UNCHANGED for entry in reparsing(suite)])
def arguments_reserialised_without_a_change_report_nothing(provider: ProviderEntry, arguments: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(provider.name, _tool_call_request(arguments), on_loss="ignore", losses=losses)
    assert losses == []


def _there_and_back(
    payload: dict[str, Any], source: ProviderEntry, via: ProviderEntry
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    there, there_losses = _convert(payload, source, via)
    back, back_losses = _convert(there, via, source)
    return back, there_losses + back_losses


def meaningful(suite: Suite) -> list[tuple[ProviderEntry, str, dict[str, Any]]]:
    """Every marker a codec declares meaningful, on a payload that makes its decoder write
    it (each entry's ``marker_requests``)."""
    return [(entry, marker, payload) for entry in suite.entries for marker, payload in entry.marker_requests.items()]


@law(lambda suite: [(*case, via) for via in suite.entries for case in meaningful(suite)])
def meaningful_spellings_come_back_or_are_reported(
    source: ProviderEntry, marker: str, payload: dict[str, Any], via: ProviderEntry
) -> None:
    """A marker declared meaningful: at home the payload comes back exactly and nothing
    is reported; through any other codec it comes back, or a loss names it."""
    assert marker in meaningful_markers(source.name)
    sent = _markers(chatcodec.decode_request(source.name, payload))[marker]
    assert sent >= 1
    back, losses = _there_and_back(payload, source, via)
    if via.name == source.name:
        assert (back, losses) == (payload, [])
    else:  # each one that does not come back is reported once, where it was
        came_back = _markers(chatcodec.decode_request(source.name, back))[marker]
        reported = sum(f" spelling {marker}" in loss.what for loss in losses)
        assert came_back + reported == sent, losses


def _markers(request: chatcodec.ChatRequest) -> Counter[str]:
    """How many bags of ``request`` hold each marker (with a value: ``null`` is no spelling)."""
    found: Counter[str] = Counter()
    for _, value in places(request.model_dump(mode="json")):
        for bags in (value.get(key) for key in ("provider_metadata", "provider_options")) if is_dict(value) else ():
            if is_dict(bags):
                found.update(
                    k for bag in bags.values() for k, v in bag.items() if k[:1] == "_" != k[1:2] and v is not None
                )
    return found


def response_markers(suite: Suite) -> list[tuple[ProviderEntry, str, dict[str, Any]]]:
    """A response for each meaningful marker a response decoder writes, by the spelling a
    conversion reports (``marker=value``; each entry's ``marker_responses``)."""
    return [
        (entry, spelling, payload) for entry in suite.entries for spelling, payload in entry.marker_responses.items()
    ]


@law(lambda suite: [(*case, target) for target in suite.entries for case in response_markers(suite)])
def meaningful_spellings_in_a_response_are_reported_too(
    source: ProviderEntry, spelling: str, payload: dict[str, Any], target: ProviderEntry
) -> None:
    """The rule is the kit's, so response encoders follow it as request encoders do."""
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_response(
        payload, source=source.name, target=target.name, on_loss="ignore", losses=losses
    )
    reported = [loss for loss in losses if " spelling " in loss.what]
    if target.name == source.name:
        assert (converted, losses) == (payload, [])
    else:
        assert [loss.what for loss in reported] == [f"{source.name} spelling {spelling}"]


def twins(suite: Suite) -> list[tuple[ProviderEntry, str, ProviderEntry]]:
    """``(source, twin, target)``: every spelling twin of every entry, to every other format."""
    return [
        (entry, twin, target)
        for entry in suite.entries
        for twin in entry.spelling_twins
        for target in suite.entries
        if target.name != entry.name
    ]


@law(twins)
def a_spelling_kept_for_home_converts_elsewhere_as_its_plain_twin(
    source: ProviderEntry, twin: str, target: ProviderEntry
) -> None:
    """A spelling the source's reader marks for its own writer (``max_tokens`` for
    ``max_completion_tokens``, an SDK dump's ``null`` fields) is nothing a user sent:
    another format writes the request as it writes its plain twin, with the same reports."""
    spelled, plain = source.spelling_twins[twin]
    written, losses = _convert(copy.deepcopy(spelled), source, target)
    plain_written, plain_losses = _convert(copy.deepcopy(plain), source, target)
    assert written == plain_written
    assert [loss.what for loss in losses] == [loss.what for loss in plain_losses]
