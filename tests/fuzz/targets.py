"""Every public entry point as a fuzz target, and the one law they all obey.

The law: given any input, an entry point returns what JSON can hold (never ``NaN`` or an
infinity), or raises a
:class:`chatcodec.ChatcodecError` whose JSON path exists in that input (the last step of a
``missing`` error names the absent key of an object that is there); a
:class:`chatcodec.StreamError` names an event that exists. Anything else (``KeyError``,
``TypeError``, ``RecursionError``, a bare pydantic error, a warning, the CLI's "internal
error" exit) is a bug: :func:`check` lets it out.

A target is ``(name, make, run)``: ``make(chooser)`` builds one input from the fixtures
with structure-aware mutations, ``run(input)`` calls the entry point; both are plain
functions, so the Hypothesis short run, the seeded long run and atheris share them.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

import chatcodec
from chatcodec._registry import CANONICAL
from chatcodec.cli import main
from chatcodec.streams._sse import iter_sse_json
from fuzz import seeds
from fuzz.mutate import Chooser, dumps, mutated, mutated_bytes, mutated_json_text, pick

NO_LOSS_WARNINGS: dict[str, Any] = {"on_loss": "ignore"}


@dataclass(frozen=True)
class Target:
    """One entry point under one provider (or pair)."""

    name: str
    make: Callable[[Chooser], Any]
    run: Callable[[Any], object]
    paths_checked: bool = True
    """Whether error paths are checked against the whole input; not for an entry point
    that validates the pieces of its input one by one (each error names a place in its
    piece: ``Conversation(messages=...)`` validates each message on its own)."""
    stream: bool = False
    """The input is a stream: a :class:`~chatcodec.StreamError` must name an event that
    exists, with a path inside it; a response built from the whole stream is validated
    at the end, at canonical paths (``accumulate_stream``'s documented behaviour)."""


class ForeignError(AssertionError):
    """An entry point let out something other than a chatcodec error, or a bad path."""


# --- the law ---------------------------------------------------------------------------

_MISSING = object()


def _child(node: object, step: int | str) -> object:
    if isinstance(node, dict) and isinstance(step, str):
        return node.get(step, _MISSING)
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return _MISSING


def location_exists(root: object, location: tuple[int | str, ...], missing: bool) -> bool:
    """Whether every step of ``location`` is in ``root`` (a missing key: all but the last)."""
    node = root
    for position, step in enumerate(location):
        child = _child(node, step)
        if child is _MISSING:
            return missing and position == len(location) - 1 and isinstance(node, dict)
        node = child
    return True


def path_in(root: object, wanted: str) -> bool:
    """Whether ``wanted`` is the JSON path of a place in ``root``, rendered as chatcodec
    renders them: each place's path is built from its parent's, and only places whose path
    starts ``wanted`` are entered, so the cost is the path's length, not the value's size
    (a value nested a thousand levels included)."""
    from chatcodec._errors import json_path

    stack: list[tuple[object, str]] = [(root, "$")]
    while stack:
        node, rendered = stack.pop()
        if rendered == wanted:
            return True
        if not wanted.startswith(rendered):
            continue
        if isinstance(node, dict):
            stack.extend((item, rendered + json_path((key,))[1:]) for key, item in node.items())
        elif isinstance(node, list):
            stack.extend((item, f"{rendered}[{index}]") for index, item in enumerate(node))
    return False


def _json_root(value: object) -> object:
    """The JSON value an input stands for (text parsed), or ``_MISSING`` when it has none."""
    if isinstance(value, str | bytes):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return _MISSING
    return value


KNOWN_PATH_GAPS: dict[str, str] = {
    "string_unicode": (
        "a dict (not JSON text, which is refused at the reader) holding a lone surrogate in a value"
        " the decoder rewrites (a data URL's media type) is refused by the canonical model at the"
        " canonical place (source.media_type), which the input does not have"
    ),
}
"""Error types whose paths the law does not check yet, each with what breaks (fix it, then
delete the entry); the same convention as the conformance suite's ``KNOWN_PATH_BUGS``."""


def _check_error(error: chatcodec.ChatcodecError, value: object) -> None:
    root = _json_root(value)
    if root is _MISSING:
        return
    if isinstance(error, chatcodec.ValidationError):
        for detail in error.errors(include_url=False):
            if detail["type"] in KNOWN_PATH_GAPS:
                continue
            if not location_exists(root, detail["loc"], detail["type"] == "missing"):
                raise ForeignError(f"path {detail['loc']} is not in the input: {error}")
    if isinstance(error, chatcodec.PayloadError) and error.path != "$" and not path_in(root, error.path):
        raise ForeignError(f"path {error.path} is not in the input: {error}")


def check(target: Target, value: Any) -> str:
    """Run ``target`` on ``value``; the outcome's name (``ok`` or the error class), or
    :class:`ForeignError` / the foreign exception itself when the law is broken.

    An exception Python could not raise (in a ``__del__``, or in pydantic-core's Rust when
    it writes a value's ``str``: a list nested 1,000 deep as a union tag) goes to
    ``sys.unraisablehook``, which only prints it: here it breaks the law too."""
    with _unraisable_reports() as reports:
        outcome = _checked(target, value)
    if reports:
        report = reports[0]
        raise ForeignError(f"reported through sys.unraisablehook: {report.exc_type.__name__}: {report.exc_value}")
    return outcome


@contextlib.contextmanager
def _unraisable_reports() -> Iterator[list[Any]]:
    reports: list[Any] = []
    previous = sys.unraisablehook
    sys.unraisablehook = reports.append
    try:
        yield reports
    finally:
        sys.unraisablehook = previous


def _checked(target: Target, value: Any) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            result = target.run(value)
        except chatcodec.ChatcodecError as error:
            if target.stream:
                _check_stream_error(error, value)
            elif target.paths_checked:
                _check_error(error, value)
            return type(error).__name__
    _check_written(result)
    return "ok"


def _check_written(result: object) -> None:
    """What an entry point returned can be written as JSON: no ``NaN`` or infinity."""
    if isinstance(result, chatcodec.ChatRequest | chatcodec.ChatResponse):
        result = result.model_dump()
    elif isinstance(result, list) and all(isinstance(item, BaseModel) for item in result):
        result = [item.model_dump() for item in result]
    try:
        json.dumps(result, allow_nan=False)
    except ValueError as error:
        if "Out of range float" in str(error):
            raise ForeignError(f"returned a number JSON cannot hold: {error}") from None
    except (TypeError, RecursionError):
        pass  # not JSON data (None, an event list of models): nothing written here


def _check_stream_error(error: chatcodec.ChatcodecError, value: object) -> None:
    """A stream error names an event that exists, and a path found in the stream's events
    (not always in the event named: a block's joined ``partial_json`` fragments are
    judged at its ``content_block_stop``, which names the fragments' path)."""
    if not isinstance(error, chatcodec.StreamError) or error.event_index is None or not isinstance(value, list):
        return
    events: list[Any] = value
    if not 0 <= error.event_index < max(len(events), 1):
        raise ForeignError(f"event {error.event_index} of {len(events)}: {error}")
    if error.path == "$" or not isinstance(events[error.event_index] if events else None, dict):
        return
    parent = error.path.rpartition(".")[0] or "$"  # a missing key names its parent's place
    if not any(path_in(event, error.path) or path_in(event, parent) for event in events):
        raise ForeignError(f"path {error.path} is in no event: {error}")


# --- inputs ------------------------------------------------------------------------------


def _mutated_one(choices: Callable[[], tuple[Any, ...]]) -> Callable[[Chooser], Any]:
    seeds_once = functools.cache(choices)  # the same seed objects each time: their walks are kept

    def make(chooser: Chooser) -> Any:
        return mutated(chooser, pick(chooser, seeds_once()))

    return make


def _mutated_text(choices: Callable[[], tuple[Any, ...]]) -> Callable[[Chooser], Any]:
    seeds_once = functools.cache(choices)

    def make(chooser: Chooser) -> Any:
        return mutated_json_text(chooser, pick(chooser, seeds_once()))

    return make


def _mutated_sse(choices: Callable[[], tuple[bytes, ...]]) -> Callable[[Chooser], Any]:
    def make(chooser: Chooser) -> Any:
        data = mutated_bytes(chooser, pick(chooser, choices()))
        cuts = sorted({chooser.below(len(data) + 1) for _ in range(chooser.below(4))})
        return [data[start:end] for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True)]

    return make


