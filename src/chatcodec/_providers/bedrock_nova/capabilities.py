"""What Nova's InvokeModel body can carry (``CAPABILITIES``), from the Nova user guide's
request schema (https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html):
a top-level ``system`` list of text blocks, ``user`` and ``assistant`` turns, images and
videos in user turns (and audio on Nova 2 Omni), ``toolChoice`` ``auto`` / ``any`` /
``tool``, ``reasoningConfig`` by effort (``maxReasoningEffort``) or disabled, ``cachePoint``
blocks, one answer. Documents are the Converse API's alone ("The Invoke API supports the
same features as the Converse API except for document input modality",
https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-invoke-api.html).
"""

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="Amazon Nova",
    tool_choice=frozenset({"auto", "required", "tool"}),  # toolChoice: auto, any, tool
    system="top_level",
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,
    media=frozenset({"image", "video", "audio"}),
    tool_result_media=frozenset({"image"}),
    reasoning=frozenset({"effort", "disabled"}),
    signed_thinking=False,
    cache_markers=True,  # cachePoint blocks
    multiple_choices=False,
    call_ids=True,
    strict_reading=True,  # the family's structural rules (families/aws/structure.py)
    object_arguments=True,  # a call's arguments are a JSON object on this wire
)
"""Nova understanding models (Micro takes text only: a model rule, ``rules.py``)."""
