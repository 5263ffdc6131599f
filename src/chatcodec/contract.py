"""The codec contract: what a codec is, the names a codec written outside chatcodec fills in.

:func:`chatcodec.register_codec` is public, so the contract a codec fills in is public too:
a provider folder (inside chatcodec or in another package) is written against these names,
and a name here is a promise kept across releases. What a codec is written *with* (bags of
leftover wire fields, markers, tool names and arguments, wire shapes, payload reading, error
helpers) is :mod:`chatcodec.codec_kit`, each name saying its job, as the Vercel AI SDK keeps
``@ai-sdk/provider-utils`` beside ``@ai-sdk/provider``. Everything else a built-in folder may
use (a sibling folder, a family's rules, the strict checks) is internal and may move.

- the codec class and the protocol each of its role modules satisfies:
  :class:`ProviderCodec`, :class:`RequestFunctions`, :class:`ResponseFunctions`,
  :class:`MessageFunctions`, :class:`PartFunctions`, ... (one signature for every provider);
- the records a folder fills in: :class:`Capabilities` (what its wire carries),
  :class:`Edge` (what it says on HTTP, and its parts: :class:`ErrorShape`, :class:`Front`,
  :class:`Upstream`...), :class:`Detection`, :class:`Structure`, :class:`ProviderRules`
  (and its rules), :class:`OptionTable`, :class:`BatchRows`;
- what every role function takes: :class:`EncodeContext`, :class:`DecodeContext`, and the
  :class:`LossRecorder` and :data:`Steps` a loss is recorded with;
- the stream path: :class:`StreamBuilder` (what a stream decoder drives),
  :class:`StreamDecoder` / :class:`StreamEncoder` (what the codec returns),
  and the stream records (:class:`TextDeltaRecord`, ... :data:`AnyStreamRecord`) a conversion's
  events travel as, which an encoder with ``stream_contract = 2`` (:class:`RecordStreamEncoder`)
  reads instead of the public models (docs/contributing.md, "Stream records").

Contract version 1 exported the kit's helpers from here too; their old names stay importable
from here at run time, resolving to the kit's objects, until the contract's next version
(:data:`_KEPT_UNTIL_NEXT_VERSION`). They are not in ``__all__`` and type checkers do not see
them: a type check names each old import, which ``tools/codec_kit_names.py`` rewrites to the
kit's name, and ``pyright --verifytypes`` counts each helper once, in the kit.

Names load on first access (PEP 562), as in ``chatcodec`` itself: importing the contract
loads no canonical model, and type checkers see only the names imported below. The lists
below are kept by ``tools/exports.py`` (run ``python tools/exports.py``): the
``TYPE_CHECKING`` imports are the one list, ``__all__`` and the lazy table are generated
from them.
"""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from chatcodec._codec_protocols import RecordStreamEncoder, StreamDecoder, StreamEncoder
    from chatcodec._losses import LossRecorder, Steps
    from chatcodec._model.stream_events import PartLifecycleEvent
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
    from chatcodec._option_table import OptionTable
    from chatcodec._providers.contract.capabilities import Capabilities
    from chatcodec._providers.contract.context import DecodeContext, EncodeContext, Reading
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
    )
    from chatcodec._providers.contract.envelopes import BatchRows, EnvelopeBody, EnvelopeLayout, IdRule
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
    from chatcodec._providers.contract.sampled_ids import SampledIds, TakenIds
    from chatcodec._providers.contract.sampling_range import SamplingRange
    from chatcodec._providers.contract.structure import Location, Structure, ToolStep, Turn, TurnOrder, TurnProblem
    from chatcodec._providers.contract.target_rules import (
        ModelFamily,
        ProviderRules,
        RequiredField,
        RuleCall,
        TargetRule,
    )
    from chatcodec.streams._builder import PartBuilder, StreamBuilder


