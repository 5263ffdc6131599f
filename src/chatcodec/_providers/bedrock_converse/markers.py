"""This provider's name, its kit, and the spelling markers it keeps in its bags.

A decoder keeps, on the closest canonical object, every wire field it did not map.
Spellings that must come back exactly are kept as markers (keys starting with exactly
one ``_``).

Pure spelling (every server that takes one spelling takes the other with the same
meaning; another provider drops them without a report):

* ``_integers`` (requests): ``inferenceConfig``'s ``temperature`` and ``topP`` spelled as JSON
  integers (``topP: 1``), which canonical holds as floats (``_providers/kit/integer_spelling.py``);
* ``_finish_reason`` (responses): a ``stopReason`` this codec does not know, written back
  by this codec only (the canonical finish reason carries the word; ``finish_reason.py``);
* ``_nulls`` / ``_absent``: the kit's markers (``null`` fields, defaults left out);
* ``_inference_config``, ``_tool_config``, ``_empty_stop``, ``_no_messages``: an empty
  ``inferenceConfig`` or ``toolConfig`` object, an empty ``stopSequences`` list, or no
  ``messages`` at all was sent (``request.py``, ``tools.py``);
* ``_empty_stop_entry``: the body's own ``stopSequences`` held ``""`` (which the Runtime
  refuses): the caller's, written back as it came; from another format it is not sent,
  reported (the family's ``stop_sequences.py``);
* ``_schema_text``: the ``outputConfig`` JSON schema exactly as spelled (it is a string
  on the wire, an object in canonical); ``_no_schema``: it had no schema;
* ``_json``: a tool-result ``json`` block, read as its JSON text (the same JSON either way);
* ``_no_name``, ``_no_format``: a document without ``name`` or ``format``;
* ``_format``: an ``audio`` or ``video`` block's ``format`` when its media type reads back as another
  name (``mpeg`` beside ``mp3``; the family's ``audio.py``);
* ``_citations_content``, ``_pieces``: a text part came as a ``citationsContent`` block,
  with its text in these pieces when there were other than one (the family's ``citations.py``);
* ``_no_metrics``: a stream's ``metadata`` had no ``metrics`` (``stream_decode.py``);
* ``_status``: ``toolResult.status: "success"`` was spelled out;
* ``_bucket_owner``: a media source's ``s3Location.bucketOwner``, the account that owns
  the bucket (the family's ``media.py``). Only Bedrock reads an S3 location, so no other format's
  server reads it differently without the owner (Gemini reports the S3 media itself);
* ``_empty_id``: a response's call came with ``toolUseId: ""`` and got a made-up id
  (the family's ``tool_use.py``); ``""`` is written back;
* ``_count_twins``: the legacy
  ``cache*InputTokenCount`` twins repeated the counts;
* ``_in_messages``: as in the Anthropic codec (the family's ``turns.py``);
* ``_separate``: the wire had this turn apart from a same-role turn before it (after tool
  results, or two user or assistant turns in a row), so it is not merged (the family's ``turns.py``);
* ``_schema_as_sent`` (tools) / ``_format_as_sent`` (requests): the tool's or output
  format's schema goes back to this format as it came, though this writer would rewrite
  it (Gemini's spellings; the structured-outputs subset of a strict tool or an output
  format; ``_providers/families/schema_writing.py``); another format applies its own
  rewrites, reported as ``schema`` losses.

Carry meaning (declared in :data:`KIT`: another provider that drops one reports a loss):

* ``_tool_order``: server and client tools were interleaved (the kit's
  :data:`~chatcodec._providers.kit.TOOL_ORDER`);
* ``_guard``: a text part came as a ``guardContent`` block (its ``qualifiers`` kept):
  the text reaches every format, the guardrail's selection of it does not (the family's ``parts.py``).

Encoder options arrive by argument (``options=``), by their public names (see ``request.py``);
a stored request may still spell them in ``provider_options["bedrock-converse"]``.
"""

from __future__ import annotations

from chatcodec._providers.families.aws.body import Body
from chatcodec.codec_kit import RULE_OPTIONS, TOOL_ORDER, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "bedrock-converse"
"""Registry name, and the key of this codec's provider-metadata bags."""

KIT = ProviderKit(
    PROVIDER,
    meaningful_markers={
        **TOOL_ORDER,
        "_guard": "the text is sent as plain text: a Bedrock guardrail assessed only the guardContent blocks",
    },
)
"""The shared bag operations, bound to this provider (:mod:`chatcodec._providers.kit`)."""

BODY = Body(KIT, "Bedrock Converse", "Bedrock", sibling="bedrock-nova")
"""This body for the AWS family's shared readers and writers (every member Converse documents)."""

OPTIONS = OptionTable.of(
    "unsigned_thinking",
    "tool_result_status",
    *RULE_OPTIONS,
    stored=("unsigned_thinking", "tool_result_status"),
    legacy=RULE_OPTIONS,
)
"""This encoder's options (typed for callers as
:class:`chatcodec.options.BedrockConverseOptions`; the first two a stored request may also
set in ``provider_options[PROVIDER]``): what to do with thinking Bedrock cannot verify, and
when ``toolResult.status`` is written. They reach the encoders in
:attr:`~chatcodec._providers.contract.context.EncodeContext.options`."""

ROLES = {
    "finish_reason": "chatcodec._providers.families.aws.finish_reason",
    "parts": "chatcodec._providers.families.aws.parts",
    "structure": "chatcodec._providers.families.aws.structure",
    "origins": "chatcodec._providers.families.aws.origins",
}
"""The roles the AWS family plays for this folder (``ProviderCodec.from_package``): one table of
``stopReason`` words, one block reader and writer, turn alternation and tool pairing, where each
message of a request came from (``ProviderCodec.message_origins``). The family's tool config
bound to this body is the folder's own ``tools.py``."""
