"""What the OpenAI Responses API can carry (the record shared rules and laws read)."""

from chatcodec.providers.kit.capabilities import Capabilities

CAPABILITIES = Capabilities(
    display_name="The Responses API",
    tool_choice=frozenset({"auto", "none", "required", "tool"}),
    system="messages",
    developer_role=True,
    freeform_calls=False,
    results_follow_calls=False,  # input may hold a message between function_call and its output
    media=frozenset({"image", "audio", "document"}),
    tool_result_media=frozenset({"image", "document"}),
    reasoning=frozenset({"effort"}),
    signed_thinking=True,  # reasoning items with encrypted_content
    cache_markers=True,  # prompt_cache_breakpoint on input parts
    multiple_choices=False,
    call_ids=True,
)
