"""What OpenAI Chat Completions accepts today, by model family.

Function tools beside ``reasoning_effort`` are refused on ``/v1/chat/completions`` by
gpt-5.2 to 5.5 (since March 2026), and by gpt-5.6 even when no effort is sent, unless
``reasoning_effort: "none"`` ("use /v1/responses or set reasoning_effort to 'none'"):
https://github.com/openai/openai-openapi/issues/541 ;
https://github.com/pipecat-ai/pipecat/issues/4043 ;
https://github.com/BerriAI/litellm/pull/34569 . The Responses API takes both: convert to
``openai-responses`` to keep the effort. A model id that is not a gpt-5.x one gets the
permissive rule (nothing changed). The GPT-5 rules shared with Responses (sampling
settings only at effort ``none``; no ``none`` before gpt-5.1; what a ``gpt-6*`` id gets)
are in :mod:`chatcodec._providers.families.openai.model_rules`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from chatcodec._providers.families.openai.model_rules import (
    EFFORT_SOURCE,
    GPT_5_BEFORE_5_1,
    GPT_5_UP,
    SAMPLING_SOURCE,
    drop_sampling_beside_reasoning,
    minimal_for_none,
)
from chatcodec.codec_kit import as_dict, as_list, range_rule
from chatcodec.contract import ModelFamily, ProviderRules, RequiredField, RuleCall, SamplingRange, TargetRule

VERSION = "v1"
"""The one Chat Completions API version."""

_GPT_5 = re.compile(r"gpt-5\.(\d{1,2})(?![0-9])")


@lru_cache(maxsize=256)
def _gpt_5_minor(model: str) -> int | None:
    """The minor version of a gpt-5.x model id (looked up for every request: kept)."""
    found = _GPT_5.search(model)
    return None if found is None else int(found[1])


def _minor_between(low: int, high: int) -> ModelFamily:
    def matches(model: str) -> bool:
        minor = _gpt_5_minor(model)
        return minor is not None and low <= minor <= high

    name = f"gpt-5.{low} to 5.{high}" if high < 99 else f"gpt-5.{low}+"
    return ModelFamily(name, matches)


GPT_5_2_TO_5_5 = _minor_between(2, 5)
"""Refuse function tools beside an effort that is sent."""
GPT_5_6_UP = _minor_between(6, 99)
"""Refuse function tools unless ``reasoning_effort`` is ``"none"``."""

_SOURCE = "https://github.com/openai/openai-openapi/issues/541"


def _has_function_tools(call: RuleCall) -> bool:
    return any((as_dict(tool) or {}).get("type") == "function" for tool in as_list(call.body.get("tools")) or [])


def _tools_with_effort(call: RuleCall) -> None:
    """gpt-5.2 to 5.5: an effort beside function tools is not sent; gpt-5.6+: ``"none"``
    is sent, as no effort at all is refused too."""
    if not _has_function_tools(call) or call.body.get("reasoning_effort") == "none":
        return
    effort = call.body.pop("reasoning_effort", None)
    minor = _gpt_5_minor(call.model.lower()) if call.model is not None else None
    if minor is not None and minor >= 6:
        call.body["reasoning_effort"] = "none"
        call.report(("reasoning_effort",), f"reasoning_effort {effort!r}", "sent 'none' beside function tools")
    elif effort is not None:
        call.report(("reasoning_effort",), f"reasoning_effort {effort!r}", "not sent beside function tools")


_SAMPLING = {"temperature": "temperature", "top_p": "top_p", "logprobs": "logprobs"}


def _effort_none(call: RuleCall) -> None:
    """gpt-5 before 5.1 has no ``reasoning_effort: "none"``: sent as ``minimal``."""
    minimal_for_none(call, call.body, "reasoning_effort", ())


def _sampling_with_reasoning(call: RuleCall) -> None:
    """GPT-5.x takes ``temperature``, ``top_p`` and ``logprobs`` only at effort ``none``."""
    drop_sampling_beside_reasoning(call, call.body.get("reasoning_effort"), _SAMPLING)


RANGE_SOURCE = (
    "https://platform.openai.com/docs/api-reference/chat/create (temperature: between 0 and 2; top_p; "
    "frequency_penalty, presence_penalty: between -2.0 and 2.0; the API's 400: \"Invalid 'temperature': "
    'decimal above maximum value. Expected a value <= 2")'
)
LOGIT_BIAS_SOURCE = (
    'https://platform.openai.com/docs/api-reference/chat/create#chat-create-logit_bias ("maps tokens (specified '
    "by their token ID in the tokenizer) to an associated bias value from -100 to 100\"; the SDK's "
    "CompletionCreateParams.logit_bias says the same)"
)
SAMPLING_RANGES = (
    SamplingRange("temperature", 0.0, 2.0, RANGE_SOURCE),
    SamplingRange("top_p", 0.0, 1.0, RANGE_SOURCE),
    SamplingRange("frequency_penalty", -2.0, 2.0, RANGE_SOURCE),
    SamplingRange("presence_penalty", -2.0, 2.0, RANGE_SOURCE),
    SamplingRange("logit_bias", -100, 100, LOGIT_BIAS_SOURCE, each=True),
)
"""Chat Completions' sampling ranges."""
_RANGE_KEYS = frozenset(item.key for item in SAMPLING_RANGES)
"""Where a sampling value sits (a named server's ranges are held on the same keys)."""


