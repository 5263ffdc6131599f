"""What the OpenAI Responses API can carry (the record shared rules and laws read)."""

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="The Responses API",
    tool_choice=frozenset({"auto", "none", "required", "tool"}),
    system="messages",
    empty_system=False,
    developer_role=True,
    freeform_calls=True,  # custom_tool_call items (a tool_use of kind custom)
    results_follow_calls=False,  # input may hold a message between function_call and its output
    # no audio: the SDK's message content (ResponseInputMessageContentListParam) has no audio
    # part; only an input_audio read from Responses goes back (parts.py, INPUT_AUDIO)
    media=frozenset({"image", "document"}),
    tool_result_media=frozenset({"image", "document"}),
    # reasoning off is effort "none" (settings.py; openai 3.54 shared_params/reasoning.py)
    reasoning=frozenset({"effort", "disabled"}),
    signed_thinking=True,  # reasoning items with encrypted_content
    cache_markers=True,  # prompt_cache_breakpoint on input parts
    multiple_choices=False,
    call_ids=True,
    strict_reading=True,
    logprobs=True,  # output_text parts' logprobs (logprobs.py)
    logprob_settings=True,  # top_logprobs, include message.output_text.logprobs
    citations=frozenset({"request", "response", "stream"}),  # output_text.annotations url_citation (parts.py)
)
