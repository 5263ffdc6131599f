"""SDK objects as the JSON the server sent, read at the API boundary without importing any SDK.

People hold what their client returned: an ``openai`` ``ChatCompletion``, an
``anthropic`` ``Message``, stream chunk objects, a ``google-genai`` response, a litellm
``ModelResponse``. Every function that takes a payload turns such an object into plain
JSON data here, by duck typing, before any dialect or codec reads it.

Which call gives back exactly the JSON the server sent matters, because a codec keeps
every field it was given for an exact round trip:

- ``model_dump()`` is not exact: it fills every field the server left out with ``None``,
  and those nulls go into ``provider_metadata`` and back out in a re-encoded body.
- ``to_dict()`` (Stainless SDKs: openai, anthropic) defaults to ``mode="python"``, which
  keeps ``datetime`` objects (Anthropic batch and file objects) that are not JSON.
- ``to_dict(mode="json")`` is ``model_dump(mode="json", by_alias=True,
  exclude_unset=True)``: the fields the server sent, under their wire names, and nothing
  else. That is the rule used for every pydantic object (google-genai's fields are
  snake_case with camelCase aliases, so ``by_alias`` gives its wire names back too),
  plus the non-null defaults of an object built in code (its ``role`` or ``type`` tag).
- litellm builds its objects itself and sets every field, ``None`` included, so "unset"
  means nothing there; its ``None`` fields are dropped instead (litellm's own
  ``model_dump(exclude_none=True)`` is what it sends on).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from chatcodec._errors import PayloadError
from chatcodec._narrow import as_dict, as_list

if TYPE_CHECKING:
    from pydantic import BaseModel


@runtime_checkable
class SdkObject(Protocol):
    """An SDK object: anything pydantic (openai, anthropic, google-genai, litellm types)."""

    def model_dump(self, *args: Any, **kwargs: Any) -> Any:
        """The object as Python data (pydantic's signature)."""
        ...


_PLAIN = (dict, list, str, bytes, bytearray, int, float, bool, type(None))

_NONE_FILLING_MODULES = ("litellm.",)
"""Modules whose objects set every field, ``None`` included (see the module docstring)."""


def is_sdk_object(value: object) -> bool:
    """Whether ``value`` is an object of some SDK (pydantic, or with ``to_dict`` /
    ``model_dump``) rather than plain data or one of chatcodec's own models."""
    if isinstance(value, (*_PLAIN, Mapping)):
        return False
    from chatcodec._model._base import KeyedModel

    if isinstance(value, KeyedModel):
        return False
    return _pydantic_model(value) is not None or callable(getattr(value, "to_dict", None)) or _has_model_dump(value)


def _pydantic_model(value: object) -> BaseModel | None:
    """``value`` when it is a pydantic model. No such object exists before pydantic is
    imported, so the check imports nothing: a plain-dict conversion need not load pydantic
    (about 70 ms of a fresh process's first use)."""
    if "pydantic" not in sys.modules:
        return None
    from pydantic import BaseModel

    return value if isinstance(value, BaseModel) else None


def _has_model_dump(value: object) -> bool:
    return callable(getattr(value, "model_dump", None))


def sdk_json(value: object) -> object:
    """``value`` as the JSON data its server sent when it is an SDK object; anything
    else is returned as it is (plain data is checked with one ``isinstance``)."""
    if not is_sdk_object(value):
        return value
    try:
        return _dump(value)
    except Exception as error:  # an SDK's own failure, reported as ours with its type
        kind = type(value).__name__
        raise PayloadError(f"could not read the {kind} object as JSON: {error}") from None


def _dump(value: object) -> object:
    module = type(value).__module__ or ""
    model = _pydantic_model(value)
    if model is not None:
        # ``warnings=False``: a field whose value the SDK's type does not expect (a newer
        # server, or an object built with ``model_construct``) is still what was sent.
        filled: object = model.model_dump(mode="json", by_alias=True, exclude_none=True, warnings=False)
        if module.startswith(_NONE_FILLING_MODULES):
            return filled
        sent: object = model.model_dump(mode="json", by_alias=True, exclude_unset=True, warnings=False)
        return _with_defaults(sent, filled)
    to_dict = cast("Callable[..., object] | None", getattr(value, "to_dict", None))
    if to_dict is not None:
        try:
            return to_dict(mode="json")
        except TypeError:  # a ``to_dict`` with no ``mode``
            return to_dict()
    assert isinstance(value, SdkObject)  # is_sdk_object let nothing else through
    try:
        return value.model_dump(mode="json", exclude_unset=True)
    except TypeError:  # a ``model_dump`` with pydantic's name but not its options
        return value.model_dump()


def _with_defaults(sent: object, filled: object) -> object:
    """``sent`` (the fields set) plus the non-null defaults only ``filled`` has: an object
    built in code rather than parsed from a body (Verifiers' ``AssistantMessage()``)
    leaves its ``role`` or ``type`` tag unset, and that tag is part of its JSON; a
    ``None`` default is not (it is what "unset" means)."""
    sent_fields, filled_fields = as_dict(sent), as_dict(filled)
    if sent_fields is not None and filled_fields is not None:
        merged = {key: _with_defaults(item, filled_fields.get(key)) for key, item in sent_fields.items()}
        merged.update({key: item for key, item in filled_fields.items() if key not in sent_fields})
        return merged
    sent_items, filled_items = as_list(sent), as_list(filled)
    if sent_items is not None and filled_items is not None and len(sent_items) == len(filled_items):
        return [_with_defaults(item, other) for item, other in zip(sent_items, filled_items, strict=True)]
    return sent


def sdk_json_items(value: object) -> object:
    """``value`` read by :func:`sdk_json`, and so are the items of a list (a conversation
    of SDK message objects) and the list items of a mapping's values (a request whose
    ``messages`` or ``tools`` are SDK objects). Nothing is copied when nothing is read."""
    value = sdk_json(value)
    if isinstance(value, list):
        return _read_list(cast("list[object]", value))
    if isinstance(value, dict):
        fields = cast("dict[str, object]", value)
        read: dict[str, object] | None = None
        for key, item in fields.items():
            new = _read_list(cast("list[object]", item)) if isinstance(item, list) else sdk_json(item)
            if new is not item:
                read = dict(fields) if read is None else read
                read[key] = new
        return fields if read is None else read
    return value


def _read_list(items: list[object]) -> list[object]:
    read: list[object] | None = None
    for index, item in enumerate(items):  # per message: a plain dict is passed by its class alone
        if item.__class__ is dict:
            continue
        new = sdk_json(item)
        if new is not item:
            read = list(items) if read is None else read
            read[index] = new
    return items if read is None else read


_NESTING_READ = 6
"""How deep :func:`sdk_json_nested` looks for SDK objects: deep enough for a block inside
a message inside a request (``{"messages": [{"role": "assistant", "content":
message.content}]}``, what OpenAI's and Anthropic's tool-use guides teach), shallow
enough that a large tool argument or schema is not walked."""


def sdk_json_nested(value: object, depth: int = _NESTING_READ) -> object:
    """``value`` with SDK objects read (:func:`sdk_json`) wherever they are in the first
    ``depth`` levels of dicts and lists, an SDK object's own JSON included (litellm's
    ``Message`` inside a list, Anthropic blocks inside a dict). Nothing is copied when
    nothing is read.

    Every conversion walks its payload so, usually finding nothing: a plain ``dict`` or
    ``list`` (never an SDK object) is not asked, and a container is copied only once an
    item of it was read (the walk of an agent session cost most of a conversion)."""
    kind = type(value)
    if kind is not dict and kind is not list:
        value = sdk_json(value)
    if depth <= 0:
        return value
    if isinstance(value, list):
        items = cast("list[object]", value)
        copied: list[object] | None = None
        for index, item in enumerate(items):
            if type(item) not in _JSON_SCALARS:
                new = sdk_json_nested(item, depth - 1)
                if new is not item:
                    copied = list(items) if copied is None else copied
                    copied[index] = new
        return items if copied is None else copied
    if isinstance(value, dict):
        fields = cast("dict[str, object]", value)
        changed: dict[str, object] | None = None
        for key, item in fields.items():
            if type(item) not in _JSON_SCALARS:
                new = sdk_json_nested(item, depth - 1)
                if new is not item:
                    changed = {} if changed is None else changed
                    changed[key] = new
        return fields if changed is None else {**fields, **changed}
    return value


_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})
"""Leaves no SDK object can be: skipped without a call, since every decode walks the payload
(about a quarter of an anthropic -> openai-chat conversion before this)."""
