"""The inference servers' token endpoints, which chatcodec renders the prompt for
(``--upstream vllm-generate`` or ``sglang-generate``, with ``--template`` and ``--tokenizer``):
the prompt goes as token ids, the sampled ids come back with their logprobs, and nothing is
re-tokenized on the way. Each is a record of where it lives, what it takes and what it
answers, with the source of each fact.

- vLLM's ``POST {url}/inference/v1/generate`` takes ``{"token_ids": [...], "sampling_params":
  {...}}`` and answers ``{"choices": [{"token_ids", "logprobs": {"content": [{"logprob"}]},
  "finish_reason"}]}`` (``GenerateRequest``, ``GenerateResponse`` in
  ``vllm/entrypoints/serve/disagg/protocol.py``; ``sampling_params`` are vLLM's
  ``SamplingParams``: ``logprobs: 0`` asks for the sampled token's logprob alone).
- SGLang's ``POST {url}/generate`` takes ``{"input_ids": [...], "sampling_params": {...},
  "return_logprob": true}`` and answers ``{"output_ids": [...], "meta_info": {"finish_reason":
  {"type": "stop" | "length"}, "output_token_logprobs": [[logprob, id, text], ...]}}``
  (https://docs.sglang.ai/basic_usage/native_api.html, ``GenerateReqInput``).

Both are asked for the whole answer (no ``stream``): a streamed call is answered as a stream
replayed from it (:mod:`chatcodec.serve._steps.sample`), since the answer is parsed whole.

Neither is sent a picture: a request holding an image is refused, with the reason its
endpoint gives (``TokenUpstream.images``), rather than sent as ids whose image pads no picture fills.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from chatcodec._narrow import as_dict, as_list
from chatcodec.contract import TakenIds

VLLM_SOURCE = (
    "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/serve/disagg/protocol.py "
    "(GenerateRequest: token_ids, sampling_params; GenerateResponseChoice: token_ids, logprobs, finish_reason)"
)
SGLANG_SOURCE = "https://docs.sglang.ai/basic_usage/native_api.html (/generate: input_ids, return_logprob)"


@dataclass(frozen=True, slots=True)
class TokenUpstream:
    """One server's token endpoint."""

    name: str
    """The ``--upstream`` name."""
    server: str
    """The server's ``--option server=`` name (its telemetry's ``gen_ai.provider.name``)."""
    path: str
    """The endpoint under the server's root URL (``--upstream-url http://localhost:8000``)."""
    body: Callable[[list[int], Mapping[str, Any], str], dict[str, Any]]
    """``(prompt ids, the canonical request, the model)`` -> the request body."""
    read: Callable[[Mapping[str, Any]], TakenIds]
    """The answer -> its sampled ids, their logprobs and finish reason (``prompt_ids`` unset);
    a ``ValueError`` naming the field where the ids are no list of integers."""
    ids_field: str
    """Where the answer holds the sampled ids (an error about them names it)."""
    source: str
    images: str
    """Why a request holding an image is refused: what the endpoint takes for one, and why
    chatcodec does not send it that."""


_SAMPLING = ("temperature", "top_p", "top_k", "seed", "frequency_penalty", "presence_penalty")
"""The canonical sampling settings both servers take under the same names."""


_ABSENT = object()
"""A field the answer does not hold (``null`` is a value it holds)."""


def _sampling(request: Mapping[str, Any], max_tokens: str) -> dict[str, Any]:
    params = {name: request[name] for name in _SAMPLING if request.get(name) is not None}
    if request.get("max_tokens") is not None:
        params[max_tokens] = request["max_tokens"]
    if request.get("stop"):
        params["stop"] = list(request["stop"])
    params["skip_special_tokens"] = False  # the markup is what the template's parser reads
    return params


def _vllm_body(prompt: list[int], request: Mapping[str, Any], model: str) -> dict[str, Any]:
    return {"model": model, "token_ids": prompt, "sampling_params": {**_sampling(request, "max_tokens"), "logprobs": 0}}