CONTRACT_VERSION: _typing.Final = 1
"""The version of this contract, raised only when a release breaks a codec written against it.

While it stays the same, a release keeps: every name in ``__all__`` and in
:mod:`chatcodec.codec_kit`'s (moved names stay importable from where they were, as the kit's
helpers stay importable from here under their version-1 names); the role protocols'
signatures (a new parameter comes with a default, and a new role function is optional, the
codec working without it); the records' fields (``Capabilities``, ``Edge``, ``Detection``,
``Structure``, ``ProviderRules``...: a new field has a default); and what the laws demand of
a codec. A codec may check
it at import and refuse a contract it was not written for, as a Vercel AI SDK provider
states its ``specificationVersion`` (docs/contributing.md, "The contract's version")."""

__all__ = [
    "CONTRACT_VERSION",
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
    "PartBuilder",
    "PartFunctions",
    "PartLifecycleEvent",
    "PartLifecycleRecord",
    "PartRecord",
    "ProviderCodec",
    "ProviderRules",
    "Reading",
    "RecordStreamEncoder",
    "RefusalDeltaRecord",
    "RequestFunctions",
    "RequiredField",
    "ResponseFunctions",
    "ResponseStartRecord",
    "RouteError",
    "RuleCall",
    "RulesTable",
    "SampledIds",
    "SamplingRange",
    "SettingsFunctions",
    "Steps",
    "StreamBuilder",
    "StreamDecoder",
    "StreamEncoder",
    "StreamFraming",
    "Structure",
    "StructureTable",
    "TakenIds",
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
    "ToolStep",
    "Turn",
    "TurnOrder",
    "TurnProblem",
    "Upstream",
    "UpstreamModels",
    "UsageFunctions",
    "UsageRecord",
]

_EXPORTED_FROM: dict[str, str] = {
    name: module
    for module, names in (
        (
            "chatcodec._model.stream_records",
            "AnyStreamRecord ChoiceMetadataRecord ErrorRecord FinishRecord PartLifecycleRecord PartRecord "
            "RefusalDeltaRecord ResponseStartRecord TextDeltaRecord TextEndRecord TextStartRecord "
            "ThinkingDeltaRecord ThinkingEndRecord ThinkingSignatureDeltaRecord ThinkingStartRecord "
            "ToolCallDeltaRecord ToolCallEndRecord ToolCallStartRecord UsageRecord",
        ),
        ("chatcodec._providers.contract.envelopes", "BatchRows EnvelopeBody EnvelopeLayout IdRule"),
        (
            "chatcodec._providers.contract.edge",
            "Call CountFront CountUpstream Edge ErrorShape Framing Front ModelList RouteError Upstream UpstreamModels",
        ),
        ("chatcodec._providers.contract.capabilities", "Capabilities"),
        (
            "chatcodec._providers.contract.roles",
            "CapabilitiesTable DialectFunctions EdgeTable FinishReasonFunctions JsonFront MessageFunctions "
            "PartFunctions RequestFunctions ResponseFunctions RulesTable SettingsFunctions StructureTable "
            "ToolFunctions UsageFunctions",
        ),
        ("chatcodec._providers.contract.context", "DecodeContext EncodeContext Reading"),
        ("chatcodec._providers.contract.detection", "Detection"),
        ("chatcodec._providers.contract.extension", "Extension"),
        ("chatcodec._providers.contract.structure", "Location Structure ToolStep Turn TurnOrder TurnProblem"),
        ("chatcodec._losses", "LossRecorder Steps"),
        ("chatcodec._providers.contract.target_rules", "ModelFamily ProviderRules RequiredField RuleCall TargetRule"),
        ("chatcodec._option_table", "OptionTable"),
        ("chatcodec.streams._builder", "PartBuilder StreamBuilder"),
        ("chatcodec._model.stream_events", "PartLifecycleEvent"),
        ("chatcodec._providers.contract.provider_codec", "ProviderCodec"),
        ("chatcodec._codec_protocols", "RecordStreamEncoder StreamDecoder StreamEncoder"),
        ("chatcodec._providers.contract.sampled_ids", "SampledIds TakenIds"),
        ("chatcodec._providers.contract.sampling_range", "SamplingRange"),
        ("chatcodec._providers.contract.framing", "StreamFraming"),
    )
    for name in names.split()
}

