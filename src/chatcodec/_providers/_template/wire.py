"""The one description of the wire: its shapes as ``TypedDict``s, keys spelled exactly as
the provider spells them.

Everything else that lists the wire's fields reads them from here (``shape_fields``), so a
field typed in a shape is a field the reader reads. A real provider names the SDK kinds
each shape stands for (``@stands_for("ChatCompletionMessageParam")``), checked against its
generated ``known_fields.json`` by ``tests/providers/test_wire_description.py``; the toy
wire has no SDK. A reader checks a body with ``validate_shape(Shape, payload, title)``
(``chatcodec.codec_kit``: each shape's validator built on first use, pydantic imported then,
and kept), so importing the codec loads no pydantic and no canonical model
(``tests/conformance/test_importing_a_codec.py``). Every object is open to extra keys:
the reader keeps them in bags, so a same-provider round trip is exact.

A provider whose bodies are many and large adds a closed pydantic-core schema of its
common shapes, which the reader validates first in one Rust pass (no pydantic loaded),
the shapes' validators taking what it refuses so errors keep their wire paths: each
closed object built with ``closed_like(Shape, required, optional, beyond=...)``
(``_providers/kit/closed_schema.py``: the shape's fields only, in its order), and exposed
to ``ProviderCodec`` as ``request.JSON_FRONT`` (``roles.JsonFront``) to parse JSON text
in the same pass. The toy wire does without.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from typing_extensions import TypedDict

from chatcodec.codec_kit import as_dict, constrained, wire_shape

Count = Annotated[int, constrained(ge=0)]
"""A token count: canonical usage refuses a negative one, so the wire does too."""


@wire_shape
class Message(TypedDict):
    """One turn: its role and its text."""

    role: Literal["system", "user", "assistant"]
    content: str


@wire_shape
class Request(TypedDict):
    """A request body."""

    model: NotRequired[str]
    messages: list[Message]
    max_tokens: NotRequired[Count]
    temperature: NotRequired[int | float]
    stream: NotRequired[bool]


@wire_shape
class Usage(TypedDict):
    """A response's token counts."""

    input_tokens: NotRequired[Count]
    output_tokens: NotRequired[Count]
    total_tokens: NotRequired[Count]
    """Their sum: derived, never kept (``usage.py``)."""


@wire_shape
class Response(TypedDict):
    """A response body; ``stop_reason`` is the wire's finish word."""

    id: NotRequired[str]
    model: NotRequired[str]
    message: Message
    stop_reason: NotRequired[str | None]
    usage: NotRequired[Usage]


@wire_shape
class StreamLine(TypedDict):
    """One line of a stream: a piece of text, or the last line's finish and counts."""

    delta: NotRequired[str]
    stop_reason: NotRequired[str | None]
    usage: NotRequired[Usage]


@wire_shape
class ErrorDetail(TypedDict):
    message: str
    type: NotRequired[str]


@wire_shape
class ErrorBody(TypedDict):
    """An error: the whole body of a failed request, or one line of a stream."""

    error: ErrorDetail


def is_error_body(payload: object) -> bool:
    """Whether ``payload`` is an error (``{"error": ...}``) rather than an answer."""
    body = as_dict(payload)
    return body is not None and "error" in body
