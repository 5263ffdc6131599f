"""The codec kit: the helpers a codec is written with, each named for its job.

:mod:`chatcodec.contract` says what a codec is (the codec class, its role protocols, the
records it fills in, the contexts, the stream records); this namespace holds what a codec
is written *with*, as the Vercel AI SDK keeps ``@ai-sdk/provider-utils`` beside
``@ai-sdk/provider``. The built-in folders import from both, as a codec outside does. A name
here is a promise kept while :data:`chatcodec.contract.CONTRACT_VERSION` stays; contract
version 1 exported these names from :mod:`chatcodec.contract` too, some under generic
names (``loads`` is :func:`read_json_text`, ``path`` :func:`json_path_of`, ``runs``
:func:`origins_by_run`, ``tag`` :func:`union_tag`, ``NOW`` :data:`INVENTED_TIME`, ``ID``
:data:`ID_SLOT`...), which stay importable there until the contract's next version
(``python tools/codec_kit_names.py <your package>`` rewrites a codec's imports).

By job:

- reading a payload: :func:`read_json_text`, :func:`checked_json_value`, :func:`load_object`,
  :func:`too_deep`, :func:`deeper_than`, :func:`refuse_unwritable_numbers`,
  :func:`unwritable_number`; narrowing a value read: :func:`as_dict`, :func:`as_list`,
  :func:`as_count`, :func:`is_dict`, :func:`is_list`...;
- the wire's shapes: :func:`wire_shape`, :func:`stands_for`, :func:`shape_fields`,
  :func:`tagged`, :func:`union_tag`, :func:`union_discriminator`, :func:`constrained`,
  :func:`sdk_kinds`, :func:`sdk_fields`, :func:`validate_shape` (the cached validator every
  reader checks its wire with), :mod:`closed_schema` (a reader's closed front schema);
- bags of leftover wire fields and markers: :func:`leftovers`, :func:`split_fields`,
  :func:`restore_fields`, :func:`wire_fields`, :func:`unmapped_fields`, :func:`present_keys`,
  :data:`ABSENT_MARKER`, :data:`NULLS_MARKER`..., and :class:`ProviderKit` (a folder's
  ``markers.KIT``: its bag, its markers, its errors raised in its own namespace:
  :meth:`ProviderKit.api_error`);
- tool names, ids and arguments: :func:`tool_name`, :class:`ToolNameRule`,
  :class:`ToolIdMapping`, :func:`compact_json`, :func:`arguments_object`,
  :func:`input_object`;
- errors: :func:`json_path`, :func:`json_path_of`, :func:`rule_error`,
  :func:`problems_error`, :func:`as_chatcodec_error`, :func:`canonical_refusal`,
  :func:`error_status`;
- reports of what a wire cannot carry: :func:`report_invented`, :func:`report_tier`,
  :func:`report_after_error`...; the shared tables (reasoning efforts, service tiers, log
  probabilities, cache markers); the edge's default behaviours (:func:`bearer_headers`,
  :func:`read_nested_error`...); the stream decoder's reading (:func:`read_event`,
  :class:`FeedByReading`, :func:`read_one_event`, :func:`read_in_batches`).

Names load on first access (PEP 562), as in :mod:`chatcodec.contract`; the ``TYPE_CHECKING``
imports below are the one list (``tools/exports.py`` writes ``__all__`` and the lazy table from
them).
"""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from chatcodec._canonical_validation import validate_canonical, validate_with
    from chatcodec._compat import is_local_file_url, local_file_why, media_type_essence, source_from_url
    from chatcodec._error_statuses import error_status
    from chatcodec._errors import Problem, as_chatcodec_error, json_path, problems_error, rule_error
    from chatcodec._model._base import deferred_adapter
    from chatcodec._model.stream_record_checks import plain_usage
    from chatcodec._narrow import as_count, as_dict, as_list, as_sampling_number, is_a_double, is_dict, is_list
    from chatcodec._payloads import (
        checked_json_value,
        deeper_than,
        load_object,
        read_json_text,
        refuse_unwritable_numbers,
        too_deep,
        unwritable_number,
    )
    from chatcodec._providers.contract.context import MODEL_OPTION, RULE_OPTIONS, read_options
    from chatcodec._providers.contract.edge import (
        bearer_headers,
        bearer_key,
        body_call,
        count_written,
        model_in_path,
        read_data_ids,
        read_nested_error,
    )
    from chatcodec._providers.contract.envelopes import BODY_SLOT, ID_SLOT
    from chatcodec._providers.contract.sampling_range import range_rule
    from chatcodec._providers.contract.structure import role_at, spoken_turns
    from chatcodec._providers.contract.target_rules import is_default_sampling, is_neutral_setting
    from chatcodec._providers.history.turns import history_for, holds_empty_content
    from chatcodec._providers.kit import closed_schema, servers
    from chatcodec._providers.kit.arguments import arguments_object, compact_json
    from chatcodec._providers.kit.bags import (
        ABSENT_MARKER,
        NULLS_MARKER,
        absent_keys,
        bag_key,
        holds_a_container,
        is_marker,
        keeps_a_container,
        kept_object,
        leftovers,
        mark_absent,
        present_keys,
        restore_fields,
        split_fields,
        unmapped_fields,
        wire_fields,
        wire_key,
    )
    from chatcodec._providers.kit.cache import decode_cache_control, encode_cache_control
    from chatcodec._providers.kit.errors import canonical_refusal, json_path_of
    from chatcodec._providers.kit.field_sets import sdk_fields
    from chatcodec._providers.kit.integer_spelling import mark_integers, respell_integers
    from chatcodec._providers.kit.invented import INVENTED_TIME, report_invented, report_invented_counts
    from chatcodec._providers.kit.logprob_settings import read_logprob_settings, write_logprob_settings
    from chatcodec._providers.kit.media_types import lower_case_source
    from chatcodec._providers.kit.null_fields import with_unknown_nulls
    from chatcodec._providers.kit.origins import Origin, origins_by_run, split_turn, system_origin
    from chatcodec._providers.kit.plain_shapes import PLAIN_MESSAGE, PLAIN_TEXT, PLAIN_TOOL_RESULT, PLAIN_TOOL_USE
    from chatcodec._providers.kit.provider_kit import TOOL_ORDER, ProviderKit, meaningful_markers
    from chatcodec._providers.kit.reasoning import budget_for_effort, effort_word, reasoning_for_effort, thinking_on
    from chatcodec._providers.kit.service_tier import read_tier, report_tier, report_user, write_tier
    from chatcodec._providers.kit.shape_validation import validate_shape
    from chatcodec._providers.kit.stream_errors import report_after_error
    from chatcodec._providers.kit.stream_reading import FeedByReading, read_event, read_in_batches, read_one_event
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
        sdk_kinds,
        shape_fields,
        stands_for,
        tagged,
        union_discriminator,
        union_tag,
        wire_shape,
    )
    from chatcodec.streams._builder import plain_counts

