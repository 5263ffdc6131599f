"""The canonical ``TypedDict`` s (:mod:`chatcodec._model.canonical_types`) and the canonical models
describe the same JSON.

The module is generated from the models by ``tools/canonical_types.py``; here it is
regenerated and compared, and then checked against the models without the generator's
help: each type's keys are its model's JSON fields, a key is required exactly when every
dump has it (the smallest dict a type admits is a model whose dump is that dict), the tags
are the models' tags and tell each union's arms apart, and every dump of generated and of
recorded data (requests, responses, stream events from ``tests/fixtures``) validates
against its type in strict mode, unchanged, and validates back to the same model.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import types
import typing
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import PydanticUndefined
from typing_extensions import is_typeddict

import chatcodec
import chatcodec.testing as strategies
from chatcodec import STREAM_EVENT_ADAPTER, ChatRequest, ChatResponse
from chatcodec._model import canonical_types
from chatcodec._registry import FRAMEWORK_FORMATS

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


def _generator() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("canonical_types_tool", ROOT / "tools" / "canonical_types.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()
MODELS: list[type[BaseModel]] = [
    model for module in GENERATOR.canonical_modules() for model in GENERATOR.model_classes(module)
]
TAGS = ("type", "role")


def _typed_dict(model: type[BaseModel]) -> Any:
    return getattr(canonical_types, f"{model.__name__}Data")


def _json_fields(model: type[BaseModel]) -> dict[str, Any]:
    """The model's fields by the key a dump writes them under."""
    return {info.serialization_alias or info.alias or name: info for name, info in model.model_fields.items()}


@cache
def _adapter(typed_dict: Any) -> TypeAdapter[Any]:
    return TypeAdapter(typed_dict)


def _exact(value: object) -> str:
    """JSON text telling apart what ``==`` does not (``1`` and ``1.0``, ``True`` and ``1``)."""
    return json.dumps(value, sort_keys=True)


def _assert_described(model: BaseModel, typed_dict: Any) -> None:
    """The dump validates against ``typed_dict`` in strict mode, unchanged, and the model
    validates what the type accepted back to the same model."""
    dump = model.model_dump()
    accepted = _adapter(typed_dict).validate_python(dump, strict=True)
    assert _exact(accepted) == _exact(dump)
    assert type(model).model_validate(accepted) == model


def test_the_committed_modules_are_generated_from_the_models() -> None:
    generated = GENERATOR.render()
    assert set(generated) == {"canonical_types.py", *(f"{part}.py" for part in GENERATOR.PARTS)}
    for name, text in generated.items():
        committed = (ROOT / "src" / "chatcodec" / "_model" / name).read_text(encoding="utf-8")
        assert committed == text, f"run: python tools/canonical_types.py ({name} drifted)"


def test_no_generated_module_passes_600_lines() -> None:
    """The types are written in parts so that none is a module too long to read."""
    for name, text in GENERATOR.render().items():
        assert text.count("\n") < 600, name


def test_every_canonical_model_has_its_typed_dict() -> None:
    names = {model.__name__ for model in MODELS}
    assert {"TextPart", "UserMessage", "ToolDefinition", "ChatRequest", "ChatResponse", "FinishEvent"} <= names
    typed_dicts = {name for name, value in vars(canonical_types).items() if is_typeddict(value)}
    assert typed_dicts == {f"{name}Data" for name in names}


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_the_keys_are_the_models_json_fields(model: type[BaseModel]) -> None:
    typed_dict = _typed_dict(model)
    assert typed_dict.__required_keys__ | typed_dict.__optional_keys__ == set(_json_fields(model))
    assert typed_dict.__closed__ is True  # no other key, as the models forbid extra fields


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_the_tags_are_the_models_tags(model: type[BaseModel]) -> None:
    hints = typing.get_type_hints(_typed_dict(model))
    tags = [key for key in _json_fields(model) if key in TAGS]
    for key in tags:
        assert typing.get_args(hints[key]) == typing.get_args(model.model_fields[key].annotation)
    assert tags or model.__name__ in _UNTAGGED


_UNTAGGED = {
    *("ReasoningConfig", "ChatRequest", "FinishReason", "Usage", "ResponseChoice", "ChatResponse"),
    *("TokenLogprob", "TopLogprob"),
}
"""Models that are never an arm of a union, so carry no tag."""


