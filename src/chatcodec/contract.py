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
  :class:`StreamDecoder` / :class:`StreamEncoder` (what the codec returns), :func:`read_event`;
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
    from chatcodec._compat import is_local_file_url, local_file_why
    from chatcodec._error_statuses import error_status
    from chatcodec._errors import Problem, as_chatcodec_error, json_path, problems_error, rule_error
    from chatcodec._losses import LossRecorder, Steps
    from chatcodec._model._base import deferred_adapter
    from chatcodec._model.stream_events import PartLifecycleEvent
    from chatcodec._narrow import as_count, as_dict, as_list, as_sampling_number, is_a_double, is_dict, is_list
    from chatcodec._option_table import OptionTable
    from chatcodec._payloads import (
        deeper_than,
        load_object,
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
    from chatcodec._registry import StreamDecoder, StreamEncoder
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
    "BatchRows",
    "Call",
    "Capabilities",
    "CapabilitiesTable",
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
    "ErrorShape",
    "Extension",
    "FeedByReading",
    "FinishReasonFunctions",
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
    "Problem",
    "ProviderCodec",
    "ProviderKit",
    "ProviderRules",
    "RequestFunctions",
    "RequiredField",
    "ResponseFunctions",
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
    "loads",
    "local_file_why",
    "lower_case_source",
    "mark_absent",
    "mark_integers",
    "meaningful_markers",
    "model_in_path",
    "path",
    "plain_counts",
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
    "ABSENT": "chatcodec._providers.kit.bags",
    "BODY": "chatcodec._providers.contract.envelopes",
    "COMMON_TOOL_NAMES": "chatcodec._providers.kit.tool_names",
    "ID": "chatcodec._providers.contract.envelopes",
    "MODEL_OPTION": "chatcodec._providers.contract.context",
    "NOW": "chatcodec._providers.kit.invented",
    "NULLS": "chatcodec._providers.kit.bags",
    "PLAIN_MESSAGE": "chatcodec._providers.kit.plain_shapes",
    "PLAIN_TEXT": "chatcodec._providers.kit.plain_shapes",
    "PLAIN_TOOL_RESULT": "chatcodec._providers.kit.plain_shapes",
    "PLAIN_TOOL_USE": "chatcodec._providers.kit.plain_shapes",
    "RULE_OPTIONS": "chatcodec._providers.contract.context",
    "TOOL_ORDER": "chatcodec._providers.kit.provider_kit",
    "BatchRows": "chatcodec._providers.contract.envelopes",
    "Call": "chatcodec._providers.contract.edge",
    "Capabilities": "chatcodec._providers.contract.capabilities",
    "CapabilitiesTable": "chatcodec._providers.contract.roles",
    "CountFront": "chatcodec._providers.contract.edge",
    "CountUpstream": "chatcodec._providers.contract.edge",
    "DecodeContext": "chatcodec._providers.contract.context",
    "Detection": "chatcodec._providers.contract.detection",
    "DialectFunctions": "chatcodec._providers.contract.roles",
    "Edge": "chatcodec._providers.contract.edge",
    "EdgeTable": "chatcodec._providers.contract.roles",
    "EncodeContext": "chatcodec._providers.contract.context",
    "EnvelopeBody": "chatcodec._providers.contract.envelopes",
    "EnvelopeLayout": "chatcodec._providers.contract.envelopes",
    "ErrorShape": "chatcodec._providers.contract.edge",
    "Extension": "chatcodec._providers.contract.extension",
    "FeedByReading": "chatcodec._providers.kit.stream_reading",
    "FinishReasonFunctions": "chatcodec._providers.contract.roles",
    "Framing": "chatcodec._providers.contract.edge",
    "Front": "chatcodec._providers.contract.edge",
    "IdRule": "chatcodec._providers.contract.envelopes",
    "JsonFront": "chatcodec._providers.contract.roles",
    "Location": "chatcodec._providers.contract.structure",
    "LossRecorder": "chatcodec._losses",
    "MessageFunctions": "chatcodec._providers.contract.roles",
    "ModelFamily": "chatcodec._providers.contract.target_rules",
    "ModelList": "chatcodec._providers.contract.edge",
    "OptionTable": "chatcodec._option_table",
    "Origin": "chatcodec._providers.kit.origins",
    "PartBuilder": "chatcodec.streams._builder",
    "PartFunctions": "chatcodec._providers.contract.roles",
    "PartLifecycleEvent": "chatcodec._model.stream_events",
    "Problem": "chatcodec._errors",
    "ProviderCodec": "chatcodec._providers.contract.provider_codec",
    "ProviderKit": "chatcodec._providers.kit.provider_kit",
    "ProviderRules": "chatcodec._providers.contract.target_rules",
    "RequestFunctions": "chatcodec._providers.contract.roles",
    "RequiredField": "chatcodec._providers.contract.target_rules",
    "ResponseFunctions": "chatcodec._providers.contract.roles",
    "RouteError": "chatcodec._providers.contract.edge",
    "RuleCall": "chatcodec._providers.contract.target_rules",
    "RulesTable": "chatcodec._providers.contract.roles",
    "SamplingRange": "chatcodec._providers.contract.target_rules",
    "SettingsFunctions": "chatcodec._providers.contract.roles",
    "Steps": "chatcodec._losses",
    "StreamBuilder": "chatcodec.streams._builder",
    "StreamDecoder": "chatcodec._registry",
    "StreamEncoder": "chatcodec._registry",
    "StreamFraming": "chatcodec._providers.contract.framing",
    "Structure": "chatcodec._providers.contract.structure",
    "StructureTable": "chatcodec._providers.contract.roles",
    "TargetRule": "chatcodec._providers.contract.target_rules",
    "ToolFunctions": "chatcodec._providers.contract.roles",
    "ToolIdMapping": "chatcodec._providers.kit.tool_id_mapping",
    "ToolNameRule": "chatcodec._providers.kit.tool_names",
    "ToolStep": "chatcodec._providers.contract.structure",
    "Turn": "chatcodec._providers.contract.structure",
    "TurnOrder": "chatcodec._providers.contract.structure",
    "TurnProblem": "chatcodec._providers.contract.structure",
    "Upstream": "chatcodec._providers.contract.edge",
    "UpstreamModels": "chatcodec._providers.contract.edge",
    "UsageFunctions": "chatcodec._providers.contract.roles",
    "absent_keys": "chatcodec._providers.kit.bags",
    "arguments_object": "chatcodec._providers.kit.arguments",
    "as_chatcodec_error": "chatcodec._errors",
    "as_count": "chatcodec._narrow",
    "as_dict": "chatcodec._narrow",
    "as_list": "chatcodec._narrow",
    "as_sampling_number": "chatcodec._narrow",
    "bag_key": "chatcodec._providers.kit.bags",
    "bearer_headers": "chatcodec._providers.contract.edge",
    "bearer_key": "chatcodec._providers.contract.edge",
    "body_call": "chatcodec._providers.contract.edge",
    "budget_for_effort": "chatcodec._providers.kit.reasoning",
    "canonical_refusal": "chatcodec._providers.kit.errors",
    "carries_nothing": "chatcodec._providers.contract.target_rules",
    "closed_schema": "chatcodec._providers.kit",
    "compact_json": "chatcodec._providers.kit.arguments",
    "constrained": "chatcodec._providers.kit.wire",
    "count_of": "chatcodec._providers.contract.edge",
    "decode_cache_control": "chatcodec._providers.kit.cache",
    "deeper_than": "chatcodec._payloads",
    "deferred_adapter": "chatcodec._model._base",
    "discriminator": "chatcodec._providers.kit.wire",
    "effort_word": "chatcodec._providers.kit.reasoning",
    "encode_cache_control": "chatcodec._providers.kit.cache",
    "error_status": "chatcodec._error_statuses",
    "history_for": "chatcodec._providers.history.turns",
    "holds_a_container": "chatcodec._providers.kit.bags",
    "holds_empty_content": "chatcodec._providers.history.turns",
    "input_object": "chatcodec._providers.kit.tool_arguments",
    "is_a_double": "chatcodec._narrow",
    "is_default": "chatcodec._providers.contract.target_rules",
    "is_dict": "chatcodec._narrow",
    "is_list": "chatcodec._narrow",
    "is_local_file_url": "chatcodec._compat",
    "is_marker": "chatcodec._providers.kit.bags",
    "json_path": "chatcodec._errors",
    "keeps_a_container": "chatcodec._providers.kit.bags",
    "kept_object": "chatcodec._providers.kit.bags",
    "leftovers": "chatcodec._providers.kit.bags",
    "load_object": "chatcodec._payloads",
    "loads": "chatcodec._payloads",
    "local_file_why": "chatcodec._compat",
    "lower_case_source": "chatcodec._providers.kit.media_types",
    "mark_absent": "chatcodec._providers.kit.bags",
    "mark_integers": "chatcodec._providers.kit.integer_spelling",
    "meaningful_markers": "chatcodec._providers.kit.provider_kit",
    "model_in_path": "chatcodec._providers.contract.edge",
    "path": "chatcodec._providers.kit.errors",
    "plain_counts": "chatcodec.streams._builder",
    "present": "chatcodec._providers.kit.bags",
    "problems_error": "chatcodec._errors",
    "put_logprobs": "chatcodec._providers.kit.token_logprobs",
    "range_rule": "chatcodec._providers.contract.target_rules",
    "read_data_ids": "chatcodec._providers.contract.edge",
    "read_event": "chatcodec._providers.kit.stream_reading",
    "read_in_batches": "chatcodec._providers.kit.stream_reading",
    "read_logprob_settings": "chatcodec._providers.kit.logprob_settings",
    "read_nested_error": "chatcodec._providers.contract.edge",
    "read_one": "chatcodec._providers.kit.stream_reading",
    "read_options": "chatcodec._providers.contract.context",
    "read_tier": "chatcodec._providers.kit.service_tier",
    "read_token_logprobs": "chatcodec._providers.kit.token_logprobs",
    "reasoning_for_effort": "chatcodec._providers.kit.reasoning",
    "refuse_unwritable_numbers": "chatcodec._payloads",
    "report_after_error": "chatcodec._providers.kit.stream_errors",
    "report_invented": "chatcodec._providers.kit.invented",
    "report_invented_counts": "chatcodec._providers.kit.invented",
    "report_tier": "chatcodec._providers.kit.service_tier",
    "report_user": "chatcodec._providers.kit.service_tier",
    "respell_integers": "chatcodec._providers.kit.integer_spelling",
    "restore_fields": "chatcodec._providers.kit.bags",
    "role_at": "chatcodec._providers.contract.structure",
    "rule_error": "chatcodec._errors",
    "runs": "chatcodec._providers.kit.origins",
    "sdk_fields": "chatcodec._providers.kit.field_sets",
    "sdk_kinds": "chatcodec._providers.kit.wire",
    "servers": "chatcodec._providers.kit",
    "shape_fields": "chatcodec._providers.kit.wire",
    "split_fields": "chatcodec._providers.kit.bags",
    "split_turn": "chatcodec._providers.kit.origins",
    "spoken": "chatcodec._providers.contract.structure",
    "stands_for": "chatcodec._providers.kit.wire",
    "system_origin": "chatcodec._providers.kit.origins",
    "tag": "chatcodec._providers.kit.wire",
    "tagged": "chatcodec._providers.kit.wire",
    "thinking_on": "chatcodec._providers.kit.reasoning",
    "too_deep": "chatcodec._payloads",
    "tool_name": "chatcodec._providers.kit.tool_names",
    "tool_name_map": "chatcodec._providers.kit.tool_names",
    "unblank_tool_name": "chatcodec._providers.kit.tool_names",
    "unicode_text": "chatcodec._providers.kit.token_logprobs",
    "unmapped": "chatcodec._providers.kit.bags",
    "unwritable_number": "chatcodec._payloads",
    "validate_canonical": "chatcodec._canonical_validation",
    "validate_with": "chatcodec._canonical_validation",
    "wire_fields": "chatcodec._providers.kit.bags",
    "wire_key": "chatcodec._providers.kit.bags",
    "wire_shape": "chatcodec._providers.kit.wire",
    "with_unknown_nulls": "chatcodec._providers.kit.null_fields",
    "write_logprob_settings": "chatcodec._providers.kit.logprob_settings",
    "write_tier": "chatcodec._providers.kit.service_tier",
    "write_token_logprobs": "chatcodec._providers.kit.token_logprobs",
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
