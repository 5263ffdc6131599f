"""Testing helpers for code built on chatcodec: Hypothesis strategies for every canonical type.

Property tests find the shapes nobody writes by hand; shipping the strategies with the
package lets users test their own codecs, proxies and agents against the same values
chatcodec tests itself with. Needs the optional ``hypothesis`` dependency
(the ``testing`` extra); ``chatcodec`` itself never imports this package.

:func:`meaningful_markers` names the spelling markers of a provider's bags that carry
meaning (another provider reports one it drops as lost): a cross-provider test may
ignore every other marker, never these.

The provider laws ship here too: :func:`codec_law_cases` gives every law's cases over an
installed codec (a codec's own test suite parametrizes a test over them and calls
``case.run()``), :func:`check_codec` runs them (``chatcodec check-codec NAME``), and a
:class:`ProviderEntry` states the facts only a codec's documentation gives (its recordings,
SDK oracles, finish words, documented rewrites) for the laws that need them.
"""

from chatcodec._extras import missing_extra
from chatcodec._providers.kit.provider_kit import meaningful_markers

try:
    from chatcodec.testing._answers import chat_responses, finish_reasons, response_choices, stream_events, usages
    from chatcodec.testing._blocks import json_objects, json_values, provider_metadata
    from chatcodec.testing._chunking import Splitter, chunkings
    from chatcodec.testing._laws.check import check_codec, codec_law_cases
    from chatcodec.testing._laws.entry import BagSamples, ProviderEntry, SingleHop, StreamPair
    from chatcodec.testing._laws.registry import LawCase, law_cases
    from chatcodec.testing._laws.stream_law import StreamCases
    from chatcodec.testing._replay import events_from_response
    from chatcodec.testing._strategies import (
        assistant_content_parts,
        assistant_messages,
        audio_parts,
        base64_sources,
        cache_controls,
        chat_requests,
        conversations,
        document_parts,
        file_sources,
        image_parts,
        messages,
        opaque_parts,
        reasoning_configs,
        refusal_parts,
        response_formats,
        system_messages,
        text_messages,
        text_parts,
        text_sources,
        thinking_parts,
        tool_choices,
        tool_definitions,
        tool_messages,
        tool_result_parts,
        tool_use_parts,
        url_sources,
        user_messages,
        video_parts,
    )
except ModuleNotFoundError as _missing:  # say what to install, not only what is missing
    if _missing.name != "hypothesis":
        raise
    raise missing_extra("chatcodec.testing", "testing", "hypothesis") from None

__all__ = [
    "BagSamples",
    "LawCase",
    "ProviderEntry",
    "SingleHop",
    "Splitter",
    "StreamCases",
    "StreamPair",
    "assistant_content_parts",
    "assistant_messages",
    "audio_parts",
    "base64_sources",
    "cache_controls",
    "chat_requests",
    "chat_responses",
    "check_codec",
    "chunkings",
    "codec_law_cases",
    "conversations",
    "document_parts",
    "events_from_response",
    "file_sources",
    "finish_reasons",
    "image_parts",
    "json_objects",
    "json_values",
    "law_cases",
    "meaningful_markers",
    "messages",
    "opaque_parts",
    "provider_metadata",
    "reasoning_configs",
    "refusal_parts",
    "response_choices",
    "response_formats",
    "stream_events",
    "system_messages",
    "text_messages",
    "text_parts",
    "text_sources",
    "thinking_parts",
    "tool_choices",
    "tool_definitions",
    "tool_messages",
    "tool_result_parts",
    "tool_use_parts",
    "url_sources",
    "usages",
    "user_messages",
    "video_parts",
]