_KEPT_UNTIL_NEXT_VERSION: dict[str, str] = {
    **{
        name: name
        for names in (  # one string, as the rows of _EXPORTED_FROM
            "COMMON_TOOL_NAMES MODEL_OPTION PLAIN_MESSAGE PLAIN_TEXT PLAIN_TOOL_RESULT PLAIN_TOOL_USE RULE_OPTIONS "
            "TOOL_ORDER FeedByReading Origin Problem ProviderKit ToolIdMapping ToolNameRule absent_keys "
            "arguments_object as_chatcodec_error as_count as_dict as_list as_sampling_number bag_key bearer_headers "
            "bearer_key body_call budget_for_effort canonical_refusal closed_schema compact_json constrained "
            "decode_cache_control deeper_than deferred_adapter effort_word encode_cache_control error_status "
            "history_for holds_a_container holds_empty_content input_object is_a_double is_dict is_list "
            "is_local_file_url is_marker json_path keeps_a_container kept_object leftovers load_object local_file_why "
            "lower_case_source mark_absent mark_integers meaningful_markers model_in_path plain_counts plain_usage "
            "problems_error put_logprobs range_rule read_data_ids read_event read_in_batches read_logprob_settings "
            "read_nested_error read_options read_tier read_token_logprobs reasoning_for_effort "
            "refuse_unwritable_numbers report_after_error report_invented report_invented_counts report_tier "
            "report_user respell_integers restore_fields role_at rule_error sdk_fields sdk_kinds servers shape_fields "
            "split_fields split_turn stands_for system_origin tagged thinking_on too_deep tool_name tool_name_map "
            "unblank_tool_name unicode_text unwritable_number validate_canonical validate_with wire_fields wire_key "
            "wire_shape with_unknown_nulls write_logprob_settings write_tier write_token_logprobs",
        )
        for name in names.split()
    },
    "ABSENT": "ABSENT_MARKER",
    "BODY": "BODY_SLOT",
    "ID": "ID_SLOT",
    "NOW": "INVENTED_TIME",
    "NULLS": "NULLS_MARKER",
    "carries_nothing": "is_neutral_setting",
    "count_of": "count_written",
    "discriminator": "union_discriminator",
    "is_default": "is_default_sampling",
    "loaded": "checked_json_value",
    "loads": "read_json_text",
    "path": "json_path_of",
    "present": "present_keys",
    "read_one": "read_one_event",
    "runs": "origins_by_run",
    "spoken": "spoken_turns",
    "tag": "union_tag",
    "unmapped": "unmapped_fields",
}
"""Contract version 1's helper names -> their names in :mod:`chatcodec.codec_kit`: importable
from here at run time (the same objects, loaded from the kit), left out of ``__all__`` and of
what type checkers see, until the contract's next version (``tests/test_codec_kit.py`` holds
each to its object)."""


if not _typing.TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is an error

    def __getattr__(name: str) -> _typing.Any:
        module_name = _EXPORTED_FROM.get(name)
        if module_name is None:
            kit_name = _KEPT_UNTIL_NEXT_VERSION.get(name)
            if kit_name is None:
                raise AttributeError(f"module 'chatcodec.contract' has no attribute {name!r}")
            return getattr(_importlib.import_module("chatcodec.codec_kit"), kit_name)  # not kept here: not in dir()
        value = getattr(_importlib.import_module(module_name), name)
        globals()[name] = value  # later lookups skip this function
        return value


def __dir__() -> list[str]:
    return sorted({*(name for name in globals() if not name.startswith("_")), *__all__})
