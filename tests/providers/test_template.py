"""The folder contract cannot drift: ``_providers/_template/`` (the folder a newcomer
copies, not registered) has every file of the contract, and every registered provider's
folder has the same files with the same public signatures. The names each file must
define are read from the role protocols (``_providers/contract/roles.py``), the one list of them.
A role may be played by a module elsewhere that the folder's ``markers.ROLES`` names (the
AWS family's block reader for both Bedrock folders): the signatures are checked on whatever
plays it. The template's own codec (``ProviderCodec.from_package``) converts a text
conversation both ways, so what is copied works.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.contract import roles
from chatcodec._providers.contract.provider_codec import ProviderCodec

TEMPLATE = "chatcodec._providers._template"
TEMPLATE_CODEC = ProviderCodec.from_package(TEMPLATE)
"""The template's codec, built from its folder as the registry builds every built-in's."""

ROLES: dict[str, type] = {
    "request": roles.RequestFunctions,
    "response": roles.ResponseFunctions,
    "finish_reason": roles.FinishReasonFunctions,
    "usage": roles.UsageFunctions,
    "messages": roles.MessageFunctions,
    "parts": roles.PartFunctions,
    "tools": roles.ToolFunctions,
    "settings": roles.SettingsFunctions,
    "capabilities": roles.CapabilitiesTable,
    "rules": roles.RulesTable,
    "edge": roles.EdgeTable,
}
"""Each contract module and the role protocol it satisfies (``ProviderCodec.from_package``
checks its names)."""

OWN_NAMES: dict[str, tuple[str, ...]] = {
    "markers": ("PROVIDER", "KIT", "OPTIONS"),
    "wire": (),
}
"""Contract modules with no role protocol, and the names each defines."""

STREAMS: dict[str, tuple[str, ...]] = {"stream_decode": ("StreamDecoder",), "stream_encode": ("StreamEncoder",)}
"""The optional stream modules: a folder has both or neither."""

OPTIONAL = ("structure.py", "dialect.py", "known_fields.json", "batch_rows.py", "stream_framing.py")
"""Files a provider folder may add to the contract (strict mode's rules, the dialect readers'
pieces, the SDK's field set, its edge's stream framing read without the edge), each
described where ``ProviderCodec.from_package`` (or the registry: ``get_framing``) takes it."""


def _names(module: str) -> tuple[str, ...]:
    if module in ROLES:
        protocol = ROLES[module]
        found = [name for name in vars(protocol) if not name.startswith("_")]
        return tuple(found) + tuple(getattr(protocol, "__annotations__", {}))
    return {**OWN_NAMES, **STREAMS}[module]


REQUIRED = (*ROLES, *OWN_NAMES)


def _folder(name: str) -> str:
    return f"chatcodec._providers.{name.replace('-', '_')}"


def _files(package: str) -> set[str]:
    path = Path(importlib.import_module(package).__file__ or "").parent
    return {entry.name for entry in path.iterdir() if entry.name != "__pycache__" and not entry.name.startswith(".")}


def test_the_template_has_every_file_of_the_contract_and_nothing_else() -> None:
    expected = {f"{module}.py" for module in (*REQUIRED, *STREAMS)} | {"__init__.py"}
    assert _files(TEMPLATE) == expected


def _borrowed(name: str) -> dict[str, str]:
    """The roles a folder's ``markers.ROLES`` says a module elsewhere plays."""
    return dict(getattr(importlib.import_module(f"{_folder(name)}.markers"), "ROLES", {}))


def _role(name: str, module: str) -> object:
    """What plays the role ``module`` for the folder of ``name``: its own file, or what its
    ``markers.ROLES`` names (``"module"`` or ``"module:attribute"``)."""
    module_name, _, attribute = _borrowed(name).get(module, f"{_folder(name)}.{module}").partition(":")
    found = importlib.import_module(module_name)
    return getattr(found, attribute) if attribute else found


@pytest.mark.parametrize("name", chatcodec.PROVIDER_NAMES)
def test_every_provider_folder_plays_every_role_of_the_contract(name: str) -> None:
    files = _files(_folder(name)) | {f"{module}.py" for module in _borrowed(name)}
    assert {f"{module}.py" for module in REQUIRED} - files == set()
    assert len({f"{module}.py" for module in STREAMS} & files) in (0, 2), "both stream modules or neither"


def _provider_modules() -> list[Any]:
    cases = []
    for name in chatcodec.PROVIDER_NAMES:  # the built-in folders (a codec registered at run time has none)
        for module in (*REQUIRED, *STREAMS):
            cases.append(pytest.param(name, module, id=f"{name}/{module}"))
    return cases


@pytest.mark.parametrize(("name", "module"), _provider_modules())
def test_every_provider_module_has_the_templates_public_signatures(name: str, module: str) -> None:
    template = importlib.import_module(f"{TEMPLATE}.{module}")
    try:
        real = _role(name, module)
    except ModuleNotFoundError:
        assert module in STREAMS, f"{name} has no {module}.py"
        return
    for attribute in _names(module):
        assert hasattr(real, attribute), f"{name}'s {module}.py has no {attribute}"
        _same_shape(getattr(template, attribute), getattr(real, attribute), f"{name}.{module}.{attribute}")


