"""The codec object the registry loads: the folder's role modules handed to
:class:`~chatcodec._providers.contract.provider_codec.ProviderCodec`.

Each argument is checked against its role's protocol (``_providers/contract/roles.py``), so a
module missing a role function, or with another signature, fails type-checking here.
The stream classes are given as two small typed functions that import ``stream_decode`` /
``stream_encode`` on the first stream, so importing the codec and converting a request
loads no canonical model (``tests/conformance/test_importing_a_codec.py``). Streams are
optional: leave both functions out (and the two modules) for an API without them; a
folder without ``structure.py`` or ``dialect.py`` leaves ``structure=`` / ``dialect=`` out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._providers._template import (
    capabilities,
    edge,
    finish_reason,
    messages,
    parts,
    request,
    response,
    rules,
    settings,
    tools,
    usage,
)
from chatcodec._providers._template.markers import OPTIONS, PROVIDER
from chatcodec._providers.contract.provider_codec import ProviderCodec

if TYPE_CHECKING:
    from chatcodec._providers.contract.context import DecodeContext, EncodeContext
    from chatcodec._registry import StreamDecoder, StreamEncoder
    from chatcodec.streams._builder import StreamBuilder


def _stream_decoder(builder: StreamBuilder | None, context: DecodeContext) -> StreamDecoder:
    from chatcodec._providers._template.stream_decode import StreamDecoder

    return StreamDecoder(builder, context)


def _stream_encoder(context: EncodeContext) -> StreamEncoder:
    from chatcodec._providers._template.stream_encode import StreamEncoder

    return StreamEncoder(context)


CODEC = ProviderCodec(
    PROVIDER,
    options=OPTIONS,
    requests=request,
    responses=response,
    finish_reasons=finish_reason,
    usage=usage,
    messages=messages,
    parts=parts,
    tools=tools,
    settings=settings,
    capabilities=capabilities,
    rules=rules,
    edge=edge,
    stream_decoder=_stream_decoder,
    stream_encoder=_stream_encoder,
)
"""The codec instance a registry line would name: ``"chatcodec._providers.<name>.codec:CODEC"``."""
