"""The credentials a request sent upstream, kept out of every text the gateway relays or records.

Some servers repeat the key they were sent (``Incorrect API key provided: sk-...``; OpenAI-compatible
servers and proxies echo it whole, in an error's message or type, a request-id or rate-limit header, a
stream's error event), and some repeat it spelled another way: URL-encoded (a URL quoted back),
base64 (a ``Basic`` credential, a request echoed as data) or JSON-escaped (a body quoted inside a
string). With client keys in front of an operator key, any caller would read the operator's key
there, and the request log and the span would keep it. So each request's record holds the values it
sent as credentials (:func:`sent_secrets`: the key, every value of a header named in
:data:`SECRET_HEADERS`, the token after an ``Authorization`` scheme, and the key the caller
presented), and every text that leaves for the caller (a body, an error's fields, a passed header, a
stream's bytes), the log line, the span and a stored answer is scrubbed on its way: each spelling of
each value (:func:`spellings`) replaced by :data:`REDACTED`.

The spellings of a set of values are worked out once, when the set is first seen, and kept
(:func:`_scrubber`, bounded: a process that serves callers' own keys sees one set per key): the few
substrings that find any of them, and the patterns that replace them. A text without a secret is
searched for those few and returned as it was.

A value shorter than :data:`SHORTEST_SECRET` is not scrubbed: no provider issues a key that short,
and replacing a short value would garble ordinary words of every message.
"""

from __future__ import annotations

import base64
import json
import re
import string
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import quote, quote_plus

from chatcodec._model.stream_records import AnyStreamRecord, record_from_data
from chatcodec._narrow import is_dict, is_list

__all__ = [
    "NO_SECRETS",
    "REDACTED",
    "SECRET_HEADERS",
    "SHORTEST_SECRET",
    "Secrets",
    "sent_secrets",
    "spellings",
]

