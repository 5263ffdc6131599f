"""What OpenAI Chat Completions can carry (the record shared rules and laws read)."""

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="OpenAI Chat",
    tool_choice=frozenset({"auto", "none", "required", "tool"}),
    system="messages",
    empty_system=False,
    developer_role=True,
    freeform_calls=True,  # custom tool calls (type "custom") are sent as they were read
    results_follow_calls=True,  # "An assistant message with 'tool_calls' must be followed by tool messages"
    media=frozenset({"image", "audio", "video", "document"}),  # video: the compatible servers' video_url
    tool_result_media=frozenset(),  # a tool message holds text parts only
    reasoning=frozenset({"effort"}),
    signed_thinking=False,
    cache_markers=True,  # prompt_cache_breakpoint on parts (gpt-5.6+)
    multiple_choices=True,
    call_ids=True,
    strict_reading=True,
    logprobs=True,  # a choice's logprobs: kit/token_logprobs.py
    logprob_settings=True,  # logprobs, top_logprobs
    citations=frozenset({"response", "stream"}),  # url_citation annotations: a response message's, a finish delta's
)
