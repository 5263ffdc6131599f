"""What AWS Bedrock Converse can carry (the record shared rules and laws read)."""

from chatcodec.providers.kit.capabilities import Capabilities

CAPABILITIES = Capabilities(
    display_name="Bedrock Converse",
    tool_choice=frozenset({"auto", "required", "tool"}),  # no "none": toolChoice has auto, any, tool
    system="top_level",
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,
    media=frozenset({"image", "audio", "document"}),
    tool_result_media=frozenset({"image", "document"}),
    reasoning=frozenset({"budget", "effort", "disabled"}),
    signed_thinking=True,
    cache_markers=True,  # cachePoint blocks
    multiple_choices=False,
    call_ids=True,
)
