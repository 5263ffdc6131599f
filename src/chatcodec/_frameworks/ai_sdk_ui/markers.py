"""The ``ai-sdk-ui`` format's name, its kit, its encoder options and the markers it keeps.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata["ai-sdk-ui"]``),
never written out.

Pure spelling (another format drops them without a report): ``_state`` on a text or reasoning
part (its streaming ``state``, ``done`` once stored) and on a call (a state a result does not
imply: ``input-streaming``, an approval state, ``output-denied``); ``_dynamic`` on a call (a
``dynamic-tool`` part, not a ``tool-NAME`` one); ``_no_input`` on a call (its part held no
``input``); ``_raw_input`` on a call (a failed call's arguments came from its ``rawInput``,
written back there); ``_json`` on a result (its ``output`` was a JSON value, written here as JSON text);
``_url_type`` on a media part (its ``data:`` URL's own media type, :mod:`..ai_sdk.media`);
``_denied`` on a result (the answer read for an ``output-denied`` part, written back as that
state); ``_steps`` on a part (the number of ``step-start`` parts before it), and on a message of the
string form (before its text: a turn of one plain text part reads as ``content: "..."``, and a
list of one plain text part is written with ``state: "done"``, read back as ``_state``); ``_trailing_steps`` on a
message (``step-start`` parts after its last part); ``_cont`` on a message (it continues the
UI message before it: the AI SDK keeps a whole tool loop in one assistant ``UIMessage``,
which reads as assistant, tool, assistant... messages). A provider-executed tool part's
markers (on its server call) are :mod:`.server_tools`'s.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "ai-sdk-ui"
"""Registry name, and the key of this format's ``provider_metadata`` bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this format."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""Taken as every encoder takes them (a history has no target rules to skip), so `convert --storage` works."""

METADATA = "providerMetadata"
"""The key a UI part keeps its provider data under (a ``ModelMessage`` part's ``providerOptions``)."""

ROLES = {
    "finish_reason": "chatcodec._frameworks.ai_sdk.finish_reason",
    "usage": "chatcodec._frameworks.ai_sdk.usage",
}
"""The roles both AI SDK formats share, played by :mod:`chatcodec._frameworks.ai_sdk`."""
