"""Tagged elements in a call block, and the text around them that no tag claims.

The XML-like formats (Qwen3-Coder's ``<parameter=KEY>``, MiniMax-M2's and DSML's ``<invoke>``
and ``<parameter name=...>``, GLM's ``<arg_key>``) write each value between an opener and a
closer. A model writes more than the grammar: prose between two calls, a stray line between
parameters, a value holding the closing tag itself (code that writes ``</parameter>``). Servers
drop such text; here every element is read once and the text outside every element comes back
with it, for the caller to keep in the message.

An element runs from its opener to the *last* closer before the next opener (or the end), so
a value holding its own closing tag keeps it; an element never closed runs to the next opener.
Each span is read once: linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Element:
    """One tagged element: its opener (the match, for the name it holds), its body, and the
    text after its closer up to the next opener (stripped: the whitespace templates write
    between tags is none)."""

    head: re.Match[str]
    body: str
    after: str


def elements(text: str, opener: re.Pattern[str], closer: str) -> tuple[str, list[Element]]:
    """The text before the first element ``opener`` opens in ``text`` (stripped), and the elements."""
    heads = list(opener.finditer(text))
    found: list[Element] = []
    for index, head in enumerate(heads):
        limit = heads[index + 1].start() if index + 1 < len(heads) else len(text)
        end = text.rfind(closer, head.end(), limit)
        if end < 0:
            found.append(Element(head, text[head.end() : limit], ""))
        else:
            found.append(Element(head, text[head.end() : end], text[end + len(closer) : limit].strip()))
    return (text[: heads[0].start()] if heads else text).strip(), found


def strays(found: list[Element]) -> list[str]:
    """The texts after each element, in order."""
    return [element.after for element in found]