def _stream_as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _drain(iterator: Iterator[Any]) -> None:
    for _ in iterator:
        pass


# --- entry points ----------------------------------------------------------------------


def _provider_targets(name: str) -> list[Target]:
    found = seeds.seeds(name)

    def requests() -> tuple[Any, ...]:
        return found.requests

    def responses() -> tuple[Any, ...]:
        return found.responses

    def streams() -> tuple[Any, ...]:
        return tuple(list(stream) for stream in found.streams)

    def stream_texts() -> tuple[bytes, ...]:
        return found.stream_texts or (b"",)

    whole = [
        Target(f"decode_request[{name}]", _mutated_one(requests), lambda v: chatcodec.decode_request(name, v)),
        Target(f"decode_request_text[{name}]", _mutated_text(requests), lambda v: chatcodec.decode_request(name, v)),
        Target(f"decode_response[{name}]", _mutated_one(responses), lambda v: chatcodec.decode_response(name, v)),
        Target(f"decode_response_text[{name}]", _mutated_text(responses), lambda v: chatcodec.decode_response(name, v)),
        Target(
            f"sse_reader[{name}]", _mutated_sse(stream_texts), lambda v: _drain(iter_sse_json(v)), paths_checked=False
        ),
        Target(f"cli_convert[{name}]", _mutated_text(requests), lambda v: _cli(["convert", "--from", name], v)),
        *_strict_targets(name, requests, responses),
    ]
    return whole + _stream_targets(name, streams, stream_texts) if decodes_streams(name) else whole


