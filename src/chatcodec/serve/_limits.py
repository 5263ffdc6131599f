"""What the server refuses before any work, and what it hands back from the upstream.

- **Body size**: a body above ``max_body_bytes`` is answered 413 as soon as its
  ``Content-Length`` says so, or as soon as that many bytes have arrived when it sends
  none (chunked), so the process never holds more than the limit of one body.
- **Model names** reach URL paths (Gemini's ``/models/{model}:generateContent``,
  Bedrock's ``/model/{modelId}/converse``). Each edge percent-escapes the name, but no
  escaping stops a ``.`` or ``..`` segment: an HTTP client removes dot segments
  (RFC 3986 section 5.2.4), so ``..`` would turn ``/model/../converse`` into another
  path of the upstream. A name with a ``.``/``..`` segment, a control character, or more
  than 512 characters is refused 400 before a URL is built.
- **Upstream sizes**: a plain answer above ``max_answer_bytes`` (its ``Content-Length``,
  or its decoded bytes as they arrive, so a gzip bomb is cut too) is a 502, and a stream
  whose bytes since its last complete event pass ``max_event_bytes`` (an upstream that
  never ends an event) ends with an error: the process never holds more than one limit
  of either.
- **Headers passed back**: the upstream's ``retry-after`` (and ``retry-after-ms``, which
  the OpenAI SDK reads first), its rate-limit headers (``x-ratelimit-*``,
  ``anthropic-ratelimit-*``, ``ratelimit-*``: any name holding ``ratelimit``) and its
  request id (any name ending in ``request-id`` or ``requestid``), on errors and answers
  alike, so a caller's SDK waits as long as the provider said, not its own 0.4 s; and
  ``x-should-retry``, which both the OpenAI and Anthropic SDKs obey over their own
  status rules (``_should_retry`` in openai-python and anthropic-sdk-python). The
  upstream's request id is also given as ``x-request-id`` (what the OpenAI SDK reads)
  and ``request-id`` (the Anthropic SDK's) when the upstream used another name. Each value
  is scrubbed of the request's credentials (:mod:`.secrets`).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping
from typing import Any

import httpx
import pydantic_core
from starlette.requests import Request

from chatcodec._errors import CodecNotAvailableError, StreamError
from chatcodec._narrow import as_dict
from chatcodec._payloads import JSONValueError, read_json_text, unwritable_number
from chatcodec.serve._deadlines import BodyDeadline, body_late
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._secrets import Secrets
from chatcodec.serve._upstream_errors import failure
from chatcodec.streams._convert import stream_codecs

MODEL_NAME_LIMIT = 512
_CONTROL = re.compile("[\x00-\x1f\x7f]")
"""A control character (C0 or DEL): one search in C, not a loop over the name's characters
in Python."""
NESTING_LIMIT = 200
"""The deepest request body read (arrays and objects within each other): pydantic-core's
JSON parser's own limit, past which every reader would recurse without end; a deeper
body is a 400, never a ``RecursionError``."""
_TOO_DEEP = "recursion limit exceeded"
_REQUEST_ID_NAMES = ("x-request-id", "request-id")
_PASSED = frozenset(("retry-after", "retry-after-ms", "x-should-retry"))


async def read_body(request: Request, limit: int, seconds: float) -> bytes:
    """The request body, or a 413 once it is known to exceed ``limit`` bytes, or a 408 when
    it has not arrived whole within ``seconds`` (:mod:`chatcodec.serve._deadlines`)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    parts: list[bytes] = []
    size = 0
    deadline = BodyDeadline(seconds)
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise _too_large(limit)
            parts.append(chunk)
    except asyncio.CancelledError:
        if deadline.passed():
            raise body_late(seconds) from None
        raise
    finally:
        deadline.cancel()
    return b"".join(parts)


def _too_large(limit: int) -> RefusalError:
    return RefusalError(413, f"the request body is larger than this server's limit of {limit} bytes")


async def read_answer(response: httpx.Response, limit: int, upstream: str, *, timeout: float) -> bytes:
    """A plain upstream answer's body (``response`` opened as a stream), or a 502 once it
    is known to exceed ``limit`` bytes; a read that fails is a 504 (timeout) or a 502."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _answer_too_large(upstream, limit)
    parts: list[bytes] = []
    size = 0
    try:
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise _answer_too_large(upstream, limit)
            parts.append(chunk)
    except httpx.HTTPError as error:
        reason, status = failure(error, timeout=timeout, connect_timeout=timeout)
        raise RefusalError(status, f"the {upstream} upstream's answer {reason}") from None
    return b"".join(parts)


def _answer_too_large(upstream: str, limit: int) -> RefusalError:
    return RefusalError(502, f"the {upstream} upstream's answer is larger than this server's limit of {limit} bytes")


class EventSizeCheck:
    """Counts a stream's bytes since its last complete event, and raises once they pass
    ``limit``: a :class:`~chatcodec._errors.StreamError`, which ends the stream with the
    front's error event (or a 502 before its first event)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.pending = 0
        """The bytes fed since the last complete event (none: a chunk that completes an
        event changes nothing, and its caller may skip :meth:`fed`)."""

    def fed(self, chunk: bytes, events_read: bool) -> None:
        """Note ``chunk``, fed to the reader; ``events_read``: it completed an event."""
        self.pending = 0 if events_read else self.pending + len(chunk)
        if self.pending > self.limit:
            raise StreamError(f"an upstream event is larger than this server's limit of {self.limit} bytes")


