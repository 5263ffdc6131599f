"""The codec contract: what a codec written outside chatcodec imports, and nothing else.

:func:`chatcodec.register_codec` is public, so the contract a codec fills in is public too:
a provider folder (inside chatcodec or in another package) is written against these names,
and a name here is a promise kept across releases. Everything else a built-in folder may
use (a sibling folder, a family's rules, the strict checks) is internal and may move.

- the codec class and the protocol each of its role modules satisfies:
  :class:`ProviderCodec`, :class:`RequestFunctions`, :class:`ResponseFunctions`,
  :class:`MessageFunctions`, :class:`PartFunctions`, ... (one signature for every provider);
- the records a folder fills in: :class:`Capabilities` (what its wire carries),
  :class:`Edge` (what it says on HTTP), :class:`Detection`, :class:`Structure`,
  :class:`ProviderRules`, :class:`OptionTable`;
- what every role function takes: :class:`EncodeContext`, :class:`DecodeContext`;
- the stream path: :class:`StreamBuilder` (what a stream decoder drives),
  :class:`StreamDecoder` / :class:`StreamEncoder` (what the codec returns), :func:`read_event`,
  and the stream records (:class:`TextDeltaRecord`, ... :data:`AnyStreamRecord`) a conversion's
  events travel as, which an encoder with ``stream_contract = 2`` (:class:`RecordStreamEncoder`)
  reads instead of the public models (docs/contributing.md, "Stream records");
- the kit: the mechanics every codec is written with (bags of leftover wire fields,
  markers, tool names and arguments, wire shapes), as the built-in folders use them.
- :mod:`closed_schema`, one namespace (``closed_schema.text()``, ``closed_schema.closed_like``...):
  the builders of a reader's closed front schema, kept apart as their names are generic.

Names load on first access (PEP 562), as in ``chatcodec`` itself: importing the contract
loads no canonical model, and type checkers see only the names imported below. The lists
below are kept by ``tools/exports.py`` (run ``python tools/exports.py``): the
``TYPE_CHECKING`` imports are the one list, ``__all__`` and the lazy table are generated
from them.
"""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from chatcodec._canonical_validation import validate_canonical, validate_with
    from chatcodec._codec_protocols import RecordStreamEncoder, StreamDecoder, StreamEncoder
    from chatcodec._compat import is_local_file_url, local_file_why
    from chatcodec._error_statuses import error_status
    from chatcodec._errors import Problem, as_chatcodec_error, json_path, problems_error, rule_error
    from chatcodec._losses import LossRecorder, Steps
    from chatcodec._model._base import deferred_adapter
    from chatcodec._model.stream_events import PartLifecycleEvent
    from chatcodec._model.stream_record_checks import plain_usage
    from chatcodec._model.stream_records import (
        AnyStreamRecord,
        ChoiceMetadataRecord,
        ErrorRecord,
        FinishRecord,
        PartLifecycleRecord,
        PartRecord,
        RefusalDeltaRecord,
        ResponseStartRecord,
        TextDeltaRecord,
        TextEndRecord,
        TextStartRecord,
        ThinkingDeltaRecord,
        ThinkingEndRecord,
        ThinkingSignatureDeltaRecord,
        ThinkingStartRecord,
        ToolCallDeltaRecord,
        ToolCallEndRecord,
        ToolCallStartRecord,
        UsageRecord,
    )
    from chatcodec._narrow import as_count, as_dict, as_list, as_sampling_number, is_a_double, is_dict, is_list
    from chatcodec._option_table import OptionTable
    from chatcodec._payloads import (
        deeper_than,
        load_object,
        loaded,
        loads,
        refuse_unwritable_numbers,
        too_deep,
        unwritable_number,
    )
    from chatcodec._providers.contract.capabilities import Capabilities
    from chatcodec._providers.contract.context import (
        MODEL_OPTION,
        RULE_OPTIONS,
        DecodeContext,
        EncodeContext,
        read_options,
    )
    from chatcodec._providers.contract.detection import Detection
    from chatcodec._providers.contract.edge import (
        Call,
        CountFront,
        CountUpstream,
        Edge,
        ErrorShape,
        Framing,
        Front,
        ModelList,
        RouteError,
        Upstream,
        UpstreamModels,
        bearer_headers,
        bearer_key,
        body_call,
        count_of,
        model_in_path,
        read_data_ids,
        read_nested_error,
    )
    from chatcodec._providers.contract.envelopes import BODY, ID, BatchRows, EnvelopeBody, EnvelopeLayout, IdRule
    from chatcodec._providers.contract.extension import Extension
    from chatcodec._providers.contract.framing import StreamFraming
    from chatcodec._providers.contract.provider_codec import ProviderCodec
    from chatcodec._providers.contract.roles import (
        CapabilitiesTable,
        DialectFunctions,
        EdgeTable,
        FinishReasonFunctions,
        JsonFront,
        MessageFunctions,
        PartFunctions,
        RequestFunctions,
        ResponseFunctions,
        RulesTable,
        SettingsFunctions,
        StructureTable,
        ToolFunctions,
        UsageFunctions,
    )
    from chatcodec._providers.contract.structure import (
        Location,
        Structure,
        ToolStep,
        Turn,
        TurnOrder,
        TurnProblem,
        role_at,
        spoken,
    )
    from chatcodec._providers.contract.target_rules import (
        ModelFamily,
        ProviderRules,
        RequiredField,
        RuleCall,
        SamplingRange,
        TargetRule,
        carries_nothing,
        is_default,
        range_rule,
    )
    from chatcodec._providers.history.turns import history_for, holds_empty_content
    from chatcodec._providers.kit import closed_schema, servers
    from chatcodec._providers.kit.arguments import arguments_object, compact_json
    from chatcodec._providers.kit.bags import (
        ABSENT,
        NULLS,
        absent_keys,
        bag_key,
        holds_a_container,
        is_marker,
        keeps_a_container,
        kept_object,
        leftovers,
        mark_absent,
        present,
        restore_fields,
        split_fields,
        unmapped,
        wire_fields,
        wire_key,
    )
    from chatcodec._providers.kit.cache import decode_cache_control, encode_cache_control
    from chatcodec._providers.kit.errors import canonical_refusal, path
    from chatcodec._providers.kit.field_sets import sdk_fields
    from chatcodec._providers.kit.integer_spelling import mark_integers, respell_integers
    from chatcodec._providers.kit.invented import NOW, report_invented, report_invented_counts
    from chatcodec._providers.kit.logprob_settings import read_logprob_settings, write_logprob_settings
    from chatcodec._providers.kit.media_types import lower_case_source
    from chatcodec._providers.kit.null_fields import with_unknown_nulls
    from chatcodec._providers.kit.origins import Origin, runs, split_turn, system_origin
    from chatcodec._providers.kit.plain_shapes import PLAIN_MESSAGE, PLAIN_TEXT, PLAIN_TOOL_RESULT, PLAIN_TOOL_USE
    from chatcodec._providers.kit.provider_kit import TOOL_ORDER, ProviderKit, meaningful_markers
    from chatcodec._providers.kit.reasoning import budget_for_effort, effort_word, reasoning_for_effort, thinking_on
    from chatcodec._providers.kit.service_tier import read_tier, report_tier, report_user, write_tier
    from chatcodec._providers.kit.stream_errors import report_after_error
    from chatcodec._providers.kit.stream_reading import FeedByReading, read_event, read_in_batches, read_one
    from chatcodec._providers.kit.token_logprobs import (
        put_logprobs,
        read_token_logprobs,
        unicode_text,
        write_token_logprobs,
    )
    from chatcodec._providers.kit.tool_arguments import input_object
    from chatcodec._providers.kit.tool_id_mapping import ToolIdMapping
    from chatcodec._providers.kit.tool_names import (
        COMMON_TOOL_NAMES,
        ToolNameRule,
        tool_name,
        tool_name_map,
        unblank_tool_name,
    )
    from chatcodec._providers.kit.wire import (
        constrained,
        discriminator,
        sdk_kinds,
        shape_fields,
        stands_for,
        tag,
        tagged,
        wire_shape,
    )
    from chatcodec.streams._builder import PartBuilder, StreamBuilder, plain_counts


