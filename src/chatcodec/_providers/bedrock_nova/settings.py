"""``inferenceConfig`` and ``reasoningConfig`` <-> canonical settings.

Nova's ``inferenceConfig`` has two spellings: ``maxTokens``, ``topP`` and ``topK`` in the
user guide's request schema (https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html),
``max_new_tokens``, ``top_p`` and ``top_k`` in its first examples and in the bodies many
callers still send (https://docs.aws.amazon.com/nova/latest/userguide/using-invoke-api.html);
the service takes both. The reader takes either (the camel name when a body has both: the
other rides in the bag) and marks the snake spelling (``_snake``), so the writer gives a
body back as it came and writes the camel names otherwise.

``reasoningConfig`` (``type`` ``enabled`` / ``disabled``, ``maxReasoningEffort`` ``low`` /
``medium`` / ``high``; Nova 2 Lite) is a top-level field of the InvokeModel body, and the
schema page shows it inside ``inferenceConfig``: read in either place, written back where it
came (``_reasoning_in_config``), at the top level otherwise. Nova takes no thinking budget:
a canonical ``budget_tokens`` is a loss. Values canonical cannot hold exactly stay in the bag.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.aws.nova_reasoning import decode_reasoning, encode_reasoning_config
from chatcodec._providers.families.aws.stop_sequences import read_stop, write_stop
from chatcodec.codec_kit import as_dict, as_list, as_sampling_number, mark_integers, respell_integers, unmapped_fields
from chatcodec.contract import DecodeContext, EncodeContext

_NAMES = (("maxTokens", "max_new_tokens", "max_tokens"), ("topP", "top_p", "top_p"), ("topK", "top_k", "top_k"))
"""(camel name, snake name, canonical name) of each setting with two spellings."""
_SNAKE = "_snake"
_IN_CONFIG = "_reasoning_in_config"
SETTINGS = ("max_tokens", "temperature", "top_p", "top_k", "stop", "reasoning")
"""The canonical settings this module reads and writes."""


def decode_settings(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Read ``inferenceConfig`` and ``reasoningConfig`` into ``canonical``."""
    del context
    config = request.get("inferenceConfig")
    if config is not None:
        _decode_inference(config, canonical, bag)
    reasoning = request.get("reasoningConfig")
    if reasoning is not None:
        mapped = decode_reasoning(reasoning)
        if mapped is None:
            bag["reasoningConfig"] = reasoning
        else:
            canonical["reasoning"] = mapped


def _decode_inference(config: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    mapped = ["temperature", "stopSequences"]
    snake: list[str] = []
    for camel, snake_name, name in _NAMES:
        key = camel if camel in config else snake_name if snake_name in config else None
        if key is None or (name == "max_tokens" and config[key] < 1):
            continue  # canonical needs max_tokens >= 1: a 0 is kept as it was
        canonical[name] = as_sampling_number(config[key]) if name == "top_p" else config[key]
        mapped.append(key)
        if key == snake_name:
            snake.append(key)
    if snake:
        bag[_SNAKE] = snake
    mark_integers(config, ("temperature", "topP", "top_p"), bag)  # canonical holds a float
    if "temperature" in config:
        canonical["temperature"] = as_sampling_number(config["temperature"])
    read_stop(config.get("stopSequences"), canonical, bag)
    reasoning = config.get("reasoningConfig")
    if reasoning is not None and "reasoning" not in canonical:
        decoded = decode_reasoning(reasoning)
        if decoded is not None:
            canonical["reasoning"] = decoded
            bag[_IN_CONFIG] = True
            mapped.append("reasoningConfig")
    rest = unmapped_fields(config, mapped)
    if rest:
        bag["inferenceConfig"] = rest
    if not config:
        bag["_inference_config"] = True


def encode_settings(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
) -> None:
    """Write the canonical settings as ``inferenceConfig`` (and ``reasoningConfig``)."""
    kept = as_dict(bag.get("inferenceConfig"))
    config: dict[str, Any] = {} if kept is None else dict(kept)
    snake = as_list(bag.get(_SNAKE)) or ()  # a marker the caller wrote by hand may be anything
    for camel, snake_name, name in _NAMES:
        if request.get(name) is not None:
            config[snake_name if snake_name in snake else camel] = request[name]
    if request.get("temperature") is not None:
        config["temperature"] = request["temperature"]
    write_stop(request, config, bag, context)
    respell_integers(config, bag)
    reasoning = encode_reasoning_config(request.get("reasoning"), context.losses)
    if reasoning is not None and bag.get(_IN_CONFIG):
        config["reasoningConfig"] = reasoning
    elif reasoning is not None:
        wire["reasoningConfig"] = reasoning
    if config or bag.get("_inference_config"):
        wire["inferenceConfig"] = {key: config[key] for key in sorted(config, key=_order)}


_ORDER = ("maxTokens", "max_new_tokens", "temperature", "topP", "top_p", "topK", "top_k", "stopSequences")


def _order(key: str) -> int:
    return _ORDER.index(key) if key in _ORDER else len(_ORDER)