def json_object(raw: bytes, *, numbers_read: bool = False) -> dict[str, Any]:
    """A request body parsed, or a 400 when it is not one JSON object: not JSON, nested
    deeper than :data:`NESTING_LIMIT`, or holding what no encoder writes back (a lone
    surrogate escape such as ``"\\ud83d"``, a client cutting an emoji in two; ``NaN``; a
    number out of range). The error says where (a JSON path, a line and column), never
    what the body holds. ``numbers_read``: the caller reads every number of the body by the
    library's readers, which refuse one out of range (``1e999``, parsed as infinity) where
    they read it, with its path: not looked for here, where it would take writing the whole
    body out again (``NaN`` and ``Infinity`` the parser refuses either way)."""
    try:
        payload: object = pydantic_core.from_json(raw, allow_inf_nan=False)
    except ValueError as error:
        if _TOO_DEEP in str(error):
            raise RefusalError(400, f"the request body is nested deeper than {NESTING_LIMIT} levels") from None
        payload = _read_exactly(raw)  # the reader that names the path of what it refuses
    else:
        found = None if numbers_read else unwritable_number(payload)
        if found is not None:
            raise RefusalError(400, f"the request body cannot be read: {found[0]} at {found[1]}")
    fields = as_dict(payload)
    if fields is None:
        raise RefusalError(400, "the request body must be a JSON object")
    return fields


def _read_exactly(raw: bytes) -> object:
    try:
        return read_json_text(raw)
    except JSONValueError as error:
        raise RefusalError(400, f"the request body cannot be read: {error}") from None
    except UnicodeDecodeError as error:
        raise RefusalError(400, f"the request body is not UTF-8: {error.reason} at byte {error.start}") from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise RefusalError(400, f"the request body is not JSON: {error.msg} ({where})") from None
    except ValueError:
        raise RefusalError(400, "the request body is not JSON") from None


def json_or_text(content: bytes) -> object:
    """An upstream's answer parsed, or its text when it is not JSON. pydantic-core parses it
    first (faster than ``json.loads``, to the same values); what it refuses
    (a lone surrogate escape, a byte-order mark, trailing text) is ``json.loads``'s to decide."""
    try:
        return pydantic_core.from_json(content, allow_inf_nan=True)
    except ValueError:
        pass
    try:
        return json.loads(content)
    except (ValueError, RecursionError):  # RecursionError: nested past Python's recursion limit
        return content.decode("utf-8", errors="replace")


def answer_object(content: bytes, upstream: str) -> dict[str, Any]:
    """An upstream's plain answer as one JSON object, or a 502 naming why not, as its stream
    is answered (:func:`chatcodec.serve._steps.stream`): parsed as :func:`json_or_text`
    parses it, and what pydantic-core refuses read by :func:`chatcodec._payloads.read_json_text`,
    which refuses at its JSON path what no encoder writes back (a lone surrogate escape such
    as ``"\\ud83d"``, a server cutting an emoji in two at ``max_tokens``) and nesting past
    the recursion limit. The answer's text is never quoted, only the path."""
    try:
        payload: object = pydantic_core.from_json(content, allow_inf_nan=True)
    except ValueError:
        payload = _answer_read_exactly(content, upstream)
    fields = as_dict(payload)
    if fields is None:
        raise RefusalError(502, f"the {upstream} upstream's answer is not a JSON object")
    return fields


def _answer_read_exactly(content: bytes, upstream: str) -> object:
    try:
        return read_json_text(content)
    except JSONValueError as error:
        raise RefusalError(502, f"the {upstream} upstream's answer cannot be read: {error}") from None
    except ValueError:  # not JSON, or not UTF-8
        raise RefusalError(502, f"the {upstream} upstream's answer is not a JSON object") from None


def check_model(model: str) -> None:
    """Refuse a model name that would change the upstream URL's path (see the module
    docstring); no name passes (a server serving one model may take a request without)."""
    if len(model) > MODEL_NAME_LIMIT:
        raise RefusalError(400, f"the model name is longer than {MODEL_NAME_LIMIT} characters")
    if "." in model and any(segment in (".", "..") for segment in model.split("/")):
        raise RefusalError(400, f"invalid model name {model!r}: a '.' or '..' segment would change the upstream path")
    if _CONTROL.search(model) is not None:
        raise RefusalError(400, f"invalid model name {model!r}: it holds a control character")


def passed_headers(upstream_headers: Mapping[str, str], secrets: Secrets) -> dict[str, str]:
    """The upstream's retry, rate-limit and request-id headers, to answer with, ``secrets`` out
    of their values (an upstream may echo its key in a request id: :mod:`.secrets`)."""
    passed: dict[str, str] = {}
    request_id: str | None = None
    for name, value in upstream_headers.items():
        lowered = name.lower()
        if lowered in _PASSED or "ratelimit" in lowered:
            passed[lowered] = value
        elif lowered.endswith(("request-id", "requestid")):
            passed[lowered] = value
            request_id = request_id or value
    if request_id is not None:
        for name in _REQUEST_ID_NAMES:
            passed.setdefault(name, request_id)
    return secrets.scrub_headers(passed) if secrets else passed


def streams_between(upstream: str, api: str) -> None:
    """Refuse a stream, before the upstream is called, where a codec has no stream
    modules (streams are optional in a provider folder): 400, naming what it lacks."""
    try:
        stream_codecs(upstream, api)
    except CodecNotAvailableError as error:
        raise RefusalError(400, f"this server cannot stream this answer: {error}; send stream false") from None