def decodes_streams(name: str) -> bool:
    """Whether the registered codec ``name`` reads streams (the codec says so: a folder
    without ``stream_decode.py`` refuses every stream entry point, and the harness then
    aims none at it)."""
    return bool(getattr(chatcodec.get_codec(name), "decodes_streams", True))


def encodes_streams(name: str) -> bool:
    """Whether the registered codec ``name`` writes streams (a folder with ``stream_encode.py``)."""
    return bool(getattr(chatcodec.get_codec(name), "encodes_streams", True))


def _stream_targets(
    name: str, streams: Callable[[], tuple[Any, ...]], stream_texts: Callable[[], tuple[bytes, ...]]
) -> list[Target]:
    """The stream entry points of a codec that reads streams, strict and not."""
    return [
        Target(
            f"decode_stream[{name}]",
            _mutated_one(streams),
            lambda v: _drain(chatcodec.decode_stream(name, _stream_as_list(v))),
            stream=True,
        ),
        Target(
            f"accumulate_stream[{name}]",
            _mutated_one(streams),
            lambda v: chatcodec.accumulate_stream(name, iter(_stream_as_list(v))),
            stream=True,
        ),
        Target(
            f"accumulate_stream_sse[{name}]",
            _mutated_sse(stream_texts),
            lambda v: chatcodec.accumulate_stream(name, v),
            paths_checked=False,
        ),
        Target(f"conversation[{name}]", _mutated_one(streams), lambda v: _conversation(name, v), stream=True),
        Target(
            f"accumulate_stream_strict[{name}]",
            _mutated_one(streams),
            lambda v: chatcodec.accumulate_stream(name, iter(_stream_as_list(v)), strict=True),
            stream=True,
        ),
    ]


