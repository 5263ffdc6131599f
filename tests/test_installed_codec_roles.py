"""An installed ``ProviderCodec``'s role functions are someone else's code (issue 87): each
one the contract defines, raising a foreign exception or giving back what its protocol does
not give, is a :class:`chatcodec.CodecNotAvailableError` naming the codec, the distribution
and entry point that installed it, the role's file and the function; never a ``KeyError``
from inside chatcodec, nor "internal error" on the command line. A chatcodec error the codec
raises on purpose passes as it is.

The codecs here are the template folder (the recipe an outside codec copies) with one
function replaced, guarded as loading an entry point guards it
(:func:`chatcodec._providers.contract.outside_roles.guard_roles`); the last test installs a
provider folder as pip does and runs the command line in a fresh process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._providers.contract.folder import PROTOCOL_NAMES, ROLE_FILES, roles_of
from chatcodec._providers.contract.outside_roles import RETURNS, guard_roles
from chatcodec.contract import OptionTable, ProviderCodec
from chatcodec.streams._sse import iter_sse_json

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = "chatcodec._providers._template"
ORIGIN = "installed by the distribution chatcodec_hostile 0.1, entry point hostile = hostile_codec"
REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
CANONICAL_REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
CANONICAL_RESPONSE = {
    "id": "r1",
    "model": "m",
    "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "hello"}, "finish_reason": {"unified": "stop"}}
    ],
}


def _canonical_events() -> list[Any]:
    """A recorded OpenAI Chat stream's canonical events."""
    recording = Path(__file__).parent / "fixtures" / "openai-chat" / "stream" / "finish_length.sse"
    return list(chatcodec.decode_stream("openai-chat", iter_sse_json(recording.read_bytes().splitlines(keepends=True))))


def _raises(*_: object, **__: object) -> Any:
    raise KeyError("choices")


def _garbage(*_: object, **__: object) -> Any:
    return {"not", "what", "any", "function", "gives"}


def _codec(argument: str, function: str, replacement: Callable[..., Any]) -> ProviderCodec:
    """The template folder's codec named ``hostile``, its ``argument`` role's ``function``
    replaced, guarded as an installed codec is."""
    roles = roles_of(TEMPLATE)
    roles.pop("markers")
    module = roles.get(argument)
    names = RETURNS[_FILES[argument]]
    functions = {name: getattr(module, name) for name in names if module is not None and hasattr(module, name)}
    roles[argument] = SimpleNamespace(
        **{**vars(module), **functions, function: replacement} if module else {function: replacement}
    )
    codec = ProviderCodec("hostile", options=OptionTable.of(), **roles)
    guard_roles(codec, ORIGIN)
    return codec


def _read_request(codec: ProviderCodec) -> object:
    return codec.read_request(dict(REQUEST))


def _write_request(codec: ProviderCodec) -> object:
    return codec.write_request(CANONICAL_REQUEST, LossRecorder())


