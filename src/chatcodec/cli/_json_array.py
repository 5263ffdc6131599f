"""The items of a JSON array file, one at a time: the training files people download.

Stanford alpaca's ``alpaca_data.json``, LLaMA-Factory's ``data/*.json`` and the original
ShareGPT dumps are one JSON array of rows, pretty-printed, tens of megabytes and more. Each
row is read as a JSON Lines row is, numbered by its array index: the file is read in
blocks and each item is cut out with :meth:`json.JSONDecoder.raw_decode` (C, the standard
library) as soon as it is whole, so memory holds one block and one item, never the file.
An item comes out as its exact bytes (a reject quotes it verbatim; the converter parses it
as it parses a line).

An array that breaks (an item that is not JSON, a missing comma, text after the ``]``) is
a :class:`~chatcodec.PayloadError` naming the item's index and what was expected: past
that point no item can be told from the next.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import BinaryIO

from chatcodec._errors import PayloadError

BLOCK = 1 << 20
"""Bytes read at a time (as :mod:`chatcodec.cli._documents` reads JSON lines)."""

_NOT_SPACE = re.compile(r"[^ \t\n\r]")
"""Anything but JSON's whitespace, which :meth:`json.JSONDecoder.raw_decode` does not skip."""

_DECODER = json.JSONDecoder(parse_int=str, parse_float=str, parse_constant=str)
"""Finds where an item ends; its numbers are kept as text (the converter reads the item
again, and says where an integer is too long for Python, with its path)."""


def starts_an_array(head: bytes) -> bool:
    """Whether text beginning with ``head`` (its first non-blank line, say) is a JSON array."""
    return head.lstrip(b" \t\r\n\xef\xbb\xbf").startswith(b"[")


def array_items(stream: BinaryIO, head: bytes = b"") -> Iterator[bytes]:
    """The UTF-8 bytes of each item of the JSON array ``head`` + ``stream`` holds, in order.

    ``head``: what was read of the stream already (to tell it is an array). Raises
    :class:`~chatcodec.PayloadError` where the array breaks (see the module docstring)."""
    reader = _Reader(stream, head)
    reader.expect("[", "$", "a JSON array starting with '['")
    index = 0
    while True:
        if reader.peek() == "]":
            reader.position += 1
            break
        if index:
            reader.expect(",", f"$[{index}]", f"',' or ']' after item {index - 1}")
        yield reader.item(f"$[{index}]")
        index += 1
    if reader.peek() != "":
        raise PayloadError("text after the array's closing ']': a file holds one JSON array, or JSON lines")


class _Reader:
    """Text decoded from a stream block by block, with a read position."""

    def __init__(self, stream: BinaryIO, head: bytes) -> None:
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self._ended = False
        self.text = ""
        self.position = 0
        self._append(head)

    def _append(self, data: bytes) -> None:
        try:
            self.text += self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:
            raise PayloadError(f"not UTF-8 text: {error.reason}") from None

    def _more(self) -> bool:
        """Read the next block (keeping only the text from the position on); whether any came."""
        if self._ended:
            return False
        if self.position:
            self.text, self.position = self.text[self.position :], 0
        data = self._stream.read(max(BLOCK, len(self.text)))  # a long item: each read doubles what is held
        self._ended = not data
        self._append(data)
        return not self._ended

    def peek(self) -> str:
        """The next character that is not whitespace (the position moved onto it), ``""`` at the end."""
        while True:
            found = _NOT_SPACE.search(self.text, self.position)
            self.position = len(self.text) if found is None else found.start()
            if found is not None or not self._more():
                return self.text[self.position : self.position + 1]

    def expect(self, character: str, where: str, expected: str) -> None:
        found = self.peek()
        if found != character:
            shown = repr(found) if found else "the end of the file"
            raise PayloadError(f"expected {expected}, found {shown}", where)
        self.position += 1

    def item(self, where: str) -> bytes:
        """The next JSON value's bytes (the position moved past it)."""
        if self.peek() == "":
            raise PayloadError("the file ends before the array's closing ']'", where)
        while True:
            try:
                _, end = _DECODER.raw_decode(self.text, self.position)
            except json.JSONDecodeError as error:
                if self._more():
                    continue
                at = error.pos - self.position
                raise PayloadError(f"not valid JSON: {error.msg} (character {at} of the item)", where) from None
            except RecursionError:
                raise PayloadError("nested too deeply", where) from None
            if end == len(self.text) and self._more():
                continue  # a number may go on in the next block
            value = self.text[self.position : end]
            self.position = end
            return value.encode("utf-8")
