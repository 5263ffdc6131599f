"""A stream encoder wrapped in what its format's capabilities say it cannot carry (kit module):
freeform calls taken out, token log probabilities and url citations reported, each before the
format's own encoder sees them, as a whole answer's writer does
(:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.write_response`). Each
wrapper's module is imported only for a format that needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers.kit.citations import without_citations

if TYPE_CHECKING:
    from chatcodec._codec_protocols import RecordStreamEncoder
    from chatcodec._losses import LossRecorder
    from chatcodec._providers.contract.capabilities import Capabilities


def within_capabilities(
    encoder: RecordStreamEncoder, losses: LossRecorder, capabilities: Capabilities
) -> RecordStreamEncoder:
    """``encoder`` behind the wrappers ``capabilities`` ask for (none for a format that carries it all)."""
    if not capabilities.freeform_calls:
        from chatcodec._providers.kit.freeform_streams import WithoutCustomCalls

        encoder = WithoutCustomCalls(encoder, losses, capabilities.display_name)
    if not capabilities.logprobs:
        from chatcodec._providers.kit.logprob_streams import WithoutLogprobs

        multiple = capabilities.multiple_choices
        encoder = WithoutLogprobs(encoder, losses, capabilities.display_name, multiple_choices=multiple)
    if "stream" not in capabilities.citations:
        encoder = without_citations(encoder, losses, capabilities.display_name)
    return encoder