_DRIVERS: dict[tuple[str, str], Callable[[ProviderCodec], object]] = {
    ("requests", "decode_request"): _read_request,
    ("requests", "encode_request"): _write_request,
    ("requests", "decode_message_list"): lambda codec: codec.read_messages([{"role": "user", "content": "hi"}]),
    ("responses", "decode_response"): lambda codec: codec.read_response({"id": "r1", "model": "m"}),
    ("responses", "encode_response"): lambda codec: codec.write_response(CANONICAL_RESPONSE, LossRecorder()),
    ("finish_reasons", "decode_finish_reason"): lambda codec: _role(codec, "finish_reasons").decode_finish_reason(
        "stop", {}
    ),
    ("finish_reasons", "encode_finish_reason"): lambda codec: _role(codec, "finish_reasons").encode_finish_reason(
        {"unified": "stop"}, {}, codec.encode_context(LossRecorder()), ()
    ),
    ("usage", "decode_usage"): lambda codec: _role(codec, "usage").decode_usage({}),
    ("usage", "encode_usage"): lambda codec: _role(codec, "usage").encode_usage(
        {}, codec.encode_context(LossRecorder()), ()
    ),
    ("messages", "decode_messages"): lambda codec: _role(codec, "messages").decode_messages([], codec.decode_context()),
    ("messages", "encode_messages"): lambda codec: _role(codec, "messages").encode_messages(
        [], 0, codec.encode_context(LossRecorder())
    ),
    ("parts", "encode_part"): lambda codec: _role(codec, "parts").encode_part(
        {"type": "text", "text": "hi"}, codec.encode_context(LossRecorder()), ()
    ),
    ("tools", "decode_tools"): lambda codec: _role(codec, "tools").decode_tools({}, {}, {}, codec.decode_context()),
    ("tools", "encode_tools"): lambda codec: _role(codec, "tools").encode_tools(
        {}, {}, {}, codec.encode_context(LossRecorder())
    ),
    ("settings", "decode_settings"): lambda codec: _role(codec, "settings").decode_settings(
        {}, {}, {}, codec.decode_context()
    ),
    ("settings", "encode_settings"): lambda codec: _role(codec, "settings").encode_settings(
        {}, {}, {}, codec.encode_context(LossRecorder())
    ),
    ("dialect", "decode_part"): lambda codec: codec.decode_part({"type": "text"}),
    ("dialect", "decode_assistant"): lambda codec: codec.decode_assistant({"role": "assistant"}),
    ("dialect", "decode_tools"): lambda codec: codec.decode_tools([]),
}
"""How chatcodec reaches each role function of a codec: through the codec's own methods, or
its role properties (what the kit and the dialect readers call)."""

_FILES = {argument: file for file, argument in ROLE_FILES.items()}


def _role(codec: ProviderCodec, argument: str) -> Any:
    return getattr(codec, argument)


def test_every_function_the_contract_defines_is_checked_and_driven() -> None:
    functions = {file: set(names) for file, names in PROTOCOL_NAMES.items() if not names[0].isupper()}
    assert {file: set(names) for file, names in RETURNS.items()} == functions
    assert set(_DRIVERS) == {(ROLE_FILES[file], name) for file, names in functions.items() for name in names}


@pytest.mark.parametrize(("argument", "function"), sorted(_DRIVERS))
def test_a_role_function_that_raises_is_named_with_its_distribution(argument: str, function: str) -> None:
    codec = _codec(argument, function, _raises)
    with pytest.raises(chatcodec.CodecNotAvailableError) as raised:
        _DRIVERS[argument, function](codec)
    said = str(raised.value)
    assert said.startswith(f"the codec 'hostile' ({ORIGIN}) failed in {_FILES[argument]}.py {function}: KeyError")
    assert isinstance(raised.value.__cause__, KeyError)


_CHECKED_RETURNS = sorted(
    (argument, name) for (argument, name) in _DRIVERS if RETURNS[_FILES[argument]][name] is not None
)


@pytest.mark.parametrize(("argument", "function"), _CHECKED_RETURNS)
def test_a_role_function_that_returns_garbage_is_named_with_its_distribution(argument: str, function: str) -> None:
    codec = _codec(argument, function, _garbage)
    with pytest.raises(chatcodec.CodecNotAvailableError) as raised:
        _DRIVERS[argument, function](codec)
    said = str(raised.value)
    assert said.startswith(
        f"the codec 'hostile' ({ORIGIN}) returned a set from {_FILES[argument]}.py {function}, not a"
    )


_NOT_JSON: dict[str, tuple[object, str]] = {
    # a value no JSON text spells (issue 101, reproducer W9-06): (the value, how the error names it)
    "nan": (float("nan"), "NaN"),
    "infinity": (float("inf"), "an infinite number"),
    "bytes": (b"PDF", "a value of type bytes"),
    "object": (object(), "a value of type object"),
    "set": ({"a"}, "a value of type set"),
}


def _holding(stray: object, kinds: tuple[type, ...]) -> object:
    """What a function of the protocol ``kinds`` gives back, holding ``stray`` two levels down."""
    if dict in kinds:
        return {"role": "user", "content": [{"type": "text", "text": stray}]}
    return [{"role": "user", "content": [{"type": "text", "text": stray}]}]


