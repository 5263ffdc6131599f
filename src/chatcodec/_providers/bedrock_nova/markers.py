"""This provider's name, its kit, its encoder options, and the spelling markers it keeps.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata[PROVIDER]``),
never written to the wire.

Pure spelling (every server that takes one spelling takes the other with the same
meaning; another provider drops them without a report):

* ``_nulls`` / ``_absent``: the kit's (a ``null`` field, a field left out);
* ``_snake``: ``inferenceConfig`` spelled ``max_new_tokens`` / ``top_p`` / ``top_k``, the
  names Nova took first, beside the camel-case ones its user guide uses now (``settings.py``);
* ``_integers``: ``temperature`` or ``topP`` spelled as a JSON integer (``settings.py``);
* ``_inference_config``, ``_tool_config``, ``_empty_stop``: an empty ``inferenceConfig`` or
  ``toolConfig`` object, or an empty ``stopSequences`` list, was sent;
* ``_empty_stop_entry``: the body's own ``stopSequences`` held ``""`` (which the Runtime
  refuses): the caller's, written back as it came; from another format it is not sent,
  reported (the family's ``stop_sequences.py``);
* ``_json``: a tool-result ``json`` block, read as its JSON text (the same JSON either way);
* ``_status``: ``toolResult.status: "success"`` was spelled out;
* ``_empty_id``: a call came with ``toolUseId: ""`` (``families/aws/tool_use.py``); ``""``
  is written back;
* ``_bucket_owner``: a media source's ``s3Location.bucketOwner`` (only Bedrock reads an S3
  location, so no other format's server reads it differently without the owner); these
  two, and ``_json``, are read from Converse's bag too (``Body.sibling``: the same block wire);
  ``_format``: a ``video`` block's ``format`` when its media type reads back as another
  name (``mpg`` beside ``mpeg``; the family's ``media.py``);
* ``_reasoning_in_config``: ``reasoningConfig`` came inside ``inferenceConfig`` (``settings.py``);
* ``_metadata``: a stream's ``metadata`` event came, with its members besides ``usage``
  (``metrics``, ``trace``), written back at the stream's end (``stream_decode.py``);
* ``_finish_reason`` (responses, a stream's finish): a ``stopReason`` this codec does not
  know, written back by this codec only (``families/aws/finish_reason.py``);
* ``_tool_config`` also marks a ``toolConfig`` of no tools; ``_schema_as_sent``: a tool's
  schema goes back as it came (``families/schema_writing.py``);
* ``_separate``: the wire had this turn apart from a same-role turn before it, so it is not
  merged (the family's ``turns.py``).
* ``_cache_apart``: a text part's ``cachePoint`` came as a block of its own after it, where
  this body writes it inside the text block (the family's ``inner_cache_points.py``).

Carry meaning (declared in :data:`KIT`: another provider that drops one reports a loss):

* ``_tool_order``: server (``systemTool``) and function tools were interleaved (the kit's
  :data:`~chatcodec._providers.kit.TOOL_ORDER`; ``families/aws/tools.py``).

Encoder options: the target rules' ``api_version`` and ``skip_rules`` (typed by
:class:`chatcodec.options.RuleOptions`); the model is in the URL, never in the body.
"""

from __future__ import annotations

from chatcodec._providers.families.aws.body import Body
from chatcodec.codec_kit import RULE_OPTIONS, TOOL_ORDER, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "bedrock-nova"
"""Registry name, and the key of this codec's ``provider_metadata`` / ``provider_options`` bags."""

KIT = ProviderKit(PROVIDER, meaningful_markers={**TOOL_ORDER})
"""The shared bag operations bound to this provider (:mod:`chatcodec._providers.kit`)."""

BODY = Body(
    KIT,
    "Amazon Nova",
    "Nova",
    response="a Nova response",
    tool_cache_points=False,
    strict_tools=False,
    claude=False,
    system_turns=False,
    cache_ttl=False,
    cache_inside=True,
    lacks=frozenset({"document", "audio", "guardContent", "citationsContent"}),
    sibling="bedrock-converse",
)
"""This body for the AWS family's shared readers and writers: its turns are ``user`` and
``assistant`` (a later system message goes as a user turn, reported), its cache points
take no ``ttl`` (the request schema documents none) and go inside the text block they
cache (the family's ``inner_cache_points.py``), Nova caches no tools (Bedrock's
prompt caching caches Nova's ``system`` and ``messages`` only), its tool guide documents
no ``strict``, it serves no Claude (its reasoning is unsigned), and it takes no
``document`` ("Document Support is limited to only Converse API"), ``audio``,
``guardContent`` or ``citationsContent`` block: each is kept whole when read, reported
when written (the Nova user guide's request schema)."""

OPTIONS = OptionTable.of(*RULE_OPTIONS)
"""This encoder's options: the target rules' (``api_version``, ``skip_rules``)."""

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
