"""Two namespaces: :mod:`chatcodec.contract` says what a codec is, :mod:`chatcodec.codec_kit`
holds what a codec is written with (issue 78).

The contract stays small (at most 90 names); every helper contract version 1 exported is in
the kit, under a name that says its job, and its version-1 name still resolves from the
contract to the same object at run time until the contract's next version (type checkers
know it in the kit only). ``tools/codec_kit_names.py`` moves a codec's imports, and the kit's cached validator
is what the template checks its wire with.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import NotRequired

import pytest
from typing_extensions import TypedDict

import chatcodec
from chatcodec import codec_kit, contract

ROOT = Path(__file__).resolve().parents[1]

VERSION_1 = (
    "ABSENT BODY COMMON_TOOL_NAMES CONTRACT_VERSION ID MODEL_OPTION NOW NULLS PLAIN_MESSAGE PLAIN_TEXT "
    "PLAIN_TOOL_RESULT PLAIN_TOOL_USE RULE_OPTIONS TOOL_ORDER AnyStreamRecord BatchRows Call Capabilities "
    "CapabilitiesTable ChoiceMetadataRecord CountFront CountUpstream DecodeContext Detection "
    "DialectFunctions Edge EdgeTable EncodeContext EnvelopeBody EnvelopeLayout ErrorRecord ErrorShape "
    "Extension FeedByReading FinishReasonFunctions FinishRecord Framing Front IdRule JsonFront Location "
    "LossRecorder MessageFunctions ModelFamily ModelList OptionTable Origin PartBuilder PartFunctions "
    "PartLifecycleEvent PartLifecycleRecord PartRecord Problem ProviderCodec ProviderKit ProviderRules "
    "RecordStreamEncoder RefusalDeltaRecord RequestFunctions RequiredField ResponseFunctions "
    "ResponseStartRecord RouteError RuleCall RulesTable SamplingRange SettingsFunctions Steps "
    "StreamBuilder StreamDecoder StreamEncoder StreamFraming Structure StructureTable TargetRule "
    "TextDeltaRecord TextEndRecord TextStartRecord ThinkingDeltaRecord ThinkingEndRecord "
    "ThinkingSignatureDeltaRecord ThinkingStartRecord ToolCallDeltaRecord ToolCallEndRecord "
    "ToolCallStartRecord ToolFunctions ToolIdMapping ToolNameRule ToolStep Turn TurnOrder TurnProblem "
    "Upstream UpstreamModels UsageFunctions UsageRecord absent_keys arguments_object as_chatcodec_error "
    "as_count as_dict as_list as_sampling_number bag_key bearer_headers bearer_key body_call "
    "budget_for_effort canonical_refusal carries_nothing closed_schema compact_json constrained count_of "
    "decode_cache_control deeper_than deferred_adapter discriminator effort_word encode_cache_control "
    "error_status history_for holds_a_container holds_empty_content input_object is_a_double is_default "
    "is_dict is_list is_local_file_url is_marker json_path keeps_a_container kept_object leftovers "
    "load_object loaded loads local_file_why lower_case_source mark_absent mark_integers "
    "meaningful_markers model_in_path path plain_counts plain_usage present problems_error put_logprobs "
    "range_rule read_data_ids read_event read_in_batches read_logprob_settings read_nested_error read_one "
    "read_options read_tier read_token_logprobs reasoning_for_effort refuse_unwritable_numbers "
    "report_after_error report_invented report_invented_counts report_tier report_user respell_integers "
    "restore_fields role_at rule_error runs sdk_fields sdk_kinds servers shape_fields split_fields "
    "split_turn spoken stands_for system_origin tag tagged thinking_on too_deep tool_name tool_name_map "
    "unblank_tool_name unicode_text unmapped unwritable_number validate_canonical validate_with "
    "wire_fields wire_key wire_shape with_unknown_nulls write_logprob_settings write_tier "
    "write_token_logprobs"
)
"""``chatcodec.contract.__all__`` of contract version 1 before the kit moved out (431ead74)."""


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("codec_kit_names", ROOT / "tools" / "codec_kit_names.py")
    assert spec is not None
    assert spec.loader is not None
    module = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))  # dataclasses look it up
    spec.loader.exec_module(module)
    return module


def test_the_contract_says_what_a_codec_is_in_at_most_90_names() -> None:
    assert len(contract.__all__) <= 90
    assert set(contract.__all__).isdisjoint(codec_kit.__all__)
    assert contract.CONTRACT_VERSION == 1  # the old names are kept: nothing a version-1 codec imports is gone


ADDED_SINCE_VERSION_1 = {"Reading", "SampledIds", "TakenIds"}
"""Names the contract gained under version 1 (a new name breaks no codec written before it)."""
KIT_ADDED = {"validate_shape", "media_type_essence", "source_from_url"}
"""Helpers the kit gained that contract version 1 never exported (so no old name is kept for them)."""


def test_every_version_1_name_is_in_the_contract_or_kept_for_the_kit() -> None:
    kept = vars(contract)["_KEPT_UNTIL_NEXT_VERSION"]
    old = set(VERSION_1.split())
    assert len(old) == 200
    assert old == (set(contract.__all__) - ADDED_SINCE_VERSION_1) | set(kept)
    assert set(kept).isdisjoint(contract.__all__)
    assert sorted(kept.values()) == sorted(name for name in codec_kit.__all__ if name not in KIT_ADDED)


def test_every_old_name_resolves_to_the_kits_object() -> None:
    kept: dict[str, str] = vars(contract)["_KEPT_UNTIL_NEXT_VERSION"]
    different = [old for old, new in kept.items() if getattr(contract, old) is not getattr(codec_kit, new)]
    assert different == []
    assert contract.loads is codec_kit.read_json_text
    assert contract.path("messages", 2) == codec_kit.json_path_of("messages", 2) == "$.messages[2]"
    hidden = [old for old in kept if old in dir(contract) and old not in contract.__all__]
    assert hidden == []  # kept, not advertised: dir() and __all__ show the contract's own names


def test_the_type_checkers_know_the_helpers_in_the_kit_only() -> None:
    """The kept names resolve at run time alone: the contract's one ``TYPE_CHECKING`` block
    imports the contract's own names, so a type check names each old import (which
    ``tools/codec_kit_names.py`` rewrites) and ``pyright --verifytypes`` counts each helper
    once, in the kit (issue 91)."""
    tree = ast.parse((ROOT / "src" / "chatcodec" / "contract.py").read_text(encoding="utf-8"))
    blocks = [
        node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "_typing.TYPE_CHECKING"
    ]
    assert len(blocks) == 1
    seen = {
        alias.asname or alias.name
        for node in ast.walk(blocks[0])
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == set(contract.__all__) - {"CONTRACT_VERSION"}
    assert seen.isdisjoint(vars(contract)["_KEPT_UNTIL_NEXT_VERSION"])


class _Shape(TypedDict):
    name: str
    count: NotRequired[int]


def test_the_kits_validator_is_built_once_and_names_the_wire_path() -> None:
    from chatcodec._providers.kit import shape_validation

    assert codec_kit.validate_shape(_Shape, {"name": "a", "count": 2}, "Toy body") == {"name": "a", "count": 2}
    built = shape_validation._VALIDATORS[_Shape]
    assert codec_kit.validate_shape(_Shape, '{"name": "b"}', "Toy body") == {"name": "b"}
    assert shape_validation._VALIDATORS[_Shape] is built  # one validator per shape, kept
    with pytest.raises(chatcodec.ValidationError) as raised:
        codec_kit.validate_shape(_Shape, {"name": "a", "count": "two"}, "Toy body")
    assert raised.value.errors()[0]["loc"] == ("count",)
    assert raised.value.title == "Toy body"
    with pytest.raises(TypeError, match="no object's shape"):
        codec_kit.validate_shape(list[int], [1], "Toy list")


def test_the_rewrite_moves_helpers_to_the_kit_under_their_new_names() -> None:
    tool = _tool()
    before = (
        "from chatcodec.contract import EncodeContext, leftovers, loads\n"
        "\n"
        "def read(text: str, context: EncodeContext) -> object:\n"
        "    from chatcodec.contract import NOW\n"
        "    return leftovers(loads(text), ()), NOW\n"
    )
    after, problems = tool.rewrite_text(before, tool.read_tables())
    assert problems == []
    assert after == (
        "from chatcodec.contract import EncodeContext\n"
        "from chatcodec.codec_kit import leftovers, read_json_text\n"
        "\n"
        "def read(text: str, context: EncodeContext) -> object:\n"
        "    from chatcodec.codec_kit import INVENTED_TIME\n"
        "    return leftovers(read_json_text(text), ()), INVENTED_TIME\n"
    )


def test_the_rewrite_leaves_a_file_that_binds_a_renamed_name_otherwise() -> None:
    tool = _tool()
    before = "from chatcodec.contract import path\n\ndef f(path: str) -> str:\n    return path\n"
    after, problems = tool.rewrite_text(before, tool.read_tables())
    assert after == before
    assert problems == ["line 3: a parameter path"]


def test_the_built_in_folders_import_no_kept_name() -> None:
    """The rewrite has been run: ``python tools/codec_kit_names.py --check`` changes nothing."""
    tool = _tool()
    tables = tool.read_tables()
    package = ROOT / "src" / "chatcodec"
    folders = [*(package / "_providers").iterdir(), *(package / "_frameworks").iterdir()]
    stale = [
        str(file.relative_to(package))
        for folder in folders
        if folder.is_dir()
        for file in sorted(folder.rglob("*.py"))
        if tool.rewrite_text(file.read_text(encoding="utf-8"), tables, tool.module_of(file))[0]
        != file.read_text(encoding="utf-8")
    ]
    assert stale == []