def _strict_targets(
    name: str,
    requests: Callable[[], tuple[Any, ...]],
    responses: Callable[[], tuple[Any, ...]],
) -> list[Target]:
    """The ``strict=True`` entry points of whole payloads (a stream's: :func:`_stream_targets`):
    the same law, every refusal at a path of the input."""
    return [
        Target(
            f"decode_request_strict[{name}]",
            _mutated_one(requests),
            lambda v: chatcodec.decode_request(name, v, strict=True),
        ),
        Target(
            f"decode_response_strict[{name}]",
            _mutated_one(responses),
            lambda v: chatcodec.decode_response(name, v, strict=True),
        ),
        Target(
            f"convert_request_strict[{name}]",
            _mutated_one(requests),
            lambda v: chatcodec.convert_request(
                v, source=name, target="bedrock-converse", strict=True, **NO_LOSS_WARNINGS
            ),
        ),
        Target(f"cli_validate_strict[{name}]", _mutated_text(requests), lambda v: _cli(["validate", "--strict"], v)),
    ]


def _pair_targets(source: str, target: str) -> list[Target]:
    found = seeds.seeds(source)

    def requests() -> tuple[Any, ...]:
        return found.requests

    def responses() -> tuple[Any, ...]:
        return found.responses

    def streams() -> tuple[Any, ...]:
        return tuple(list(stream) for stream in found.streams)

    pair = f"{source}->{target}"
    whole = [
        Target(
            f"convert_request[{pair}]",
            _mutated_one(requests),
            lambda v: chatcodec.convert_request(v, source=source, target=target, **NO_LOSS_WARNINGS),
        ),
        Target(
            f"convert_response[{pair}]",
            _mutated_one(responses),
            lambda v: chatcodec.convert_response(v, source=source, target=target, **NO_LOSS_WARNINGS),
        ),
    ]
    if not (decodes_streams(source) and encodes_streams(target)):
        return whole  # a codec without streams refuses the stream entry points at the call
    stream = Target(
        f"stream_then_encode[{pair}]",
        _mutated_one(streams),
        lambda v: _stream_then_encode(source, target, v),
        stream=True,
    )
    return [*whole, stream]


def _canonical_targets(name: str) -> list[Target]:
    return [
        Target(
            f"encode_request[{name}]",
            _mutated_one(seeds.canonical_requests),
            lambda v: chatcodec.encode_request(name, v, **NO_LOSS_WARNINGS),
        ),
        Target(
            f"encode_response[{name}]",
            _mutated_one(seeds.canonical_responses),
            lambda v: chatcodec.encode_response(name, v, **NO_LOSS_WARNINGS),
        ),
        Target(f"parsed_arguments[{name}]", _mutated_arguments, lambda v: _arguments(name, v)),
    ]


def _messages() -> tuple[Any, ...]:
    return tuple(request["messages"] for request in seeds.canonical_requests())


def _shared_targets() -> list[Target]:
    return [
        Target("validate_messages", _mutated_one(_messages), chatcodec.validate_messages),
        Target("validate_messages_text", _mutated_text(_messages), chatcodec.validate_messages),
        Target("conversation_messages", _mutated_one(_messages), _conversation_messages, paths_checked=False),
        Target("cli_validate", _mutated_text(_messages), lambda v: _cli(["validate"], v)),
        *(
            Target(
                f"render[{template}]",
                _mutated_one(seeds.canonical_requests),
                lambda v, template=template: chatcodec.render(v, template=template, **NO_LOSS_WARNINGS),
            )
            for template in ("qwen3", "gpt-oss", "llama3.1")
        ),
        Target(
            "render_messages[qwen3.6]",
            _mutated_one(_messages),
            lambda v: chatcodec.render(v, template="qwen3.6", train_on="all_assistant_messages", **NO_LOSS_WARNINGS),
        ),
        *_completion_targets(),
    ]


