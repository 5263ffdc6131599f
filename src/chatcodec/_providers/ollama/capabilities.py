"""What Ollama's ``/api/chat`` can carry (the record shared rules and laws read)."""

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="Ollama",
    tool_choice=frozenset(),  # no tool_choice: the model decides
    system="messages",
    empty_system=False,
    developer_role=False,
    freeform_calls=False,  # a call is a function name and an arguments object
    results_follow_calls=False,  # the template renders the history in any order
    media=frozenset({"image"}),  # base64 images beside a message's text
    tool_result_media=frozenset({"image"}),  # a tool message has images too
    reasoning=frozenset({"effort", "disabled"}),  # think: a level, or true / false
    signed_thinking=False,
    cache_markers=False,
    multiple_choices=False,
    call_ids=True,  # since 2025 (api.ToolCall.ID, Message.ToolCallID); older bodies pair by name and order
    strict_reading=False,  # no published field set (known_fields.json) nor structure role to read strictly
    logprobs=True,  # a choice's logprobs: kit/token_logprobs.py
    logprob_settings=True,  # logprobs, top_logprobs
    object_arguments=True,  # a call's arguments are a JSON object on this wire
)