def _smallest(annotation: Any) -> Any:
    """The smallest JSON value of a type: a ``TypedDict`` with its required keys only, a
    list of one item, the first arm of a union, the first value of a ``Literal``."""
    if annotation is canonical_types.JsonValue:
        return None
    if is_typeddict(annotation):
        hints = typing.get_type_hints(annotation)
        return {key: _smallest(hints[key]) for key in hints if key in annotation.__required_keys__}
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is typing.Literal or origin in (types.UnionType, typing.Union):
        return arguments[0] if origin is typing.Literal else _smallest(arguments[0])
    if origin is list:
        return [_smallest(arguments[0])]
    if origin is dict:
        return {}
    smallest: dict[Any, Any] = {str: "x", int: 0, float: 0.0, bool: False}
    return smallest[annotation]


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_a_key_is_required_exactly_when_every_dump_has_it(model: type[BaseModel]) -> None:
    """The smallest dict the type admits is a valid model whose dump is exactly that dict:
    no required key is one a dump may leave out, and no key a dump always writes is
    optional (a model holding only its defaults dumps only the keys every dump has)."""
    required = _typed_dict(model).__required_keys__
    smallest = _smallest(_typed_dict(model))
    assert set(smallest) == required
    instance = model.model_validate(smallest)
    assert _exact(instance.model_dump()) == _exact(smallest)
    defaults = {name: info.get_default(call_default_factory=True) for name, info in model.model_fields.items()}
    bare = instance.model_copy(
        update={name: value for name, value in defaults.items() if value is not PydanticUndefined}
    )
    assert set(bare.model_dump()) == required  # every field at its default: the keys every dump has


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_an_optional_key_is_left_out_when_it_holds_its_default(model: type[BaseModel]) -> None:
    optional = _typed_dict(model).__optional_keys__
    for key, info in _json_fields(model).items():
        excluded = info.exclude_if is not None and info.exclude_if(info.get_default(call_default_factory=True))
        assert excluded == (key in optional), key


def _union_arms(name: str) -> tuple[Any, ...]:
    union = getattr(canonical_types, name)
    arms: tuple[Any, ...] = typing.get_args(union)
    return arms


_UNIONS = [name for names in GENERATOR.UNIONS.values() for name in names]


@pytest.mark.parametrize("name", _UNIONS)
def test_each_union_is_the_models_union_told_apart_by_its_tag(name: str) -> None:
    """``part["type"] == "text"`` narrows to one arm: no two arms share a tag value."""
    module = next(module for module in GENERATOR.canonical_modules() if name in vars(module))
    arms = _union_arms(f"{name}Data")
    assert [arm.__name__ for arm in arms] == [
        f"{model.__name__}Data" for model in GENERATOR.union_arms(vars(module)[name])
    ]
    tag = next(key for key in TAGS if key in arms[0].__required_keys__)
    values = [value for arm in arms for value in typing.get_args(typing.get_type_hints(arm)[tag])]
    assert len(values) == len(set(values))


def test_the_literal_aliases_are_the_models() -> None:
    assert typing.get_args(canonical_types.ReasoningEffort) == typing.get_args(chatcodec.ReasoningEffort)
    assert typing.get_args(canonical_types.UnifiedFinishReason) == typing.get_args(chatcodec.UnifiedFinishReason)


def test_a_typed_dict_refuses_what_the_model_refuses_as_a_shape() -> None:
    """Strict and closed: no coercion, no unknown key, no ``null`` for a key left out."""
    adapter = _adapter(canonical_types.ChatRequestData)
    assert adapter.validate_python({"messages": []}, strict=True) == {"messages": []}
    wrongs: list[dict[str, object]] = [{"max_tokens": "1"}, {"extra": 1}, {"model": None}, {"stream": 1}]
    for wrong in wrongs:
        with pytest.raises(ValidationError, match=f"1 validation error for ChatRequestData\n{next(iter(wrong))}"):
            adapter.validate_python({"messages": [], **wrong}, strict=True)


# --- every dump of generated data ------------------------------------------------------


@given(strategies.chat_requests())
def test_every_generated_request_dump_is_a_chat_request_data(request: ChatRequest) -> None:
    _assert_described(request, canonical_types.ChatRequestData)