_SENTINEL = "QZXJ"


def _completion_targets() -> list[Target]:
    """``parse_completion`` under each tool-call parser, on vLLM's parser test samples mutated
    (any parser meets any family's text: a server run with the wrong parser)."""
    from chatcodec._training.completion.parsers import TOOL_CALL_PARSERS
    from training.parse_fixtures import VLLM_PARSER_SAMPLES

    completions = tuple(raw for _, raw in VLLM_PARSER_SAMPLES)

    def make(chooser: Chooser) -> str:
        text = pick(chooser, completions).encode("utf-8")
        return mutated_bytes(chooser, text).decode("utf-8", "surrogateescape")

    def parse(parser: str) -> Callable[[Any], object]:
        def run(value: str) -> object:
            """The parse, and nothing silently dropped: a string planted in the middle comes back
            in the message or in a loss (an AssertionError is a finding, as any foreign error)."""
            planted = value[: len(value) // 2] + _SENTINEL + value[len(value) // 2 :]
            losses: list[chatcodec.Loss] = []
            message = chatcodec.parse_completion(planted, parser=parser, on_loss="ignore", losses=losses)
            kept = json.dumps(message.model_dump(), ensure_ascii=False) + "".join(str(loss) for loss in losses)
            if _SENTINEL not in kept:
                raise AssertionError(f"parse_completion[{parser}] dropped text it was given: {planted!r}")
            return message

        return run

    return [
        Target(f"parse_completion[{parser}]", make, parse(parser), paths_checked=False)
        for parser in sorted(TOOL_CALL_PARSERS)
    ]


KNOWN_BROKEN_TARGETS: dict[str, str] = {}
"""Targets the short run in the suite leaves out, each with the bug (found by this harness
in a codec that landed after it; the long run still runs them). Fix the bug, delete the entry."""


def _framework_targets(name: str) -> list[Target]:
    """A framework history format's entry points: its histories and answers read, converted
    to every provider, to canonical and to each framework format, its bare message lists
    validated (as ``validate_messages`` takes them and ``validate --format`` reads them),
    and its writer given canonical data. A stored history has no streams and no strict
    reading (its capabilities say so), so it has no target of either; a protocol whose runs
    stream (AG-UI's) has its stream entry points too."""
    found = seeds.seeds(name)

    def streams() -> tuple[Any, ...]:
        return tuple(list(stream) for stream in found.streams)

    def stream_texts() -> tuple[bytes, ...]:
        return found.stream_texts

    def requests() -> tuple[Any, ...]:
        return found.requests

    def responses() -> tuple[Any, ...]:
        return found.responses

    def message_lists() -> tuple[Any, ...]:
        return seeds.framework_message_lists(name)

    whole = [
        Target(f"decode_request[{name}]", _mutated_one(requests), lambda v: chatcodec.decode_request(name, v)),
        Target(f"decode_request_text[{name}]", _mutated_text(requests), lambda v: chatcodec.decode_request(name, v)),
        Target(f"decode_response[{name}]", _mutated_one(responses), lambda v: chatcodec.decode_response(name, v)),
        Target(f"decode_response_text[{name}]", _mutated_text(responses), lambda v: chatcodec.decode_response(name, v)),
        Target(f"validate_messages[{name}]", _mutated_one(message_lists), chatcodec.validate_messages),
        Target(f"validate_messages_text[{name}]", _mutated_text(message_lists), chatcodec.validate_messages),
        Target(f"cli_convert[{name}]", _mutated_text(requests), lambda v: _cli(["convert", "--from", name], v)),
        Target(f"cli_validate[{name}]", _mutated_text(requests), lambda v: _cli(["validate", "--format", name], v)),
    ]
    targets = [*seeds.provider_names(), CANONICAL, *seeds.framework_names()]
    if decodes_streams(name):
        whole += _stream_targets(name, streams, stream_texts)
    return whole + _canonical_targets(name) + [pair for target in targets for pair in _pair_targets(name, target)]


def all_targets() -> list[Target]:
    """Every entry point, under every provider with fixtures and every framework history
    format, and every pair of them with canonical as a target too (a framework format as a
    target is reached through ``encode_*`` and from the other framework formats)."""
    names = seeds.provider_names()
    found = _shared_targets()
    for name in names:
        found += _provider_targets(name) + _canonical_targets(name)
        for target in [*names, CANONICAL]:
            found += _pair_targets(name, target)
    for name in seeds.framework_names():
        found += _framework_targets(name)
    return found


# --- entry points that take more than one call ---------------------------------------


def _stream_then_encode(source: str, target: str, value: Any) -> list[Any]:
    """The wire events and the response written for ``target`` (checked as JSON by the law)."""
    events = list(chatcodec.decode_stream(source, _stream_as_list(value)))
    try:
        written = list(chatcodec.encode_stream(target, events, **NO_LOSS_WARNINGS))
    except chatcodec.StreamError as error:  # it numbers the canonical events, not the input's
        raise chatcodec.StreamError(f"encoding the decoded events: {error}") from error
    response = chatcodec.accumulate_stream(source, _stream_as_list(value))
    return [*written, chatcodec.encode_response(target, response, **NO_LOSS_WARNINGS)]


def _conversation(provider: str, value: Any) -> None:
    conversation = chatcodec.Conversation(system="s")
    for chunk in _stream_as_list(value):
        conversation.append_chunk(provider, chunk if isinstance(chunk, dict) else {"chunk": chunk})
    conversation.finish_stream()
    conversation.fill_missing_tool_results()
    conversation.render()
    for name in seeds.provider_names():
        conversation.dump(name, model="m", **NO_LOSS_WARNINGS)


def _conversation_messages(value: Any) -> None:
    conversation = chatcodec.Conversation(messages=value if isinstance(value, list) else [value])
    conversation.unresolved_tool_calls()
    conversation.fill_missing_tool_results()
    conversation.render()
    for name in seeds.provider_names():
        conversation.dump(name, model="m", **NO_LOSS_WARNINGS)


def _mutated_arguments(chooser: Chooser) -> str:
    text = pick(chooser, seeds.tool_arguments()).encode("utf-8")
    return mutated_bytes(chooser, text).decode("utf-8", "surrogateescape")


def _arguments(provider: str, arguments: str) -> None:
    call = chatcodec.ToolUsePart(id="c", name="f", arguments=arguments)
    with contextlib.suppress(chatcodec.ToolArgumentsError):
        call.parsed_arguments()
    request = chatcodec.ChatRequest(model="m", messages=[chatcodec.AssistantMessage(content=[call])])
    chatcodec.encode_request(provider, request, **NO_LOSS_WARNINGS)


_CLI_FOLDER = Path(tempfile.mkdtemp(prefix="chatcodec-fuzz-"))


def _cli(arguments: list[str], text: bytes) -> None:
    document = _CLI_FOLDER / "input.json"
    document.write_bytes(text)
    extra: list[str] = []
    if arguments[0] == "convert":
        target = "anthropic" if "openai-chat" in arguments else "openai-chat"
        rejects = _CLI_FOLDER / "rejects.jsonl"
        extra = ["--to", target, "--quiet", "--out", str(_CLI_FOLDER / "out.json"), "--rejects", str(rejects)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        code = main([*arguments, str(document), *extra])
    if code == 70 or "internal error" in err.getvalue():
        raise ForeignError(f"the CLI reported an internal error:\n{err.getvalue()}")


__all__ = ["ForeignError", "Target", "all_targets", "check", "dumps", "location_exists"]
