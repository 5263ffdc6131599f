"""A process's bounded memory of texts already proved: a check that is a function of the
text alone (base64 text, exact tool-argument JSON) need not run again on an equal text.

An agent sends its whole history every turn, so each request repeats the calls and images
of the one before: a set of the texts proved, looked up by value (hashing a text costs a
fraction of checking it, and nothing for the same object again). Bounded by characters and
forgotten all at once when full (a new session's texts), as the schema rewrites' memory is
(:mod:`chatcodec._providers.families.schema_writing`). Only texts that passed are kept.
Long texts (an image's base64) are kept by :class:`LongTextMemory`, which finds them without
hashing them whole.
"""

from __future__ import annotations


class TextMemory:
    """Texts proved, by value, at most ``limit`` characters of them."""

    __slots__ = ("characters", "limit", "texts")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.texts: set[str] = set()
        """Look a text up here (``text in memory.texts``: no Python call on the hot path)."""
        self.characters = 0

    def add(self, text: str) -> None:
        if self.characters + len(text) > self.limit:
            self.texts = set()  # a new set replaces the old: a reader on another thread keeps its own
            self.characters = 0
        self.texts.add(text)
        self.characters += len(text)


class LongTextMemory:
    """Long texts proved (an image's base64), by value, at most ``limit`` characters of them,
    found without hashing a text whole.

    A set hashes all of a text the first time that text object is looked up, a third of what
    checking base64 costs: a conversion meeting its images for the first time paid for a hash
    only a later request could use. Here a text is found by its identity (the same object
    asked again: a writer asking what its reader checked, the same body converted again) or
    by a sample of it (its length and a few characters from its middle, the same cost for any
    length) and then compared whole: comparing equal texts is a block compare, far cheaper
    than a hash (the next request of an agent, a new text equal to one proved). Two texts
    with the same sample are told apart by that compare; the newest proved is kept."""

    __slots__ = ("characters", "limit", "texts")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.texts: dict[int | tuple[int, str], str] = {}
        """Each text by its ``id`` and by its sample (one dict: an int never equals a tuple).
        The same object is found here inline (``memory.texts.get(id(text)) is text``: no
        Python call on the hot path, as a set's look-up of a text already hashed); ``text in
        memory`` finds an equal text too."""
        self.characters = 0

    def __contains__(self, text: str) -> bool:
        texts = self.texts
        if texts.get(id(text)) is text:
            return True
        middle = len(text) >> 1
        sample = (len(text), text[middle : middle + _SAMPLED])
        known = texts.get(sample)
        if known is None or known != text:
            return False
        texts.pop(id(known), None)  # the newest copy kept, found by identity when asked again
        texts[id(text)] = texts[sample] = text
        return True

    def add(self, text: str) -> None:
        if self.characters + len(text) > self.limit:
            self.texts = {}  # a new dict replaces the old: a reader on another thread keeps its own
            self.characters = 0
        middle = len(text) >> 1
        sample = (len(text), text[middle : middle + _SAMPLED])
        replaced = self.texts.pop(sample, None)
        if replaced is not None:  # another text of the same sample: the newest is kept
            self.texts.pop(id(replaced), None)
            self.characters -= len(replaced)
        self.texts[id(text)] = self.texts[sample] = text
        self.characters += len(text)


_SAMPLED = 16
"""Characters of a text's middle in its sample: enough that two different images' base64
texts of one length almost never share one (a shared sample costs a check, not a wrong answer)."""


class Held:
    """The size (characters or bytes) of what a memory kept by another key holds, so that
    it is bounded by size as well as by count: a few huge entries (a schema of megabytes, a
    thousand tools) cannot keep more alive than :attr:`limit`."""

    __slots__ = ("limit", "size")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0

    def over(self, more: int) -> bool:
        """Whether holding ``more`` would pass the limit (the memory is then forgotten whole
        and :attr:`size` set to 0 by its owner)."""
        return self.size + more > self.limit