CONTRACT_VERSION: _typing.Final = 1
"""The version of this contract, raised only when a release breaks a codec written against it.

While it stays the same, a release keeps: every name in ``__all__`` (moved names stay
importable from here); the role protocols' signatures (a new parameter comes with a default,
and a new role function is optional, the codec working without it); the records' fields
(``Capabilities``, ``Edge``, ``Detection``, ``Structure``, ``ProviderRules``...: a new field
has a default); and what the laws demand of a codec. A codec may check
it at import and refuse a contract it was not written for, as a Vercel AI SDK provider
states its ``specificationVersion`` (docs/contributing.md, "The contract's version")."""

__all__ = [
    "ABSENT",
    "BODY",
    "COMMON_TOOL_NAMES",
    "CONTRACT_VERSION",
    "ID",
    "MODEL_OPTION",
    "NOW",
    "NULLS",
    "PLAIN_MESSAGE",
    "PLAIN_TEXT",
    "PLAIN_TOOL_RESULT",
    "PLAIN_TOOL_USE",
    "RULE_OPTIONS",
    "TOOL_ORDER",
    "AnyStreamRecord",
    "BatchRows",
    "Call",
    "Capabilities",
    "CapabilitiesTable",
    "ChoiceMetadataRecord",
    "CountFront",
    "CountUpstream",
    "DecodeContext",
    "Detection",
    "DialectFunctions",
    "Edge",
    "EdgeTable",
    "EncodeContext",
    "EnvelopeBody",
    "EnvelopeLayout",
    "ErrorRecord",
    "ErrorShape",
    "Extension",
    "FeedByReading",
    "FinishReasonFunctions",
    "FinishRecord",
    "Framing",
    "Front",
    "IdRule",
    "JsonFront",
    "Location",
    "LossRecorder",
    "MessageFunctions",
    "ModelFamily",
    "ModelList",
    "OptionTable",
    "Origin",
    "PartBuilder",
    "PartFunctions",
    "PartLifecycleEvent",
    "PartLifecycleRecord",
    "PartRecord",
    "Problem",
    "ProviderCodec",
    "ProviderKit",
    "ProviderRules",
    "RecordStreamEncoder",
    "RefusalDeltaRecord",
    "RequestFunctions",
    "RequiredField",
    "ResponseFunctions",
    "ResponseStartRecord",
    "RouteError",
    "RuleCall",
    "RulesTable",
    "SamplingRange",
    "SettingsFunctions",
    "Steps",
    "StreamBuilder",
    "StreamDecoder",
    "StreamEncoder",
    "StreamFraming",
    "Structure",
    "StructureTable",
    "TargetRule",
    "TextDeltaRecord",
    "TextEndRecord",
    "TextStartRecord",
    "ThinkingDeltaRecord",
    "ThinkingEndRecord",
    "ThinkingSignatureDeltaRecord",
    "ThinkingStartRecord",
    "ToolCallDeltaRecord",
    "ToolCallEndRecord",
    "ToolCallStartRecord",
    "ToolFunctions",
    "ToolIdMapping",
    "ToolNameRule",
    "ToolStep",
    "Turn",
    "TurnOrder",
    "TurnProblem",
    "Upstream",
    "UpstreamModels",
    "UsageFunctions",
    "UsageRecord",
    "absent_keys",
    "arguments_object",
    "as_chatcodec_error",
    "as_count",
    "as_dict",
    "as_list",
    "as_sampling_number",
    "bag_key",
    "bearer_headers",
    "bearer_key",
    "body_call",
    "budget_for_effort",
    "canonical_refusal",
    "carries_nothing",
    "closed_schema",
    "compact_json",
    "constrained",
    "count_of",
    "decode_cache_control",
    "deeper_than",
    "deferred_adapter",
    "discriminator",
    "effort_word",
    "encode_cache_control",
    "error_status",
    "history_for",
    "holds_a_container",
    "holds_empty_content",
    "input_object",
    "is_a_double",
    "is_default",
    "is_dict",
    "is_list",
    "is_local_file_url",
    "is_marker",
    "json_path",
    "keeps_a_container",
    "kept_object",
    "leftovers",
    "load_object",
    "loaded",
    "loads",
    "local_file_why",
    "lower_case_source",
    "mark_absent",
    "mark_integers",
    "meaningful_markers",
    "model_in_path",
    "path",
    "plain_counts",
    "plain_usage",
    "present",
    "problems_error",
    "put_logprobs",
    "range_rule",
    "read_data_ids",
    "read_event",
    "read_in_batches",
    "read_logprob_settings",
    "read_nested_error",
    "read_one",
    "read_options",
    "read_tier",
    "read_token_logprobs",
    "reasoning_for_effort",
    "refuse_unwritable_numbers",
    "report_after_error",
    "report_invented",
    "report_invented_counts",
    "report_tier",
    "report_user",
    "respell_integers",
    "restore_fields",
    "role_at",
    "rule_error",
    "runs",
    "sdk_fields",
    "sdk_kinds",
    "servers",
    "shape_fields",
    "split_fields",
    "split_turn",
    "spoken",
    "stands_for",
    "system_origin",
    "tag",
    "tagged",
    "thinking_on",
    "too_deep",
    "tool_name",
    "tool_name_map",
    "unblank_tool_name",
    "unicode_text",
    "unmapped",
    "unwritable_number",
    "validate_canonical",
    "validate_with",
    "wire_fields",
    "wire_key",
    "wire_shape",
    "with_unknown_nulls",
    "write_logprob_settings",
    "write_tier",
    "write_token_logprobs",
]

