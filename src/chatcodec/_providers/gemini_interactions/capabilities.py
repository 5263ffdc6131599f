"""What the Interactions API can carry (the record shared rules and laws read)."""

from chatcodec.contract import Capabilities

CAPABILITIES = Capabilities(
    display_name="Gemini Interactions",
    tool_choice=frozenset({"auto", "none", "required", "tool"}),
    system="top_level",  # system_instruction, one string
    empty_system=False,
    developer_role=False,
    freeform_calls=False,
    results_follow_calls=True,  # function_result steps after the model's function_call steps
    media=frozenset({"image", "audio", "video", "document"}),
    tool_result_media=frozenset({"image", "audio", "video", "document"}),  # FunctionResultSubcontent
    reasoning=frozenset({"effort"}),  # thinking_level
    signed_thinking=True,  # a thought step's signature
    cache_markers=False,
    multiple_choices=False,  # an Interaction is one answer
    call_ids=True,  # function_result.call_id names its function_call's id
    strict_reading=True,  # known_fields.json, from google-genai 3.6.1's Interactions types
    object_arguments=True,  # a call's arguments are a JSON object on this wire
)
"""The Interactions API (google-genai 3.6.1 ``google.genai._gaos.types.interactions``)."""
