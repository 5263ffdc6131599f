"""The public face, pinned: every module a user can import without an underscore, and its names.

A name importable without an underscore is a promise (httpx's ``test_exported_members``;
pydantic keeps its machinery under ``pydantic._internal``). Everything else chatcodec holds
is under a module whose name starts with ``_`` and may move. A change to this table is a
change to the API: make it on purpose, with a CHANGELOG line, and keep ``make typecheck``'s
symbol count (``tools/public_symbols.py``, ``pyright --verifytypes``) in step.
A module without ``__all__`` is pinned by the names it defines at its top level.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import chatcodec

ROOT = Path(chatcodec.__file__).parent

PUBLIC_MODULES: dict[str, str] = {
    "chatcodec": (
        "AnyMessage AnyPart AnyStreamEvent AssistantContentPart AssistantMessage AudioPart Base64Source "
        "BatchConverter BoundaryMessages CacheControl ChatRequest ChatRequestData ChatResponse ChatResponseData "
        "ChatcodecError "
        "ChoiceMetadataEvent Codec CodecNotAvailableError ContentPart ContentPartData ContentRule "
        "Conversation DocumentPart ErrorEvent FileSource FinishEvent FinishReason ImagePart Loss LossError "
        "LossKind LossWarning MESSAGES_ADAPTER MESSAGE_ADAPTER MISSING_RESULT_TEXT Message MessageData "
        "Messages OnLoss OpaquePart OptionError PROVIDER_NAMES PartEvent PayloadError ProviderAPIError "
        "ProviderLookupError ReasoningConfig ReasoningEffort RefusalDeltaEvent RefusalPart ResponseChoice "
        "ResponseFormat ResponseStartEvent SCHEMA_KINDS SCHEMA_VERSION SSEEvent SSEParser "
        "STREAM_EVENT_ADAPTER SchemaKind StreamAccumulator StreamConverter StreamDecoder StreamEncoder "
        "StreamError StreamEvent StreamEventData SupportsMessageDecoding SupportsStreamDecoder "
        "SupportsStreamEncoder SystemContentPart SystemMessage TextDeltaEvent TextEndEvent TextMessage "
        "TextPart TextSource TextStartEvent ThinkingDeltaEvent ThinkingEndEvent ThinkingPart "
        "ThinkingSignatureDeltaEvent ThinkingStartEvent TokenLogprob ToolArgumentsError ToolCallDeltaEvent "
        "ToolCallEndEvent ToolCallStartEvent ToolChoice ToolDefinition ToolMessage ToolResultContentPart "
        "TemplateError TemplateLimits TemplateProfile Rendering RenderConverter SampledTurn NextPrompt next_prompt "
        "MessageTokens message_token_spans trainer_rows "
        "read_records RecordedEpisode read_episodes "
        "ToolResultPart ToolUsePart TopLogprob UnifiedFinishReason UnknownProviderError UrlCitation UrlSource Usage "
        "UsageEvent "
        "UserContentPart UserMessage ValidationError VideoPart accumulate_stream aconvert_stream "
        "available_formats convert_request convert_response convert_stream decode_request decode_response "
        "decode_stream dump_messages encode_request encode_response encode_stream error_body error_event "
        "format_sse get_codec json_schema parse_completion read_error register_codec registered_providers "
        "render_conversation render render_message render_turns session_subagents template_profile to_sse "
        "trainer_samples unregister_codec validate_message "
        "validate_messages validate_model warm_up"
    ),
    "chatcodec.batch": "",
    "chatcodec.cli": "main",
    "chatcodec.codec_kit": (
        "ABSENT_MARKER BODY_SLOT COMMON_TOOL_NAMES ID_SLOT INVENTED_TIME MODEL_OPTION NULLS_MARKER "
        "PLAIN_MESSAGE PLAIN_TEXT PLAIN_TOOL_RESULT PLAIN_TOOL_USE RULE_OPTIONS TOOL_ORDER FeedByReading "
        "Origin Problem ProviderKit ToolIdMapping ToolNameRule absent_keys arguments_object "
        "as_chatcodec_error as_count as_dict as_list as_sampling_number bag_key bearer_headers bearer_key "
        "body_call budget_for_effort canonical_refusal checked_json_value closed_schema compact_json "
        "constrained count_written decode_cache_control deeper_than deferred_adapter effort_word "
        "encode_cache_control error_status history_for holds_a_container holds_empty_content input_object "
        "is_a_double is_default_sampling is_dict is_list is_local_file_url is_marker is_neutral_setting "
        "json_path json_path_of keeps_a_container kept_object leftovers load_object local_file_why "
        "lower_case_source mark_absent mark_integers meaningful_markers media_type_essence model_in_path "
        "origins_by_run "
        "plain_counts plain_usage present_keys problems_error put_logprobs range_rule read_data_ids "
        "read_event read_in_batches read_json_text read_logprob_settings read_nested_error read_one_event "
        "read_options read_tier read_token_logprobs reasoning_for_effort refuse_unwritable_numbers "
        "report_after_error report_invented report_invented_counts report_tier report_user respell_integers "
        "restore_fields role_at rule_error sdk_fields sdk_kinds servers shape_fields source_from_url split_fields "
        "split_turn "
        "spoken_turns stands_for system_origin tagged thinking_on too_deep tool_name tool_name_map "
        "unblank_tool_name unicode_text union_discriminator union_tag unmapped_fields unwritable_number "
        "validate_canonical validate_shape validate_with wire_fields wire_key wire_shape with_unknown_nulls "
        "write_logprob_settings write_tier write_token_logprobs"
    ),
    "chatcodec.contract": (
        "CONTRACT_VERSION AnyStreamRecord BatchRows Call Capabilities CapabilitiesTable ChoiceMetadataRecord "
        "CountFront CountUpstream DecodeContext Detection DialectFunctions Edge EdgeTable EncodeContext "
        "EnvelopeBody EnvelopeLayout ErrorRecord ErrorShape Extension FinishReasonFunctions FinishRecord "
        "Framing Front IdRule JsonFront Location LossRecorder MessageFunctions ModelFamily ModelList "
        "OptionTable PartBuilder PartFunctions PartLifecycleEvent PartLifecycleRecord PartRecord "
        "ProviderCodec ProviderRules Reading RecordStreamEncoder RefusalDeltaRecord RequestFunctions RequiredField "
        "ResponseFunctions ResponseStartRecord RouteError RuleCall RulesTable SampledIds SamplingRange "
        "SettingsFunctions "
        "Steps StreamBuilder StreamDecoder StreamEncoder StreamFraming Structure StructureTable TakenIds TargetRule "
        "TextDeltaRecord TextEndRecord TextStartRecord ThinkingDeltaRecord ThinkingEndRecord "
        "ThinkingSignatureDeltaRecord ThinkingStartRecord ToolCallDeltaRecord ToolCallEndRecord "
        "ToolCallStartRecord ToolFunctions ToolStep Turn TurnOrder TurnProblem Upstream UpstreamModels "
        "UsageFunctions UsageRecord"
    ),
    "chatcodec.datasets": (
        "ArrowConverter COLUMNAR_KINDS ColumnarKind analyst_tables arrow_schema columnar_layout form_of "
        "from_columnar from_table layout_document row_formats to_columnar to_table without_arrow_nulls"
    ),
    "chatcodec.options": (
        "AnthropicOptions BedrockConverseOptions EncoderOptions GeminiOptions OllamaOptions OpenAIChatOptions "
        "OpenAIResponsesOptions ReadingOptions RuleOptions StrictSchema UnsignedThinking"
    ),
    "chatcodec.serve": "ServeConfig app_from_environment create_app",
    "chatcodec.streams": "",
    "chatcodec.testing": (
        "BagSamples LawCase ProviderEntry SingleHop Splitter StreamCases StreamPair "
        "assistant_content_parts assistant_messages audio_parts base64_sources cache_controls "
        "chat_requests chat_responses check_codec chunkings codec_law_cases conversations document_parts "
        "events_from_response file_sources finish_reasons "
        "image_parts json_objects json_values law_cases meaningful_markers messages opaque_parts provider_metadata "
        "reasoning_configs refusal_parts response_choices response_formats stream_events system_messages "
        "text_messages text_parts text_sources thinking_parts tool_choices tool_definitions tool_messages "
        "tool_result_parts tool_use_parts url_sources usages user_messages video_parts"
    ),
}
"""Each public module's names, space-separated (a module without ``__all__``: its top-level definitions)."""


def _public_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for file in sorted(ROOT.rglob("*.py")):
        parts = list(file.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            found[".".join(parts)] = file
    return found


def _names(module_name: str, file: Path) -> list[str]:
    module = importlib.import_module(module_name)
    exported = getattr(module, "__all__", None)
    if exported is not None:
        return sorted(exported)
    defined: set[str] = set()
    for node in ast.parse(file.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            defined |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            defined.add(node.target.id)
    return sorted(name for name in defined if not name.startswith("_"))


def test_the_public_modules_are_the_pinned_ones() -> None:
    assert sorted(_public_modules()) == sorted(PUBLIC_MODULES)


@pytest.mark.parametrize("module_name", sorted(PUBLIC_MODULES))
def test_each_public_module_exports_exactly_its_pinned_names(module_name: str) -> None:
    assert _names(module_name, _public_modules()[module_name]) == sorted(PUBLIC_MODULES[module_name].split())


def test_every_pinned_name_resolves() -> None:
    missing = [
        f"{module_name}.{name}"
        for module_name, names in PUBLIC_MODULES.items()
        for name in names.split()
        if not hasattr(importlib.import_module(module_name), name)
    ]
    assert missing == []
