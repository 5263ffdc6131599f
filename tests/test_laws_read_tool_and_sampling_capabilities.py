"""The laws that carry tool definitions, sampling settings or blank tool names through a wire
read the codec's capabilities (``tool_definitions``, ``sampling_settings``,
``fitted_tool_names``): a stored framework history (LangChain's, the AI SDK's) keeps none of
the first two and any name as it stands, so those laws generate no case for it (not a case
that passes vacuously), while the provider wires keep every case."""

from __future__ import annotations

import dataclasses

import pytest

import chatcodec
from chatcodec.contract import Capabilities, ProviderCodec
from chatcodec.testing import codec_law_cases
from chatcodec.testing._laws.suite import capabilities as capabilities_of

CAPABILITY_LAWS = (
    "law_silent_changes::integers_above_2_53_in_sampling_parameters_survive",
    "law_tool_names::valid_names_are_left_alone",
    "law_tool_names::blank_names_are_sent_fitted_and_reported_at_their_path",
)


def _ids(name: str) -> list[str]:
    return [case.id for case in codec_law_cases(name)]


def test_the_defaults_are_what_a_provider_wire_carries() -> None:
    fields = {field.name: field for field in dataclasses.fields(Capabilities)}
    assert fields["tool_definitions"].default is True
    assert fields["sampling_settings"].default == frozenset({"temperature", "top_p"})
    assert fields["fitted_tool_names"].default is True


@pytest.mark.parametrize("name", ["langchain", "ai-sdk-model", "ai-sdk-ui"])
def test_a_stored_history_has_no_case_of_the_laws_it_cannot_carry(name: str) -> None:
    capabilities = capabilities_of(name)
    assert capabilities is not None
    assert (capabilities.tool_definitions, capabilities.sampling_settings) == (False, frozenset())
    assert not capabilities.fitted_tool_names
    ids = _ids(name)
    assert ids  # the other laws still run
    assert not [case for case in ids if case.startswith(CAPABILITY_LAWS)]


def test_a_provider_wire_keeps_every_case() -> None:
    ids = _ids("anthropic")
    for law in CAPABILITY_LAWS:
        assert [case for case in ids if case.startswith(law)], law
    settings = [case for case in ids if case.startswith(CAPABILITY_LAWS[0])]
    assert {case.rsplit("-", 1)[-1].rstrip("]") for case in settings} == {"temperature", "top_p"}


def test_a_wire_with_one_sampling_setting_gets_cases_for_that_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """MCP sampling's ``CreateMessageRequest`` has ``temperature`` and no ``topP``."""
    codec = chatcodec.get_codec("ollama")
    assert isinstance(codec, ProviderCodec)
    narrowed = dataclasses.replace(codec.capabilities, sampling_settings=frozenset({"temperature"}))
    monkeypatch.setattr(codec, "capabilities", narrowed)
    settings = [case for case in _ids("ollama") if case.startswith(CAPABILITY_LAWS[0])]
    assert settings
    assert all(case.endswith("-temperature]") for case in settings)
