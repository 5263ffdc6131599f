"""Testing helpers for code built on chatcodec: Hypothesis strategies for every canonical type.

Property tests find the shapes nobody writes by hand; shipping the strategies with the
package lets users test their own codecs, proxies and agents against the same values
chatcodec tests itself with. Needs the optional ``hypothesis`` dependency
(the ``testing`` extra); ``chatcodec`` itself never imports this package.

:func:`meaningful_markers` names the spelling markers of a provider's bags that carry
meaning (another provider reports one it drops as lost): a cross-provider test may
ignore every other marker, never these.
"""

from chatcodec._extras import missing_extra
from chatcodec._providers.kit import meaningful_markers

try:
    from chatcodec.testing._answers import chat_responses, finish_reasons, response_choices, stream_events, usages
    from chatcodec.testing._blocks import json_objects, json_values, provider_metadata
    from chatcodec.testing._chunking import Splitter, chunkings
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
    "Splitter",
    "assistant_content_parts",
    "assistant_messages",
    "audio_parts",
    "base64_sources",
    "cache_controls",
    "chat_requests",
    "chat_responses",
    "chunkings",
    "conversations",
    "document_parts",
    "file_sources",
    "finish_reasons",
    "image_parts",
    "json_objects",
    "json_values",
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
