"""Misspelt public names: each line ending ``# misspelt`` must be an error under mypy --strict and pyright strict.

Not run by pytest, and not part of ``tests/typing`` (which must type-check clean):
``tests/test_typing_public_names.py`` runs both checkers on this file and expects an error
on exactly the marked lines. The lazy module ``__getattr__`` of ``chatcodec``,
``chatcodec.contract``, ``chatcodec.datasets`` and ``chatcodec.serve`` is hidden from type checkers (``if not
TYPE_CHECKING:``), so they know only the real names; were it visible, every line here would
type-check and fail at run time.
"""

from __future__ import annotations

import chatcodec
import chatcodec.codec_kit
import chatcodec.contract
import chatcodec.datasets
import chatcodec.serve
from chatcodec import (
    ChatRequest,
    convert_request,
    convert_requets,  # misspelt
)
from chatcodec.contract import (
    ProviderCodec,
    ProviderCodek,  # misspelt
)
from chatcodec.datasets import (
    ArrowConverter,
    ArrowConverterr,  # misspelt
)

request = ChatRequest(messages=[{"role": "user", "content": "hi"}])
converted = convert_request({"messages": []}, source="canonical", target="anthropic")
encoded = chatcodec.encode_request("anthropic", request)
misspelt_call = chatcodec.encode_requets("anthropic", request)  # misspelt
misspelt_class = chatcodec.ChatRequets  # misspelt
version = chatcodec.__version__
codec_class = chatcodec.contract.ProviderCodec
misspelt_contract = chatcodec.contract.ProviderCodek  # misspelt
misspelt_kit = chatcodec.codec_kit.wire_feilds  # misspelt
converter_class = chatcodec.datasets.ArrowConverter
misspelt_converter = chatcodec.datasets.ArrowConverterr  # misspelt
misspelt_layout = chatcodec.datasets.columnar_layuot  # misspelt
app_factory = chatcodec.serve.create_app
misspelt_app_factory = chatcodec.serve.create_ap  # misspelt

__all__ = ["ArrowConverter", "ArrowConverterr", "ProviderCodec", "ProviderCodek", "convert_requets"]
