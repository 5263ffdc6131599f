"""The one description of what a LangChain history holds, and its validator.

A stored message is checked as one of the two serialisations (:func:`.messages.unwrap`), so
an entry LangChain would not load is refused at its own path (``$.messages[3]``) as a
:class:`~chatcodec.ValidationError`, before anything is read. Inside a message, LangChain's
own fields are open (its content blocks are open-ended by design): what has no canonical
field is kept as it is. The validator is built on first use, so importing the codec loads
no pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired

from typing_extensions import TypedDict

from chatcodec.contract import as_dict, validate_with

if TYPE_CHECKING:
    from pydantic import TypeAdapter


_ADAPTERS: list[TypeAdapter[Any]] = []


def validated_history(payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked as a history whose every message LangChain can load."""
    from chatcodec._frameworks.langchain.messages import unwrap

    if not _ADAPTERS:
        from typing import Annotated

        from pydantic import AfterValidator, TypeAdapter

        def _loadable(entry: dict[str, Any]) -> dict[str, Any]:
            unwrap(entry)
            return entry

        class Checked(TypedDict):
            messages: list[Annotated[dict[str, Any], AfterValidator(_loadable)]]
            model: NotRequired[str]

        _ADAPTERS.append(TypeAdapter(Checked))
    checked = as_dict(validate_with(_ADAPTERS[0], payload, title))
    assert checked is not None
    return checked