_JSON_RETURNS = sorted(
    (argument, name)
    for (argument, name) in _CHECKED_RETURNS
    if {dict, list} & set(RETURNS[_FILES[argument]][name] or ())
)


@pytest.mark.parametrize("stray", sorted(_NOT_JSON))
@pytest.mark.parametrize(("argument", "function"), _JSON_RETURNS)
def test_a_role_function_returning_what_json_cannot_spell_is_named(argument: str, function: str, stray: str) -> None:
    value, named = _NOT_JSON[stray]
    given = _holding(value, RETURNS[_FILES[argument]][function] or ())
    codec = _codec(argument, function, lambda *_, **__: given)
    with pytest.raises(chatcodec.CodecNotAvailableError) as raised:
        _DRIVERS[argument, function](codec)
    place = "$.content[0].text" if isinstance(given, dict) else "$[0].content[0].text"
    assert str(raised.value).startswith(
        f"the codec 'hostile' ({ORIGIN}) returned {named} at {place} from {_FILES[argument]}.py {function}: "
        "what a codec returns is JSON data"
    )


def test_a_key_that_is_no_text_is_named_at_its_object() -> None:
    codec = _codec("requests", "encode_request", lambda *_: {"model": "m", "metadata": {1: "one"}})
    with pytest.raises(
        chatcodec.CodecNotAvailableError, match=r"returned a key of type int \(1\), not text, at \$\.metadata "
    ):
        _write_request(codec)


def test_a_value_holding_itself_is_named_not_a_recursion_error() -> None:
    looped: dict[str, object] = {"model": "m"}
    looped["again"] = looped
    codec = _codec("requests", "encode_request", lambda *_: looped)
    with pytest.raises(chatcodec.CodecNotAvailableError, match=r"nested deeper than 1000 \(or holding itself\)"):
        _write_request(codec)


def test_a_list_of_messages_holding_no_dict_is_named() -> None:
    codec = _codec("messages", "decode_messages", lambda *_: [{"role": "user"}, "hi"])
    with pytest.raises(chatcodec.CodecNotAvailableError, match=r"returned a list holding a str from messages\.py"):
        _role(codec, "messages").decode_messages([], codec.decode_context())


def test_a_chatcodec_error_the_codec_raises_passes_as_it_is() -> None:
    def refuses(*_: object) -> Any:
        raise chatcodec.PayloadError("no messages here [rule: hostile]", "$.messages")

    codec = _codec("requests", "decode_request", refuses)
    with pytest.raises(chatcodec.PayloadError) as raised:
        _read_request(codec)
    assert type(raised.value) is chatcodec.PayloadError
    assert raised.value.path == "$.messages"


def test_the_guarded_template_still_converts_as_the_template() -> None:
    """Guarding changes nothing a well-behaved codec gives: the same reading and writing."""
    plain = ProviderCodec.from_package(TEMPLATE, name="hostile")
    guarded = ProviderCodec.from_package(TEMPLATE, name="hostile")
    guard_roles(guarded, ORIGIN)
    guard_roles(guarded, ORIGIN)  # once: a second call wraps nothing again
    assert guarded.read_request(dict(REQUEST)) == plain.read_request(dict(REQUEST))
    assert guarded.write_request(CANONICAL_REQUEST, LossRecorder()) == plain.write_request(
        CANONICAL_REQUEST, LossRecorder()
    )
    assert guarded.write_response(CANONICAL_RESPONSE, LossRecorder()) == plain.write_response(
        CANONICAL_RESPONSE, LossRecorder()
    )
    events = list(plain.encode_stream(_canonical_events(), LossRecorder()))
    again = list(guarded.encode_stream(_canonical_events(), LossRecorder()))
    assert again == events
    assert list(guarded.decode_stream(events)) == list(plain.decode_stream(events))


class _HostileDecoder:
    def __init__(self, *_: object) -> None:
        pass

    def feed(self, event: dict[str, Any]) -> Any:
        if event.get("type") == "boom":
            raise KeyError("delta")
        return {"not": "a sequence"}

    def read(self, events: Any) -> None:
        raise KeyError("read")

    def close(self) -> Any:
        return []