def _vllm_read(answer: Mapping[str, Any]) -> TakenIds:
    choice = as_dict((as_list(answer.get("choices")) or [None])[0]) or {}
    ids = _ints(choice.get("token_ids", _ABSENT), "choices[0].token_ids")
    content = as_list((as_dict(choice.get("logprobs")) or {}).get("content"))
    logprobs = None if content is None else _numbers((as_dict(entry) or {}).get("logprob") for entry in content)
    finish = choice.get("finish_reason")
    return TakenIds(None, ids, logprobs, finish if isinstance(finish, str) else None)


def _sglang_body(prompt: list[int], request: Mapping[str, Any], model: str) -> dict[str, Any]:
    return {"input_ids": prompt, "sampling_params": _sampling(request, "max_new_tokens"), "return_logprob": True}


def _sglang_read(answer: Mapping[str, Any]) -> TakenIds:
    meta = as_dict(answer.get("meta_info")) or {}
    entries = as_list(meta.get("output_token_logprobs"))
    logprobs = None if entries is None else _numbers((as_list(entry) or [None])[0] for entry in entries)
    finish = (as_dict(meta.get("finish_reason")) or {}).get("type")
    ids = _ints(answer.get("output_ids", _ABSENT), "output_ids")
    return TakenIds(None, ids, logprobs, finish if isinstance(finish, str) else None)


def _ints(value: object, field: str) -> list[int]:
    """``value`` as the sampled ids, or a ``ValueError`` naming ``field`` (or its item) and the
    rule (:func:`~chatcodec._training.tokens.ids_fault`, the one a record's ids are read by)."""
    if value is _ABSENT:
        raise ValueError(f"{field} is absent: the sampled token ids are a list of integers")
    from chatcodec._training.gateway import ids_fault  # the room's door loads the models: not when the CLI starts

    fault = ids_fault(value)
    if fault is not None:
        raise ValueError(f"{field}{fault[0]}: {fault[1]}")
    return list(cast("list[int]", value))


def _numbers(values: Any) -> list[float] | None:
    read: list[float] = []
    for value in values:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return None
        read.append(float(value))
    return read


TOKEN_UPSTREAMS: Mapping[str, TokenUpstream] = {
    upstream.name: upstream
    for upstream in (
        TokenUpstream(
            "vllm-generate",
            "vllm",
            "/inference/v1/generate",
            _vllm_body,
            _vllm_read,
            "choices[0].token_ids",
            VLLM_SOURCE,
            "vLLM's /inference/v1/generate takes an image only as vLLM's own processed features "
            "(GenerateRequest.features: multimodal hashes and placeholder positions its renderer made), "
            "not the picture",
        ),
        TokenUpstream(
            "sglang-generate",
            "sglang",
            "/generate",
            _sglang_body,
            _sglang_read,
            "output_ids",
            SGLANG_SOURCE,
            "SGLang's /generate takes pictures in image_data beside input_ids, but whether it expands "
            "the image pads of ids it is given again is not checked against a server: chatcodec sends none",
        ),
    )
}
"""The token endpoints by ``--upstream`` name."""


def image_place(messages: object) -> str | None:
    """The path of the first image part in canonical ``messages`` (a message's content, a tool
    result's), or None: a token upstream is sent none (:attr:`TokenUpstream.images`)."""
    stack: list[tuple[object, str]] = [(messages, "$.messages")]
    while stack:
        node, path = stack.pop()
        if (entries := as_dict(node)) is not None:
            if entries.get("type") == "image":
                return path
            stack.extend((child, f"{path}.{key}") for key, child in reversed(entries.items()))
        elif (items := as_list(node)) is not None:
            stack.extend((child, f"{path}[{index}]") for index, child in reversed(list(enumerate(items))))
    return None