_EXPORTED_FROM: dict[str, str] = {
    name: module
    for module, names in (
        (
            "chatcodec._providers.kit.bags",
            "ABSENT NULLS absent_keys bag_key holds_a_container is_marker keeps_a_container kept_object leftovers "
            "mark_absent present restore_fields split_fields unmapped wire_fields wire_key",
        ),
        ("chatcodec._providers.contract.envelopes", "BODY ID BatchRows EnvelopeBody EnvelopeLayout IdRule"),
        (
            "chatcodec._providers.kit.tool_names",
            "COMMON_TOOL_NAMES ToolNameRule tool_name tool_name_map unblank_tool_name",
        ),
        ("chatcodec._providers.contract.context", "MODEL_OPTION RULE_OPTIONS DecodeContext EncodeContext read_options"),
        ("chatcodec._providers.kit.invented", "NOW report_invented report_invented_counts"),
        ("chatcodec._providers.kit.plain_shapes", "PLAIN_MESSAGE PLAIN_TEXT PLAIN_TOOL_RESULT PLAIN_TOOL_USE"),
        ("chatcodec._providers.kit.provider_kit", "TOOL_ORDER ProviderKit meaningful_markers"),
        (
            "chatcodec._model.stream_records",
            "AnyStreamRecord ChoiceMetadataRecord ErrorRecord FinishRecord PartLifecycleRecord PartRecord "
            "RefusalDeltaRecord ResponseStartRecord TextDeltaRecord TextEndRecord TextStartRecord "
            "ThinkingDeltaRecord ThinkingEndRecord ThinkingSignatureDeltaRecord ThinkingStartRecord "
            "ToolCallDeltaRecord ToolCallEndRecord ToolCallStartRecord UsageRecord",
        ),
        (
            "chatcodec._providers.contract.edge",
            "Call CountFront CountUpstream Edge ErrorShape Framing Front ModelList RouteError Upstream "
            "UpstreamModels bearer_headers bearer_key body_call count_of model_in_path read_data_ids "
            "read_nested_error",
        ),
        ("chatcodec._providers.contract.capabilities", "Capabilities"),
        (
            "chatcodec._providers.contract.roles",
            "CapabilitiesTable DialectFunctions EdgeTable FinishReasonFunctions JsonFront MessageFunctions "
            "PartFunctions RequestFunctions ResponseFunctions RulesTable SettingsFunctions StructureTable "
            "ToolFunctions UsageFunctions",
        ),
        ("chatcodec._providers.contract.detection", "Detection"),
        ("chatcodec._providers.contract.extension", "Extension"),
        ("chatcodec._providers.kit.stream_reading", "FeedByReading read_event read_in_batches read_one"),
        (
            "chatcodec._providers.contract.structure",
            "Location Structure ToolStep Turn TurnOrder TurnProblem role_at spoken",
        ),
        ("chatcodec._losses", "LossRecorder Steps"),
        (
            "chatcodec._providers.contract.target_rules",
            "ModelFamily ProviderRules RequiredField RuleCall SamplingRange TargetRule carries_nothing is_default "
            "range_rule",
        ),
        ("chatcodec._option_table", "OptionTable"),
        ("chatcodec._providers.kit.origins", "Origin runs split_turn system_origin"),
        ("chatcodec.streams._builder", "PartBuilder StreamBuilder plain_counts"),
        ("chatcodec._model.stream_events", "PartLifecycleEvent"),
        ("chatcodec._errors", "Problem as_chatcodec_error json_path problems_error rule_error"),
        ("chatcodec._providers.contract.provider_codec", "ProviderCodec"),
        ("chatcodec._codec_protocols", "RecordStreamEncoder StreamDecoder StreamEncoder"),
        ("chatcodec._providers.contract.framing", "StreamFraming"),
        ("chatcodec._providers.kit.tool_id_mapping", "ToolIdMapping"),
        ("chatcodec._providers.kit.arguments", "arguments_object compact_json"),
        ("chatcodec._narrow", "as_count as_dict as_list as_sampling_number is_a_double is_dict is_list"),
        ("chatcodec._providers.kit.reasoning", "budget_for_effort effort_word reasoning_for_effort thinking_on"),
        ("chatcodec._providers.kit.errors", "canonical_refusal path"),
        ("chatcodec._providers.kit", "closed_schema servers"),
        (
            "chatcodec._providers.kit.wire",
            "constrained discriminator sdk_kinds shape_fields stands_for tag tagged wire_shape",
        ),
        ("chatcodec._providers.kit.cache", "decode_cache_control encode_cache_control"),
        (
            "chatcodec._payloads",
            "deeper_than load_object loaded loads refuse_unwritable_numbers too_deep unwritable_number",
        ),
        ("chatcodec._model._base", "deferred_adapter"),
        ("chatcodec._error_statuses", "error_status"),
        ("chatcodec._providers.history.turns", "history_for holds_empty_content"),
        ("chatcodec._providers.kit.tool_arguments", "input_object"),
        ("chatcodec._compat", "is_local_file_url local_file_why"),
        ("chatcodec._providers.kit.media_types", "lower_case_source"),
        ("chatcodec._providers.kit.integer_spelling", "mark_integers respell_integers"),
        ("chatcodec._model.stream_record_checks", "plain_usage"),
        (
            "chatcodec._providers.kit.token_logprobs",
            "put_logprobs read_token_logprobs unicode_text write_token_logprobs",
        ),
        ("chatcodec._providers.kit.logprob_settings", "read_logprob_settings write_logprob_settings"),
        ("chatcodec._providers.kit.service_tier", "read_tier report_tier report_user write_tier"),
        ("chatcodec._providers.kit.stream_errors", "report_after_error"),
        ("chatcodec._providers.kit.field_sets", "sdk_fields"),
        ("chatcodec._canonical_validation", "validate_canonical validate_with"),
        ("chatcodec._providers.kit.null_fields", "with_unknown_nulls"),
    )
    for name in names.split()
}

_LABELLED_HERE = ("chatcodec._providers.kit.", "chatcodec._providers.history.")
"""The modules whose contract names are shown as ``chatcodec.contract.<name>`` when reached
through here; every other defining module labels its own public names where they are defined
(:mod:`chatcodec._public_label`). The kit and the history are the built-in folders' shared
helpers, whose names are moving into the contract (issue 64)."""


if not _typing.TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is an error

    def __getattr__(name: str) -> _typing.Any:
        module_name = _EXPORTED_FROM.get(name)
        if module_name is None:
            raise AttributeError(f"module 'chatcodec.contract' has no attribute {name!r}")
        module = _importlib.import_module(module_name)
        # a namespace (closed_schema) is a module: its package holds it once it is imported
        value = getattr(module, name) if hasattr(module, name) else _importlib.import_module(f"{module_name}.{name}")
        if module_name.startswith(_LABELLED_HERE) and callable(value):  # a class or function, not a constant
            from chatcodec._public_label import shown_as

            shown_as("chatcodec.contract", value)
        globals()[name] = value  # later lookups skip this function
        return value


def __dir__() -> list[str]:
    return sorted({*(name for name in globals() if not name.startswith("_")), *__all__})