__all__ = [
    "ABSENT_MARKER",
    "BODY_SLOT",
    "COMMON_TOOL_NAMES",
    "ID_SLOT",
    "INVENTED_TIME",
    "MODEL_OPTION",
    "NULLS_MARKER",
    "PLAIN_MESSAGE",
    "PLAIN_TEXT",
    "PLAIN_TOOL_RESULT",
    "PLAIN_TOOL_USE",
    "RULE_OPTIONS",
    "TOOL_ORDER",
    "FeedByReading",
    "Origin",
    "Problem",
    "ProviderKit",
    "ToolIdMapping",
    "ToolNameRule",
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
    "checked_json_value",
    "closed_schema",
    "compact_json",
    "constrained",
    "count_written",
    "decode_cache_control",
    "deeper_than",
    "deferred_adapter",
    "effort_word",
    "encode_cache_control",
    "error_status",
    "history_for",
    "holds_a_container",
    "holds_empty_content",
    "input_object",
    "is_a_double",
    "is_default_sampling",
    "is_dict",
    "is_list",
    "is_local_file_url",
    "is_marker",
    "is_neutral_setting",
    "json_path",
    "json_path_of",
    "keeps_a_container",
    "kept_object",
    "leftovers",
    "load_object",
    "local_file_why",
    "lower_case_source",
    "mark_absent",
    "mark_integers",
    "meaningful_markers",
    "media_type_essence",
    "model_in_path",
    "origins_by_run",
    "plain_counts",
    "plain_usage",
    "present_keys",
    "problems_error",
    "put_logprobs",
    "range_rule",
    "read_data_ids",
    "read_event",
    "read_in_batches",
    "read_json_text",
    "read_logprob_settings",
    "read_nested_error",
    "read_one_event",
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
    "sdk_fields",
    "sdk_kinds",
    "servers",
    "shape_fields",
    "source_from_url",
    "split_fields",
    "split_turn",
    "spoken_turns",
    "stands_for",
    "system_origin",
    "tagged",
    "thinking_on",
    "too_deep",
    "tool_name",
    "tool_name_map",
    "unblank_tool_name",
    "unicode_text",
    "union_discriminator",
    "union_tag",
    "unmapped_fields",
    "unwritable_number",
    "validate_canonical",
    "validate_shape",
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
            "ABSENT_MARKER NULLS_MARKER absent_keys bag_key holds_a_container is_marker keeps_a_container "
            "kept_object leftovers mark_absent present_keys restore_fields split_fields unmapped_fields wire_fields "
            "wire_key",
        ),
        ("chatcodec._providers.contract.envelopes", "BODY_SLOT ID_SLOT"),
        (
            "chatcodec._providers.kit.tool_names",
            "COMMON_TOOL_NAMES ToolNameRule tool_name tool_name_map unblank_tool_name",
        ),
        ("chatcodec._providers.kit.invented", "INVENTED_TIME report_invented report_invented_counts"),
        ("chatcodec._providers.contract.context", "MODEL_OPTION RULE_OPTIONS read_options"),
        ("chatcodec._providers.kit.plain_shapes", "PLAIN_MESSAGE PLAIN_TEXT PLAIN_TOOL_RESULT PLAIN_TOOL_USE"),
        ("chatcodec._providers.kit.provider_kit", "TOOL_ORDER ProviderKit meaningful_markers"),
        ("chatcodec._providers.kit.stream_reading", "FeedByReading read_event read_in_batches read_one_event"),
        ("chatcodec._providers.kit.origins", "Origin origins_by_run split_turn system_origin"),
        ("chatcodec._errors", "Problem as_chatcodec_error json_path problems_error rule_error"),
        ("chatcodec._providers.kit.tool_id_mapping", "ToolIdMapping"),
        ("chatcodec._providers.kit.arguments", "arguments_object compact_json"),
        ("chatcodec._narrow", "as_count as_dict as_list as_sampling_number is_a_double is_dict is_list"),
        (
            "chatcodec._providers.contract.edge",
            "bearer_headers bearer_key body_call count_written model_in_path read_data_ids read_nested_error",
        ),
        ("chatcodec._providers.kit.reasoning", "budget_for_effort effort_word reasoning_for_effort thinking_on"),
        ("chatcodec._providers.kit.errors", "canonical_refusal json_path_of"),
        (
            "chatcodec._payloads",
            "checked_json_value deeper_than load_object read_json_text refuse_unwritable_numbers too_deep "
            "unwritable_number",
        ),
        ("chatcodec._providers.kit", "closed_schema servers"),
        (
            "chatcodec._providers.kit.wire",
            "constrained sdk_kinds shape_fields stands_for tagged union_discriminator union_tag wire_shape",
        ),
        ("chatcodec._providers.kit.cache", "decode_cache_control encode_cache_control"),
        ("chatcodec._model._base", "deferred_adapter"),
        ("chatcodec._error_statuses", "error_status"),
        ("chatcodec._providers.history.turns", "history_for holds_empty_content"),
        ("chatcodec._providers.kit.tool_arguments", "input_object"),
        ("chatcodec._providers.contract.target_rules", "is_default_sampling is_neutral_setting"),
        ("chatcodec._compat", "is_local_file_url local_file_why media_type_essence source_from_url"),
        ("chatcodec._providers.kit.media_types", "lower_case_source"),
        ("chatcodec._providers.kit.integer_spelling", "mark_integers respell_integers"),
        ("chatcodec.streams._builder", "plain_counts"),
        ("chatcodec._model.stream_record_checks", "plain_usage"),
        (
            "chatcodec._providers.kit.token_logprobs",
            "put_logprobs read_token_logprobs unicode_text write_token_logprobs",
        ),
        ("chatcodec._providers.contract.sampling_range", "range_rule"),
        ("chatcodec._providers.kit.logprob_settings", "read_logprob_settings write_logprob_settings"),
        ("chatcodec._providers.kit.service_tier", "read_tier report_tier report_user write_tier"),
        ("chatcodec._providers.kit.stream_errors", "report_after_error"),
        ("chatcodec._providers.contract.structure", "role_at spoken_turns"),
        ("chatcodec._providers.kit.field_sets", "sdk_fields"),
        ("chatcodec._canonical_validation", "validate_canonical validate_with"),
        ("chatcodec._providers.kit.shape_validation", "validate_shape"),
        ("chatcodec._providers.kit.null_fields", "with_unknown_nulls"),
    )
    for name in names.split()
}


if not _typing.TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is an error

    def __getattr__(name: str) -> _typing.Any:
        module_name = _EXPORTED_FROM.get(name)
        if module_name is None:
            raise AttributeError(f"module 'chatcodec.codec_kit' has no attribute {name!r}")
        module = _importlib.import_module(module_name)
        # a namespace (closed_schema) is a module: its package holds it once it is imported
        value = getattr(module, name) if hasattr(module, name) else _importlib.import_module(f"{module_name}.{name}")
        if module_name.startswith(_LABELLED_HERE) and callable(value):  # a class or function, not a constant
            from chatcodec._public_label import shown_as

            shown_as("chatcodec.codec_kit", value)
        globals()[name] = value  # later lookups skip this function
        return value


_LABELLED_HERE = ("chatcodec._providers.kit.", "chatcodec._providers.history.")
"""The modules whose names are shown as ``chatcodec.codec_kit.<name>`` when reached through
here; every other defining module labels its own public names where they are defined
(:mod:`chatcodec._public_label`)."""


def __dir__() -> list[str]:
    return sorted({*(name for name in globals() if not name.startswith("_")), *__all__})
