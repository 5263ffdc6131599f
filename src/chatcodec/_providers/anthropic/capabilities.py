"""What the Anthropic Messages API can carry (the record shared rules and laws read)."""

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="Anthropic",
    tool_choice=frozenset({"auto", "none", "required", "tool"}),
    system="top_level_and_turns",
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,  # "tool_use ids were found without tool_result blocks immediately after"
    media=frozenset({"image", "document"}),
    tool_result_media=frozenset({"image", "document"}),
    reasoning=frozenset({"effort", "budget", "adaptive", "disabled"}),
    signed_thinking=True,
    cache_markers=True,
    multiple_choices=False,
    call_ids=True,
    strict_reading=True,
    object_arguments=True,  # a call's arguments are a JSON object on this wire
    harness_roles={"ctx": "user", "msg": "user"},  # Claude Code 2.1.154+ (vllm-project/vllm#44000)
)
