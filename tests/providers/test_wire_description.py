"""Each provider's wire is described once: the shapes of its ``wire.py``, each naming the
kinds of the SDK's types it stands for (``stands_for``), checked here against the
``known_fields.json`` generated from the SDK (and the documented extensions of its edge);
the closed front schema is built from the same shapes (``closed_like``), which refuses a
field a shape does not type; the readers' field lists are the shapes' fields."""

from __future__ import annotations

import importlib
import typing

import pytest
import typing_extensions

from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.kit.wire import SDK_KINDS, sdk_kinds, shape_fields
from chatcodec._registry import PROVIDER_NAMES, get_codec
from chatcodec._strict.fields import Schema, schema_for


def _described() -> dict[str, str]:
    """Every provider with generated field sets (a ``known_fields.json``), by registry name,
    and the package of its folder."""
    found: dict[str, str] = {}
    for name in PROVIDER_NAMES:
        codec = get_codec(name)
        if isinstance(codec, ProviderCodec) and codec.field_sets() is not None:
            module: str = getattr(codec.messages, "__name__", "")  # the folder's messages.py
            found[name] = module.rpartition(".")[0]
    return found


DESCRIBED = _described()


_FAMILIES = "chatcodec._providers.families."


def _shapes(package: str) -> dict[str, type]:
    """The wire ``TypedDict`` shapes of the provider's ``wire.py``: defined there, or taken
    from its family (``families/aws/blocks.py``)."""
    module = importlib.import_module(f"{package}.wire")
    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, type)
        and typing_extensions.is_typeddict(value)
        and (value.__module__ == module.__name__ or value.__module__.startswith(_FAMILIES))
    }


def _schema(provider: str) -> Schema:
    schema = schema_for(provider)
    assert schema is not None
    return schema


def test_every_provider_with_generated_field_sets_is_described() -> None:
    assert len(DESCRIBED) >= 5  # the five whose SDK types are generated (Ollama has none)


@pytest.mark.parametrize("provider", list(DESCRIBED))
def test_every_wire_shape_names_the_sdk_kinds_it_stands_for(provider: str) -> None:
    unnamed = [name for name, shape in _shapes(DESCRIBED[provider]).items() if not hasattr(shape, SDK_KINDS)]
    assert unnamed == []


@pytest.mark.parametrize("provider", list(DESCRIBED))
def test_the_sdk_kinds_a_wire_shape_names_are_in_the_generated_field_sets(provider: str) -> None:
    schema = _schema(provider)
    missing = {
        name: [kind for kind in sdk_kinds(shape) if kind not in schema.kinds]
        for name, shape in _shapes(DESCRIBED[provider]).items()
    }
    assert {name: kinds for name, kinds in missing.items() if kinds} == {}


@pytest.mark.parametrize("provider", list(DESCRIBED))
def test_a_field_a_wire_shape_types_is_the_sdks_or_a_documented_extension(provider: str) -> None:
    """What the reader types is what strict mode accepts: a field the SDK renamed or
    dropped fails here (after ``tools/known_fields.py`` regenerates the field sets)."""
    schema = _schema(provider)
    unknown: dict[str, list[str]] = {}
    for name, shape in _shapes(DESCRIBED[provider]).items():
        kinds = sdk_kinds(shape)
        if not kinds:
            continue
        known = frozenset[str]().union(*(schema.known(kind) for kind in kinds))
        outside = [field for field in shape_fields(shape) if field not in known]
        if outside:
            unknown[name] = outside
    assert unknown == {}


def test_shape_fields_are_a_typeddicts_keys_in_order() -> None:
    class Base(typing.TypedDict):
        b: int

    class Shape(Base, total=False):
        a: int

    assert shape_fields(Shape) == ("b", "a")
