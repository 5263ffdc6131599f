"""Every public name says where a user imports it from: ``chatcodec.ChatRequest``, not its private module.

httpx sets ``__module__ = "httpx"`` on every name it re-exports; chatcodec's defining modules
label their public classes and functions the same way (``chatcodec._public_label``), so
tracebacks, reprs and pickles never show a path that may move. The labels are set where the
names are defined, so they hold however a name was reached; a pickle names the public path and
the public module's lazy loader finds it again in a fresh process. The JSON Schemas and the
models' titles do not change (``chatcodec schema --check`` in ``tests/test_schema_export.py``).
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import subprocess
import sys
import textwrap
import traceback
from typing import Any

import pytest

import chatcodec
import chatcodec.contract
from test_public_surface import PUBLIC_MODULES


def _labelled_kind(value: object) -> bool:
    """A class or a function (``functools.cache`` ones too): what has a ``__module__`` of its own."""
    return isinstance(value, type) or inspect.isfunction(value) or hasattr(value, "__wrapped__")


def _expected(module_name: str, name: str) -> str:
    """The public module a name is shown under: the package, else the contract or the kit, when they export it too."""
    return next(
        public
        for public in ("chatcodec", "chatcodec.contract", "chatcodec.codec_kit", module_name)
        if name in PUBLIC_MODULES[public].split()
    )


@pytest.mark.parametrize("module_name", sorted(PUBLIC_MODULES))
def test_every_public_class_and_function_is_shown_under_its_public_module(module_name: str) -> None:
    module = importlib.import_module(module_name)
    shown = {
        name: value.__module__
        for name in PUBLIC_MODULES[module_name].split()
        if _labelled_kind(value := getattr(module, name))
    }
    assert {name: where for name, where in shown.items() if where != _expected(module_name, name)} == {}


def test_the_labels_the_issue_names() -> None:
    assert chatcodec.ChatRequest.__module__ == "chatcodec"
    assert chatcodec.contract.ProviderCodec.__module__ == "chatcodec.contract"
    assert repr(chatcodec.ChatRequest) == "<class 'chatcodec.ChatRequest'>"
    assert repr(chatcodec.contract.Capabilities) == "<class 'chatcodec.contract.Capabilities'>"


def test_the_labels_are_set_where_the_names_are_defined() -> None:
    # a fresh process that reaches the defining modules directly, never through the public ones
    code = textwrap.dedent(
        """
        import traceback
        from chatcodec._model.request import ChatRequest
        from chatcodec._providers.contract.provider_codec import ProviderCodec
        from chatcodec._registry import get_codec
        try:
            get_codec("nope")
        except Exception as error:
            last = traceback.format_exception(error)[-1]
        print(ChatRequest.__module__, ProviderCodec.__module__, last.split(":")[0])
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["chatcodec", "chatcodec.contract", "chatcodec.UnknownProviderError"]


def test_a_traceback_names_the_public_error() -> None:
    with pytest.raises(chatcodec.UnknownProviderError) as caught:
        chatcodec.get_codec("nope")
    assert traceback.format_exception_only(caught.value)[-1].startswith("chatcodec.UnknownProviderError: ")


def _samples() -> list[Any]:
    request = chatcodec.ChatRequest(
        model="m",
        messages=[
            {"role": "system", "content": "be brief"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "hi"},
                    {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}},
                ],
            },
            {"role": "assistant", "content": [{"type": "tool_use", "id": "1", "name": "f", "arguments": "{}"}]},
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "1", "content": "ok"}]},
        ],
        tools=[{"name": "f", "parameters": {"type": "object"}}],
    )
    answer = {"choices": [{"message": {"role": "assistant", "content": "hi"}}]}
    response = chatcodec.decode_response("canonical", answer)
    events = list(chatcodec.decode_stream("canonical", [{"type": "text_delta", "index": 0, "delta": "hi"}]))
    loss = chatcodec.Loss(path="$.x", what="x", why="y")
    return [
        request,
        response,
        *events,
        loss,
        chatcodec.PayloadError("bad"),
        chatcodec.get_codec("anthropic").capabilities,
    ]


@pytest.mark.parametrize("value", _samples(), ids=lambda value: type(value).__name__)
def test_public_objects_pickle_by_their_public_path(value: Any) -> None:
    data = pickle.dumps(value)
    kind = type(value)
    assert f"{kind.__module__}\x94\x8c{chr(len(kind.__qualname__))}{kind.__qualname__}".encode("latin-1") in data
    assert kind.__module__ in {"chatcodec", "chatcodec.contract"}  # the class by its public path
    assert b"chatcodec._model" not in data
    assert b"chatcodec._providers" not in data
    again = pickle.loads(data)
    assert type(again) is type(value)
    assert again == value or str(again) == str(value)  # an exception compares by identity


def test_a_pickle_loads_in_a_fresh_process() -> None:
    data = pickle.dumps(_samples()[0])
    code = "import pickle, sys; value = pickle.loads(sys.stdin.buffer.read()); print(type(value).__module__)"
    result = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, check=True)
    assert result.stdout.split() == [b"chatcodec"]


def test_the_schema_titles_keep_the_class_names() -> None:
    schema = chatcodec.ChatRequest.model_json_schema()
    assert schema["title"] == "ChatRequest"
    assert [name for name in schema["$defs"] if "." in name or "chatcodec" in name] == []


def test_annotations_resolve_where_the_class_is_defined() -> None:
    from chatcodec._public_label import defined_in, type_hints
    from chatcodec.serve import ServeConfig

    assert defined_in(chatcodec.ChatRequest) == "chatcodec._model.request"
    assert type_hints(chatcodec.ChatRequest)["messages"] is not None
    assert "upstream" in type_hints(ServeConfig)
