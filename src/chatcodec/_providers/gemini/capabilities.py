"""What the Gemini API can carry (the record shared rules and laws read)."""

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="Gemini",
    tool_choice=frozenset({"auto", "none", "required", "tool"}),
    system="top_level",
    empty_system=False,  # a Content of no parts is refused: "contents.parts must not be empty"
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,  # a functionResponse turn right after the functionCall turn
    media=frozenset({"image", "audio", "video", "document"}),
    tool_result_media=frozenset({"image", "audio", "document"}),  # FunctionResponse.parts
    reasoning=frozenset({"effort", "budget", "disabled"}),
    signed_thinking=True,
    cache_markers=False,
    multiple_choices=True,  # candidateCount
    call_ids=False,  # ids are optional; matched by name and order
    strict_reading=True,
    logprobs=True,  # a candidate's logprobsResult (logprobs.py)
    logprob_settings=True,  # generationConfig.responseLogprobs, logprobs
    citations=frozenset({"response", "stream"}),  # a candidate's groundingMetadata (grounding.py); a Content has none
    object_arguments=True,  # a call's arguments are a JSON object on this wire
)
