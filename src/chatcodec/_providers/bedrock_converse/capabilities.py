"""What AWS Bedrock Converse can carry (the record shared rules and laws read).

Sources: botocore's ``bedrock-runtime`` service model (2023-09-30): ``ToolChoice`` is
``auto``, ``any`` or ``tool`` (no ``none``); ``ConversationRole`` is ``user``,
``assistant`` or ``system`` beside the top-level ``system`` list (Claude on Bedrock folds
such a turn into ``system``: ``rules.py``); ``ContentBlock`` holds ``image``, ``audio``,
``video`` and ``document``, and ``ToolResultContentBlock`` ``image``, ``video`` and
``document``; ``CachePointBlock``. Reasoning goes
through ``additionalModelRequestFields`` as Claude's ``thinking`` (``enabled`` with a
budget, ``adaptive``, ``disabled``: the same models as on the Anthropic API, where Opus
4.7+ take adaptive thinking only; provider-changes-2026.md) and ``outputConfig.effort``.
"""

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="Bedrock Converse",
    tool_choice=frozenset({"auto", "required", "tool"}),  # no "none": toolChoice has auto, any, tool
    system="top_level_and_turns",
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,
    media=frozenset({"image", "audio", "video", "document"}),
    tool_result_media=frozenset({"image", "video", "document"}),
    reasoning=frozenset({"budget", "effort", "adaptive", "disabled"}),
    signed_thinking=True,
    cache_markers=True,  # cachePoint blocks
    multiple_choices=False,
    call_ids=True,
    strict_reading=True,
    object_arguments=True,  # a call's arguments are a JSON object on this wire
)
