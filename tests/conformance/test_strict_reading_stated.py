"""Each codec states whether it can read strictly (``Capabilities.strict_reading``), and
the statement is true: a codec that says so has what strict mode reads (a published field
set or structural rules), and one that says not has neither, so ``strict=True`` is never
silently lenient."""

from __future__ import annotations

import pytest

import chatcodec
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._strict.fields import schema_for


@pytest.mark.parametrize("name", chatcodec.registered_providers())
def test_a_codec_reads_strictly_exactly_when_it_has_something_to_read_strictly_by(name: str) -> None:
    codec = chatcodec.get_codec(name)
    assert isinstance(codec, ProviderCodec)
    has_rules = schema_for(name) is not None or codec.structure is not None
    assert codec.capabilities.strict_reading == has_rules