def _same_shape(template: object, real: object, where: str) -> None:
    """A function: the template's positional parameters, in number and kind, and any more
    only as named keywords with defaults; a class: its ``__init__`` and public methods so;
    a value: the template's type."""
    if inspect.isclass(template):
        assert inspect.isclass(real), where
        for method in ("__init__", *(name for name in vars(template) if not name.startswith("_"))):
            if callable(getattr(template, method)):
                _same_shape(getattr(template, method), getattr(real, method, None), f"{where}.{method}")
    elif inspect.isfunction(template):
        assert callable(real), where
        found = inspect.signature(real)  # type: ignore[arg-type]
        expected = _required(inspect.signature(template))
        assert _required(found) == expected, f"{where}{found}: not the template's {expected} positional parameters"
    else:
        assert isinstance(real, type(template)), f"{where} is a {type(real).__name__}, not a {type(template).__name__}"


def _required(signature: inspect.Signature) -> list[str]:
    """The kinds of the parameters a caller must give (the protocols pass them by
    position, so their names may differ); a provider's more are keywords with defaults."""
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [
        "positional" if parameter.kind is not inspect.Parameter.KEYWORD_ONLY else f"keyword {parameter.name}"
        for parameter in signature.parameters.values()
        if parameter.default is inspect.Parameter.empty and parameter.kind not in variadic
    ]


def test_the_template_is_not_registered() -> None:
    assert TEMPLATE_CODEC.name not in chatcodec.available_formats()


@pytest.fixture
def template() -> Iterator[str]:
    """The template's codec, registered for one test under its own name."""
    name = TEMPLATE_CODEC.name
    chatcodec.register_codec(name, lambda: TEMPLATE_CODEC)
    try:
        yield name
    finally:
        chatcodec.unregister_codec(name)


def test_the_template_codec_round_trips_a_text_conversation_exactly(template: str) -> None:
    body = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello"},
        ],
        "max_tokens": 5,
        "temperature": 0.5,
        "seed_of_the_api": 7,
    }
    assert chatcodec.convert_request(body, source=template, target=template, on_loss="error") == body
    answer = {
        "id": "r1",
        "model": "m",
        "message": {"role": "assistant", "content": "Hi"},
        "stop_reason": "max_tokens",
        "usage": {"input_tokens": 3, "output_tokens": 1},
    }
    assert chatcodec.convert_response(answer, source=template, target=template, on_loss="error") == answer
    lines = [
        {"delta": "Hel"},
        {"delta": "lo"},
        {"stop_reason": "end", "usage": {"input_tokens": 3, "output_tokens": 2}},
    ]
    events = list(chatcodec.decode_stream(template, lines))
    assert list(chatcodec.encode_stream(template, events, on_loss="error")) == lines
    assert chatcodec.accumulate_stream(template, lines).message.content[0].text == "Hello"  # type: ignore[union-attr]


def test_the_templates_derived_total_is_no_loss_and_another_total_is_kept(template: str) -> None:
    """``total_tokens`` is the plain sum on the wire: read, it has no canonical field and
    needs none (derived again when written), so converting it is no loss; a total that is
    not the sum is the wire's own word, kept in the bag: exact back, reported elsewhere."""
    answer = {
        "id": "r1",
        "model": "m",
        "message": {"role": "assistant", "content": "Hi"},
        "stop_reason": "end",
        "usage": {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4},
    }
    assert chatcodec.convert_response(answer, source=template, target=template, on_loss="error") == answer
    losses: list[chatcodec.Loss] = []
    openai = chatcodec.convert_response(answer, source=template, target="openai-chat", on_loss="ignore", losses=losses)
    assert openai["usage"]["total_tokens"] == 4
    assert [loss.path for loss in losses if "usage" in loss.path] == []
    back = chatcodec.convert_response(openai, source="openai-chat", target=template, on_loss="ignore")
    assert back["usage"] == answer["usage"]  # written as the sum, from another format's counts
    odd = {**answer, "usage": {"input_tokens": 3, "output_tokens": 1, "total_tokens": 9}}
    assert chatcodec.convert_response(odd, source=template, target=template, on_loss="error") == odd
    losses.clear()
    chatcodec.convert_response(odd, source=template, target="anthropic", on_loss="ignore", losses=losses)
    assert [(loss.path, loss.what) for loss in losses if "usage" in loss.path] == [
        ("$.usage", "template data ['total_tokens']")
    ]


def test_what_the_template_cannot_carry_is_reported_not_dropped(template: str) -> None:
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "q"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
        "top_p": 0.5,
    }
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(body, source="openai-chat", target=template, on_loss="ignore", losses=losses)
    assert written == {"model": "gpt-4o", "messages": [{"role": "user", "content": "q"}]}
    assert sorted(loss.path for loss in losses) == ["$.tools", "$.top_p"]


@pytest.mark.parametrize("name", chatcodec.PROVIDER_NAMES)
def test_no_provider_folder_writes_its_own_stream_text(name: str) -> None:
    """A stream's text form (SSE, JSON lines) is the edge's framing, written once
    (``chatcodec.to_sse``); a per-folder copy is dead code that drifts."""
    try:
        module = importlib.import_module(f"{_folder(name)}.stream_encode")
    except ModuleNotFoundError:
        return
    assert not hasattr(module, "to_sse")


def test_the_template_drops_the_servers_clock_without_a_report(template: str) -> None:
    """The conformance law every registered format keeps (``test_server_facts_are_no_loss``)."""
    response = chatcodec.ChatResponse(id="r", model="m", created=1, message=chatcodec.AssistantMessage(content="Hi"))
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response(template, response, on_loss="ignore", losses=losses)
    assert losses == []
