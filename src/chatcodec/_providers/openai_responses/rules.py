"""What the OpenAI Responses API accepts today: ``call_id`` of at most 64 characters, and
GPT-5's reasoning rules (:mod:`chatcodec._providers.families.openai.model_rules`).

A ``function_call`` (or its output) whose ``call_id`` is longer is refused with
``string_above_max_length`` (https://github.com/AnswerDotAI/fastllm/issues/45 ;
https://github.com/decolua/9router/issues/393); other providers mint longer ids (chatcodec
itself wrote 95 characters for some). Such an id is rewritten with the shared tool-id
rewrite (``providers/tool_id_mapping.py``): deterministic, so a call and its output still
agree, and collision-free; an id that long cannot be shortened reversibly, so each is
reported with the id sent.
"""

from __future__ import annotations

from typing import Any

from chatcodec._providers.families.openai.model_rules import (
    EFFORT_SOURCE,
    GPT_5_BEFORE_5_1,
    GPT_5_UP,
    SAMPLING_SOURCE,
    drop_sampling_beside_reasoning,
    minimal_for_none,
)
from chatcodec.codec_kit import ToolIdMapping, as_dict, range_rule
from chatcodec.contract import ProviderRules, RuleCall, SamplingRange, TargetRule

VERSION = "v1"
"""The one Responses API version."""

CALL_ID_MAX_LENGTH = 64
"""The longest ``call_id`` Responses takes."""

LONG_CALL_ID = "call id over 64 characters"
"""What :func:`_call_id_length` looks for in the items (``TargetRule.looks_for``): the one
pass, which writes every ``call_id`` itself, says whether the body holds one
(:func:`note_call_ids`, or inline where a part's id is written), so the rule walks the
items only when one is there."""

CALL_IDS = ToolIdMapping(r"(?s).+\Z", CALL_ID_MAX_LENGTH, identifiers=True)
"""Any id of up to 64 characters is kept; a longer one is hashed to 64."""


def note_call_ids(items: list[dict[str, Any]], holds: set[str] | None) -> list[dict[str, Any]]:
    """Note in ``holds`` (the encode's :attr:`~chatcodec._providers.contract.context.EncodeContext.holds`)
    a ``call_id`` over 64 characters among ``items``: for the writer's general paths, whose
    items may carry a ``call_id`` from a bag or a part kept whole (the plain ones check the
    id they write inline); ``items`` is returned."""
    if holds is None or LONG_CALL_ID in holds:
        return items
    for item in items:
        call_id: Any = item.get("call_id") if item.__class__ is dict else None
        if call_id.__class__ is str and len(call_id) > CALL_ID_MAX_LENGTH:
            holds.add(LONG_CALL_ID)
            break
    return items


def _call_id_length(call: RuleCall) -> None:
    """Rewrite every ``call_id`` over 64 characters in the input items, reporting each id once."""
    items: Any = call.body.get("input")
    if items.__class__ is not list:  # a string input, or none
        return
    reported: set[str] = set()
    for index, item in enumerate(items):  # every item of every conversion: class tests inline, no frame each
        call_id: Any = item.get("call_id") if item.__class__ is dict else None
        if call_id.__class__ is not str or len(call_id) <= CALL_ID_MAX_LENGTH:
            continue
        item["call_id"] = CALL_IDS.sanitize(call_id)
        if call_id not in reported:
            reported.add(call_id)
            call.report(("input", index, "call_id"), f"call id {call_id!r}", f"sent as {item['call_id']!r}")


_SAMPLING = {"temperature": "temperature", "top_p": "top_p"}


def _effort_none(call: RuleCall) -> None:
    """gpt-5 before 5.1 has no ``reasoning.effort: "none"``: sent as ``minimal``."""
    minimal_for_none(call, as_dict(call.body.get("reasoning")), "effort", ("reasoning",))


def _sampling_with_reasoning(call: RuleCall) -> None:
    """GPT-5.x takes ``temperature`` and ``top_p`` only at effort ``none``."""
    reasoning = as_dict(call.body.get("reasoning")) or {}
    drop_sampling_beside_reasoning(call, reasoning.get("effort"), _SAMPLING)


def _model_or_prompt(call: RuleCall) -> None:
    """A request names its ``model`` or a stored ``prompt`` that supplies one; the API
    refuses one with neither (400 "Missing required parameter: 'model'"), so it is
    reported (``required``), nothing made up."""
    if call.body.get("model") is None and call.body.get("prompt") is None:
        why = "Responses needs a model or a stored prompt naming one; set it, or the option 'model'"
        call.losses.add(("model",), "model", why, "required")


RANGE_SOURCE = "https://platform.openai.com/docs/api-reference/responses/create (temperature: between 0 and 2; top_p)"
MAX_OUTPUT_SOURCE = (
    "https://platform.openai.com/docs/api-reference/responses/create (max_output_tokens: no minimum stated) and "
    "the API's own 400: \"Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got "
    '1 instead." (code integer_below_min_value; https://github.com/earendil-works/pi/issues/6265 ; '
    "https://github.com/vectorize-io/hindsight/issues/58 , Azure's Responses the same)"
)
SAMPLING_RANGES = (
    SamplingRange("temperature", 0.0, 2.0, RANGE_SOURCE),
    SamplingRange("top_p", 0.0, 1.0, RANGE_SOURCE),
    SamplingRange("max_output_tokens", 16, None, MAX_OUTPUT_SOURCE),
)
"""The Responses API's sampling ranges (Chat's, without the penalties it has no field for)."""

RULES = ProviderRules(
    provider="openai-responses",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source="https://platform.openai.com/docs/api-reference/responses",
    rules=(
        TargetRule(
            "call_id_length",
            "a `call_id` over 64 characters sent hashed to 64 (the same for a call and its output)",
            "https://github.com/AnswerDotAI/fastllm/issues/45",
            _call_id_length,
            looks_for=LONG_CALL_ID,
        ),
        TargetRule(
            "effort_none",
            '`reasoning.effort: "none"` sent as `"minimal"`',
            EFFORT_SOURCE,
            _effort_none,
            families=(GPT_5_BEFORE_5_1,),
            reads=frozenset({"reasoning"}),
        ),
        TargetRule(
            "sampling_with_reasoning",
            "`temperature`, `top_p` not sent unless the effort in force is `none` (gpt-5.1+: the default)",
            SAMPLING_SOURCE,
            _sampling_with_reasoning,
            families=(GPT_5_UP,),
            reads=frozenset(_SAMPLING.values()),
        ),
        TargetRule(
            "model_or_prompt",
            "nothing: a request with neither `model` nor a stored `prompt` is reported (`required`)",
            "https://platform.openai.com/docs/api-reference/responses/create (model; prompt)",
            _model_or_prompt,
        ),
        range_rule(SAMPLING_RANGES),
    ),
)
"""OpenAI Responses' table (:mod:`chatcodec._providers.contract.target_rules`). ``model`` is no
:class:`RequiredField`: a stored ``prompt`` can supply it (``ResponseCreateParams.model``
is optional in openai 3.54); ``model_or_prompt`` reports a request with neither."""