class _HostileEncoder:
    stream_contract = 2

    def __init__(self, *_: object) -> None:
        pass

    def feed(self, event: Any) -> Any:
        return iter([1])

    def close(self) -> Any:
        raise ValueError("closing")


def _streaming_codec() -> ProviderCodec:
    roles = roles_of(TEMPLATE)
    roles.pop("markers")
    roles["stream_decoder"], roles["stream_encoder"] = _HostileDecoder, _HostileEncoder
    codec = ProviderCodec("hostile", options=OptionTable.of(), **roles)
    guard_roles(codec, ORIGIN)
    return codec


def test_a_stream_decoder_that_raises_or_returns_garbage_is_named() -> None:
    codec = _streaming_codec()
    with pytest.raises(chatcodec.CodecNotAvailableError, match=r"failed in stream_decode.py feed: KeyError"):
        codec.stream_decoder().feed({"type": "boom"})
    with pytest.raises(chatcodec.CodecNotAvailableError, match=r"returned a dict from stream_decode.py feed"):
        codec.stream_decoder().feed({"type": "delta"})
    with pytest.raises(chatcodec.CodecNotAvailableError, match=r"failed in stream_decode.py read: KeyError"):
        codec.stream_decoder().read([{"type": "delta"}])


def test_a_stream_encoder_that_raises_or_returns_garbage_is_named() -> None:
    codec = _streaming_codec()
    encoder = codec.stream_encoder(LossRecorder())
    first = _canonical_events()[0]
    with pytest.raises(chatcodec.CodecNotAvailableError, match=r"returned a list holding a int from stream_encode.py"):
        encoder.feed(first)
    with pytest.raises(
        chatcodec.CodecNotAvailableError, match=r"failed in stream_encode.py close: ValueError: closing"
    ):
        encoder.close()


_FOLDER = {
    "__init__.py": "",
    "markers.py": (
        'PROVIDER = "hostile"\n'
        "ROLES = {\n"
        + "".join(
            f'    "{file}": "chatcodec._providers._template.{file}",\n'
            for file in ("response", "capabilities", "finish_reason", "usage", "messages", "parts", "tools", "settings")
        )
        + "}\n"
    ),
    "request.py": (
        "def decode_request(payload, context):\n"
        "    return payload['choices']\n"
        "def encode_request(request, context):\n"
        "    return ['not', 'a', 'body']\n"
        "def decode_message_list(messages, context):\n"
        "    return []\n"
    ),
}


def _installed(tmp_path: Path) -> Path:
    """A site folder holding the distribution chatcodec_hostile 0.1: the provider folder
    ``hostile_codec``, named by its entry point (``hostile = hostile_codec``)."""
    site = tmp_path / "site"
    package = site / "hostile_codec"
    package.mkdir(parents=True)
    for name, text in _FOLDER.items():
        (package / name).write_text(text, encoding="utf-8")
    info = site / "chatcodec_hostile-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: chatcodec_hostile\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[chatcodec.codecs]\nhostile = hostile_codec\n", encoding="utf-8")
    (site / "body.json").write_text(json.dumps(REQUEST), encoding="utf-8")
    return site


@pytest.mark.parametrize(
    ("direction", "said"),
    [
        (("--from", "hostile", "--to", "openai-chat"), "failed in request.py decode_request: KeyError: 'choices'"),
        (("--from", "openai-chat", "--to", "hostile"), "returned a list from request.py encode_request, not a dict"),
    ],
)
def test_an_installed_provider_folder_is_named_on_the_command_line(
    tmp_path: Path, direction: tuple[str, ...], said: str
) -> None:
    site = _installed(tmp_path)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src")])}
    command = subprocess.run(
        [sys.executable, "-m", "chatcodec", "convert", "body.json", *direction],
        env=environment,
        cwd=site,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert command.returncode not in (0, 70), command.stderr
    assert "internal error" not in command.stderr
    assert (
        "the codec 'hostile' (installed by the distribution chatcodec_hostile 0.1, entry point hostile = hostile_codec)"
        in command.stderr
    )
    assert said in command.stderr