def _server_ranges(call: RuleCall) -> tuple[SamplingRange, ...]:
    """The ranges of the server the body goes to (chosen as the writer chose it: the
    ``server`` option, the base URL's host, or a model id only one server serves), or
    OpenAI's where the server documents OpenAI's (:attr:`.servers.server.Server.sampling_ranges`)."""
    if _RANGE_KEYS.isdisjoint(call.body):  # most bodies: no server need be chosen again
        return ()
    # The servers' table, imported here: an encode context holds these rules, and a stream's
    # reads none of them (a first stream need not import the thirteen servers).
    from chatcodec._providers.openai_chat.servers import chosen_server

    server, _ = chosen_server(call.options, call.model)
    return SAMPLING_RANGES if server.sampling_ranges is None else server.sampling_ranges


RULES = ProviderRules(
    provider="openai-chat",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source="https://platform.openai.com/docs/api-reference/chat",
    rules=(
        TargetRule(
            "tools_with_reasoning_effort",
            'with function tools, `reasoning_effort` not sent (gpt-5.2 to 5.5) or sent as `"none"` (gpt-5.6+)',
            _SOURCE + " ; https://github.com/pipecat-ai/pipecat/issues/4043",
            _tools_with_effort,
            families=(GPT_5_2_TO_5_5, GPT_5_6_UP),
            reads=frozenset({"tools"}),
            option='skip_rules=["tools_with_reasoning_effort"], or convert to openai-responses',
        ),
        TargetRule(
            "effort_none",
            '`reasoning_effort: "none"` sent as `"minimal"`',
            EFFORT_SOURCE,
            _effort_none,
            families=(GPT_5_BEFORE_5_1,),
            reads=frozenset({"reasoning_effort"}),
        ),
        TargetRule(
            "sampling_with_reasoning",
            "`temperature`, `top_p`, `logprobs` not sent unless the effort in force is `none` (gpt-5.1+: the default)",
            SAMPLING_SOURCE,
            _sampling_with_reasoning,
            families=(GPT_5_UP,),
            reads=frozenset(_SAMPLING.values()),
        ),
        range_rule(
            SAMPLING_RANGES,
            ranges_for=_server_ranges,
            others="; a named server's own: the servers table",
            reads=_RANGE_KEYS,
        ),
    ),
    required=(RequiredField("model", "https://platform.openai.com/docs/api-reference/chat/create"),),
)
"""OpenAI Chat's table (:mod:`chatcodec._providers.contract.target_rules`)."""