SECRET_HEADERS = frozenset(
    ("authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "x-amz-security-token")
)
"""The headers whose values are credentials (a bearer token, Anthropic's, Azure's and Google's
key headers, an AWS session token)."""
REDACTED = "[redacted]"
"""What a secret is replaced with (nothing in it is escaped in JSON, a URL or a header)."""
SHORTEST_SECRET = 8
"""The length below which a value (or one of its spellings) is not scrubbed (see the module docstring)."""
SIGV4 = "AWS4-HMAC-SHA256 "
"""The scheme of a SigV4 ``Authorization`` value: its signature is new on every request (and
good for no other), so the secret kept of it is the access key id of its ``Credential``."""
_KEPT_SETS = 256
"""The sets of values whose patterns are kept (one per caller key where callers send their own)."""


@lru_cache(maxsize=_KEPT_SETS)
def spellings(value: str) -> frozenset[str]:
    """Every spelling of ``value`` an upstream may repeat it in: as it is; URL-encoded (``+`` for a
    space or not, or every byte escaped; matched with its escapes in either case: :func:`_pieces`);
    every character a JSON ``\\uXXXX`` escape (in either case, and as JSON text writes that);
    base64, standard
    and URL-safe, padded and not, and the characters of it that depend on ``value`` alone where it
    was encoded inside a longer text (at each of its 3 alignments in a 3-byte group); each base64
    spelling URL-encoded; and each of these JSON-escaped (as ``json.dumps`` writes it, and with
    ``/`` written ``\\/``) up to three times (a body quoted in a body, written as JSON). Those
    shorter than :data:`SHORTEST_SECRET` are left out (a short run of base64 is found in ordinary
    text)."""
    encoded = value.encode()
    every_byte = "".join(f"%{byte:02X}" for byte in encoded)
    every_character = "".join(f"\\u{ord(character):04x}" for character in value)
    found = {value, quote(value, safe=""), quote_plus(value, safe=""), every_byte}
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        whole = encode(encoded).decode("ascii")
        in_text = [whole, whole.rstrip("=")]
        for shift in (0, 1, 2):  # the value's first byte at each place of a 3-byte group
            shifted = encode(b"\0" * shift + encoded).decode("ascii")
            in_text.append(shifted[-(-8 * shift // 6) : (8 * shift + 8 * len(encoded)) // 6])
        found.update(in_text)
        found.update(quote(spelling, safe="") for spelling in in_text)
    for _ in range(3):  # a string, a body quoted in a string (an error's text), and that written as JSON
        found |= {escaped for spelling in tuple(found) for escaped in _json_escapes(spelling)}
    for escaped in (every_character, every_character.upper().replace("\\U", "\\u")):
        found |= {escaped, escaped.replace("\\", "\\\\")}  # and as a JSON text writes it
    return frozenset(spelling for spelling in found if len(spelling) >= SHORTEST_SECRET)


def _json_escapes(text: str) -> tuple[str, ...]:
    escaped = json.dumps(text)[1:-1]
    return escaped, escaped.replace("/", "\\/"), json.dumps(text, ensure_ascii=False)[1:-1]


class _Scrubber:
    """The spellings of one set of values compiled. To find one (every text is searched, and most
    hold none): the few spellings no other spelling holds, each a C substring search
    (:meth:`holds`), ten times faster than one pattern of alternatives, which ``re`` tries at
    nearly every place of a text (``docs/performance.md``). To replace them (a text that holds
    one): one pattern of every spelling, the longest first at a place, for text, and for JSON
    text one that leaves the JSON valid."""

    __slots__ = ("_spellings", "_starts", "byte_needles", "in_json", "longest", "needles", "shortest", "text")

    def __init__(self, values: tuple[str, ...]) -> None:
        every = {spelling for value in values for spelling in spellings(value)}
        ordered = sorted(every, key=lambda spelling: (-len(spelling), spelling))  # the longest at a place wins
        self.shortest: int = len(ordered[-1])
        """The length of the shortest spelling: no shorter text holds one."""
        self.longest: int = len(ordered[0])
        """The length of the longest spelling: the most a spelling begun at a text's end still lacks."""
        self._spellings = tuple(ordered)
        self._starts: tuple[re.Pattern[str], frozenset[str], dict[str, tuple[str, ...]]] | None = None
        needles = {needle for spelling in every for needle in _needles(spelling)}
        self.needles: tuple[str, ...] = tuple(
            sorted(needle for needle in needles if not any(other in needle for other in needles - {needle}))
        )
        """What any spelling holds one of: each spelling no other holds (a URL-encoded one by
        its longest run between escapes, whose hex digits may come in either case)."""
        self.byte_needles: tuple[bytes, ...] = tuple(needle.encode() for needle in self.needles)
        self.text: re.Pattern[str] = re.compile("|".join("".join(_pieces(spelling)) for spelling in ordered))
        in_json = "|".join("".join(_pieces(spelling)) for spelling in ordered if _whole_in_json(spelling))
        self.in_json: re.Pattern[bytes] = re.compile(in_json.encode())

    def holds(self, text: str) -> bool:
        for needle in self.needles:  # a loop, not any() over a generator: a streamed delta pays it
            if needle in text:
                break
        else:
            return False
        return True

    def unfinished(self, text: str) -> int:
        """The length of the longest end of ``text`` that begins a spelling without finishing
        it (0: none does): what a stream holds back until the next delta says which it is.
        Only the places holding a spelling's first character are looked at (found by one
        character class, in C), each by one lookup of its first few characters."""
        first, short, starts = self._starts or self._started()
        length = len(text)
        for found in first.finditer(text, max(0, length - self.longest + 1)):
            place = found.start()
            rest = length - place
            if rest < _START:
                if text[place:] in short:
                    return rest
                continue
            candidates = starts.get(text[place : place + _START])
            if candidates is not None and any(len(one) > rest and text.endswith(one[:rest]) for one in candidates):
                return rest
        return 0

    def _started(self) -> tuple[re.Pattern[str], frozenset[str], dict[str, tuple[str, ...]]]:
        """The beginnings of every spelling (its URL escapes' hex digits in either case): a
        character class of their first characters, those shorter than :data:`_START`, and the
        spellings by their first :data:`_START` characters. Built on a stream's first delta,
        not for every request's set."""
        every = {cased for spelling in self._spellings for cased in _cased(spelling)}
        short = {spelling[:size] for spelling in every for size in range(1, _START)}
        first = re.compile("[" + "".join(sorted({re.escape(spelling[0]) for spelling in every})) + "]")
        starts: dict[str, list[str]] = {}
        for spelling in every:
            starts.setdefault(spelling[:_START], []).append(spelling)
        self._starts = first, frozenset(short), {start: tuple(found) for start, found in starts.items()}
        return self._starts

    def holds_bytes(self, data: bytes) -> bool:
        for needle in self.byte_needles:
            if needle in data:
                break
        else:
            return False
        return True


_START = 4
"""How many first characters of a spelling key its entry in a scrubber's beginnings."""


def _cased(spelling: str) -> tuple[str, ...]:
    """``spelling`` as written, and with its URL escapes' hex digits lower-cased (both match)."""
    return spelling, _URL_ESCAPE.sub(lambda escape: escape.group().lower(), spelling)


def _needles(spelling: str) -> tuple[str, ...]:
    """What finds ``spelling`` by substring: itself; a URL-encoded one (its escapes' hex digits in
    either case) by its longest run between escapes, or, that run short, by itself in each case."""
    if _URL_ESCAPE.search(spelling) is None:
        return (spelling,)
    longest = max(_URL_ESCAPE.split(spelling), key=len)
    if len(longest) >= SHORTEST_SECRET:
        return (longest,)
    return spelling, _URL_ESCAPE.sub(lambda escape: escape.group().lower(), spelling)


def _pieces(spelling: str) -> list[str]:
    """``spelling`` as a pattern, a piece a character: a URL escape's hex digits in either case
    (``%2F``, ``%2f``)."""
    pieces = [re.escape(character) for character in spelling]
    for escape in _URL_ESCAPE.finditer(spelling):
        for place in (escape.start() + 1, escape.start() + 2):
            digit = spelling[place]
            if digit.isalpha():
                pieces[place] = f"[{digit}{digit.lower()}]"
    return pieces


_URL_ESCAPE = re.compile("%[0-9A-F]{2}")


def _whole_in_json(spelling: str) -> bool:
    """Whether ``spelling``, found in JSON text, can be replaced whole: not one with a ``"`` not
    escaped (it would match across a string's end) or ending inside an escape (the replacement
    would leave half of it). Its escaped spelling stands for it (:func:`spellings`)."""
    return re.search(r'(?<!\\)(?:\\\\)*("|\\$)', spelling) is None


@lru_cache(maxsize=_KEPT_SETS)
def _scrubber(values: tuple[str, ...]) -> _Scrubber:
    return _Scrubber(values)


_REDACTED_BYTES = REDACTED.encode()


class Secrets:
    """The secret values of one request, and the one pattern that finds every spelling of them."""

    __slots__ = ("_scrubber", "values")

    def __init__(self, values: Iterable[str] = ()) -> None:
        self.values: tuple[str, ...] = tuple(sorted({value for value in values if len(value) >= SHORTEST_SECRET}))
        self._scrubber = _scrubber(self.values) if self.values else None

    def __bool__(self) -> bool:
        return bool(self.values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secrets) and other.values == self.values

    def __hash__(self) -> int:
        return hash(self.values)

    def __repr__(self) -> str:
        return f"Secrets({len(self.values)} values)"  # never the values

    def scrub(self, text: str) -> str:
        """``text`` with every spelling of every secret replaced by :data:`REDACTED`."""
        scrubber = self._scrubber
        if scrubber is None or not scrubber.holds(text):
            return text
        return scrubber.text.sub(REDACTED, text)

    def scrub_bytes(self, data: bytes) -> bytes:
        """``data`` (UTF-8 text: a stream's converted bytes) scrubbed as :meth:`scrub` scrubs
        text, a JSON text left JSON (:func:`_whole_in_json`, :func:`_scrubbed_json`)."""
        scrubber = self._scrubber
        if scrubber is None or not scrubber.holds_bytes(data):
            return data
        return _scrubbed_json(scrubber.in_json, data)

    def found_in(self, data: bytes) -> bool:
        """Whether ``data`` holds a spelling of a secret (a body written as JSON, checked
        before it is scrubbed as data)."""
        return self._scrubber is not None and self._scrubber.holds_bytes(data)

    def scrub_data(self, data: Any) -> Any:
        """A JSON value (an upstream's error body, an answer) with every string in it scrubbed, keys too."""
        if self._scrubber is None:
            return data
        if isinstance(data, str):
            return self.scrub(data)
        if is_dict(data):
            return {self.scrub(name): self.scrub_data(value) for name, value in data.items()}
        if is_list(data):
            return [self.scrub_data(item) for item in data]
        return data

    def unfinished(self, text: str) -> int:
        """The length of the longest end of ``text`` that begins a spelling of a secret without
        finishing it (0: none does, or no secret)."""
        return 0 if self._scrubber is None else self._scrubber.unfinished(text)

    def scrub_event(self, event: AnyStreamRecord) -> AnyStreamRecord:
        """A stream's canonical event with every secret out of its texts (a copy where one was
        found). A delta shorter than the shortest spelling is passed unsearched: most of a stream's
        events (a key is tens of characters, a delta a few words), each paying a length check; a
        key an upstream splits over two deltas is found by the gateway's stream holding each
        part's unfinished end (:mod:`chatcodec.serve._held_deltas`)."""
        scrubber = self._scrubber
        if scrubber is None:
            return event
        delta = getattr(event, "delta", None)  # the one text of the five delta records
        if isinstance(delta, str):
            if len(delta) < scrubber.shortest or not scrubber.holds(delta):
                return event
            return event.replaced(delta=scrubber.text.sub(REDACTED, delta))
        data = event.data()
        scrubbed = self.scrub_data(data)
        return event if scrubbed == data else record_from_data(scrubbed)

    def scrub_headers(self, headers: Mapping[str, str]) -> dict[str, str]:
        """``headers`` (passed on to the caller) with every value scrubbed."""
        if self._scrubber is None:
            return dict(headers)
        return {name: self.scrub(value) for name, value in headers.items()}


def _scrubbed_json(pattern: re.Pattern[bytes], data: bytes) -> bytes:
    """``data`` (JSON text) with each match of ``pattern`` that starts a character of a string
    replaced: one starting inside an escape (after a ``\\`` that is not itself escaped, or
    within a ``\\uXXXX``) is the end of another character, and replacing it would leave half an
    escape; the search goes on from the next place."""
    kept: list[bytes] = []
    done = place = 0
    while (found := pattern.search(data, place)) is not None:
        start = found.start()
        if _inside_escape(data, start):
            place = start + 1
            continue
        kept += (data[done:start], _REDACTED_BYTES)
        done = place = found.end()
    return b"".join((*kept, data[done:]))


def _inside_escape(data: bytes, place: int) -> bool:
    if _escaping(data, place - 1):
        return True
    for back in range(2, 6):  # "\\u" then up to three hex digits before ``place``
        start = place - back
        if start >= 0 and data[start + 1 : start + 2] == b"u" and _escaping(data, start):
            return all(chr(digit) in string.hexdigits for digit in data[start + 2 : place])
    return False


def _escaping(data: bytes, place: int) -> bool:
    """Whether ``data[place]`` is a backslash that escapes what follows (an odd run ends there)."""
    run = 0
    while place - run >= 0 and data[place - run] == 0x5C:
        run += 1
    return run % 2 == 1


NO_SECRETS = Secrets()
"""A request that sent none (yet)."""


def sent_secrets(headers: Mapping[str, str], also: Iterable[str | None] = ()) -> Secrets:
    """The secrets of a request sent with ``headers`` (lower-cased names), and ``also`` (the key
    its caller presented, which the upstream may have been sent under another header, and the
    operator's keys)."""
    found: set[str] = set()
    for name, value in headers.items():
        if name not in SECRET_HEADERS:
            continue
        if value.startswith(SIGV4):
            found.add(_access_key_id(value))
            continue
        found.add(value)
        _, _, token = value.partition(" ")  # "Bearer sk-...": the token alone may be echoed
        found.add(token.strip())
    found.update(value for value in also if value)
    return Secrets(found)


def _access_key_id(authorization: str) -> str:
    """The access key id of a SigV4 ``Authorization`` value (``Credential=AKIA.../date/...``)."""
    _, _, credential = authorization.partition("Credential=")
    return credential.partition("/")[0]