@given(strategies.chat_responses())
def test_every_generated_response_dump_is_a_chat_response_data(response: ChatResponse) -> None:
    _assert_described(response, canonical_types.ChatResponseData)


@given(strategies.stream_events())
def test_every_generated_stream_event_dump_is_a_stream_event_data(event: BaseModel) -> None:
    dump = event.model_dump()
    accepted = _adapter(canonical_types.StreamEventData).validate_python(dump, strict=True)
    assert _exact(accepted) == _exact(dump)
    assert STREAM_EVENT_ADAPTER.validate_python(accepted) == event


@given(strategies.chat_requests())
def test_every_message_dump_in_list_form_is_a_message_data(request: ChatRequest) -> None:
    """The list form of content (``content_form="list"``) is canonical data too."""
    for message in request.messages:
        dump = message.model_dump(mode="json", context={"content_form": "list"})
        accepted = _adapter(canonical_types.MessageData).validate_python(dump, strict=True)
        assert _exact(accepted) == _exact(dump)
        again = chatcodec.MESSAGE_ADAPTER.validate_python(accepted)
        assert _exact(again.model_dump(mode="json", context={"content_form": "list"})) == _exact(dump)


# --- every recorded fixture ----------------------------------------------------------


def _folder(provider: str) -> Path:
    folder = FIXTURES / provider
    return folder if folder.is_dir() else FIXTURES / provider.replace("-", "_")


def _recorded(kind: str) -> list[tuple[str, str]]:
    # a folder is named as its format, a framework's with "_" for its name's "-" (ag_ui: ag-ui)
    return [
        (provider.name.replace("_", "-"), path.name)
        for provider in sorted(FIXTURES.iterdir())
        if (provider / kind).is_dir()
        for path in sorted((provider / kind).iterdir())
        if path.is_file() and not path.name.startswith("error_")
    ]


@pytest.mark.parametrize(("provider", "name"), _recorded("request"))
def test_every_recorded_request_decodes_to_a_chat_request_data(provider: str, name: str) -> None:
    payload = json.loads((_folder(provider) / "request" / name).read_text(encoding="utf-8"))
    _assert_described(chatcodec.decode_request(provider, payload), canonical_types.ChatRequestData)


@pytest.mark.parametrize(("provider", "name"), _recorded("response"))
def test_every_recorded_response_decodes_to_a_chat_response_data(provider: str, name: str) -> None:
    payload = json.loads((_folder(provider) / "response" / name).read_text(encoding="utf-8"))
    _assert_described(chatcodec.decode_response(provider, payload), canonical_types.ChatResponseData)


@pytest.mark.parametrize(("provider", "name"), _recorded("stream"))
def test_every_recorded_stream_decodes_to_stream_event_data(provider: str, name: str) -> None:
    text = (_folder(provider) / "stream" / name).read_text(encoding="utf-8")
    events = list(chatcodec.decode_stream(provider, text))
    assert events
    dumps = [event.model_dump() for event in events]
    accepted = _adapter(list[canonical_types.StreamEventData]).validate_python(dumps, strict=True)
    assert _exact(accepted) == _exact(dumps)
    assert [STREAM_EVENT_ADAPTER.validate_python(event) for event in accepted] == events


def test_the_recorded_fixtures_are_found() -> None:
    assert len(_recorded("request")) > 50
    found = {provider for provider, _ in _recorded("response")}
    assert found >= set(chatcodec.PROVIDER_NAMES)  # every provider's recorded responses
    # besides them only a built-in agent protocol's examples (mcp-sampling's: the spec's and the SDK's)
    assert found - set(chatcodec.PROVIDER_NAMES) <= FRAMEWORK_FORMATS


# --- light to import -----------------------------------------------------------------


def test_importing_the_types_loads_neither_pydantic_nor_the_models() -> None:
    source = Path(chatcodec.__file__).parent.parent
    code = (
        f"import sys; sys.path.insert(0, {str(source)!r})\n"
        "import chatcodec._model.canonical_types\n"
        "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'chatcodec.'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    parts = [f"chatcodec._model.{part}" for part in GENERATOR.PARTS]
    labels = "chatcodec._public_label"  # stdlib only: shows the exported TypedDicts as chatcodec.<name>
    assert loaded.strip() == str(sorted(["chatcodec._model", "chatcodec._model.canonical_types", labels, *parts]))
