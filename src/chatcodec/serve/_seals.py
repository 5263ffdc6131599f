"""Sealed reasoning authenticated: what the Responses front writes into ``encrypted_content``
comes back only as it was written.

The Responses front seals another provider's signed reasoning into the reasoning items it
answers with (:mod:`chatcodec._providers.openai_responses.carried_reasoning`), and the
caller sends those items back; the gateway then sends what they hold upstream with the
operator's key. A seal is base64 of JSON a caller can write too, so each one the front
writes carries an HMAC-SHA256 under the server's *seal key* (the encoder's ``seal_key``
option), and each one a request brings is checked against it before it is read
(:func:`checked_seals`): a seal that fails is refused 400 under ``--validate``, and
otherwise left out of the request (its reasoning is not sent upstream) with a loss in
the ``chatcodec-losses`` header. What a seal holds is checked as canonical data when it
is read (its bags objects of finite JSON values), and under ``--validate`` the body the
upstream gets from a request with seals is checked with the upstream's strict field sets
(:func:`check_unsealed`), so nothing a seal carried reaches the upstream that its API
does not define.

The key (:func:`seal_key`): ``--seal-key-file`` or ``CHATCODEC_SEAL_KEY`` when given (the
same on every replica; each held to one rule, 16 characters or more, and read when the
app is made: :func:`given_seal_key`); otherwise one made once and kept where the answers are (a SQLite
store's file, a Redis store's server: replicas sharing the store share it), or, with no
durable store, in ``$XDG_CONFIG_HOME/chatcodec/seal-key`` (``~/.config``), so seals outlive
a restart. Give replicas the key file to make their seals independent of the store.

A durable store's key is the only key its server seals with, so every replica opens every
other one's seals. A server that cannot reach its store when it first needs the key (a Redis
outage as it starts) has no key until it can: it asks the store again at a later request (at
most every :data:`KEY_RETRY_SECONDS`), and meanwhile seals nothing (another provider's signed
reasoning is answered as its summary, the signature reported lost in ``chatcodec-losses``)
and refuses a request bringing seals with a 503 and ``Retry-After`` (it cannot check them, and
neither drops them nor sends them unchecked: :func:`unchecked_seals_refused`). It never seals
with a key of its own, which the other replicas could not open: before, it took the config
directory's key and kept it until restarted.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from chatcodec._losses import Loss
from chatcodec._providers.kit.errors import json_path_of
from chatcodec.serve._fronts import front
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._request_log import LOGGER
from chatcodec.serve._response_store import ResponseStore, StoreError

KEY_VARIABLE = "CHATCODEC_SEAL_KEY"
KEY_NAME = "seal-key"
"""The name the key is kept under (a store's secret, the config directory's file)."""

_WHAT = "sealed reasoning this server did not write"
_WHY = "its MAC does not match this server's seal key, so what it holds is not sent upstream"


KEY_MIN_CHARACTERS = 16
"""The shortest key taken, from a file or the environment (a key a caller can guess forges seals)."""
KEY_RETRY_SECONDS = 2
"""How often a server without its store's key (the store unreachable) asks for it again."""
KEY_FILE_LIMIT = 4096
"""The most bytes of a key file read: a key is one line, and ``/dev/zero`` has no end."""


def given_seal_key(key_file: str | None) -> str | None:
    """The key the operator gave, held to one rule wherever it comes from: ``key_file``'s,
    else ``CHATCODEC_SEAL_KEY``'s (None: neither given). Read when the app is made, so a
    key that cannot be used stops the server before it listens (a :class:`ValueError`
    naming the setting)."""
    if key_file is not None:
        return _read_key(Path(key_file).expanduser(), f"--seal-key-file {key_file}")
    given = os.environ.get(KEY_VARIABLE)
    return None if given is None else _checked_key(given.strip(), KEY_VARIABLE)


async def seal_key(given: str | None, store: ResponseStore | None) -> str | None:
    """The server's seal key: the one given (:func:`given_seal_key`), the durable store's, or
    (with none) the config directory's; None while the store keeping it cannot be reached."""
    if given is not None:
        return given
    if store is not None and store.durable:
        try:
            return await store.secret(KEY_NAME, secrets.token_urlsafe(32))
        except StoreError as error:
            LOGGER.warning("the seal key could not be read from the store (%s): sealing nothing until it can", error)
            return None
    return _kept_key(_config_dir() / KEY_NAME)


def unchecked_seals_refused(api: str, payload: dict[str, Any]) -> None:
    """Refuse (503, ``Retry-After``) a request bringing seals while the server has no key to
    check them with (its store unreachable): another replica, or this one once the store is
    back, can check them."""
    answering = front(api).answering
    if answering is None:
        return
    _, failed, sealed = answering.unverified_seals(payload, "")  # every seal fails or passes: either way, one came
    if failed or sealed:
        raise RefusalError(
            503,
            f"{(failed or ['$.input'])[0]}: sealed reasoning cannot be checked now: the seal key is kept in "
            "the response store, which this server cannot reach; try again",
            headers={"retry-after": str(KEY_RETRY_SECONDS)},
        )


def _read_key(path: Path, setting: str) -> str:
    """The key in the file at ``path``: at most :data:`KEY_FILE_LIMIT` bytes of UTF-8 text, stripped."""
    try:
        with path.open("rb") as file:
            data = file.read(KEY_FILE_LIMIT + 1)
    except OSError as error:
        raise ValueError(f"{setting}: cannot be read: {error.strerror or type(error).__name__}") from None
    if len(data) > KEY_FILE_LIMIT:
        raise ValueError(f"{setting}: longer than {KEY_FILE_LIMIT} bytes (a seal key file holds one key)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{setting}: not UTF-8 text (a seal key file holds one key on a line)") from None
    return _checked_key(text.strip(), setting)


def _checked_key(key: str, setting: str) -> str:
    if len(key) < KEY_MIN_CHARACTERS:
        raise ValueError(f"{setting}: the seal key is shorter than {KEY_MIN_CHARACTERS} characters")
    if not key.isprintable():
        raise ValueError(f"{setting}: the seal key holds a control character")
    return key


def _config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "chatcodec"


def _kept_key(path: Path) -> str:
    """The key in ``path``, made (readable by this user only) when missing."""
    if path.exists():
        return _read_key(path, f"the seal key file {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first
        return _read_key(path, f"the seal key file {path}")
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(key + "\n")
    return key


def checked_seals(
    api: str, payload: dict[str, Any], key: str, *, validate: bool
) -> tuple[dict[str, Any], list[Loss], bool]:
    """``payload`` without the sealed reasoning items whose MAC fails (a 400 under
    ``validate``), the losses that says, and whether any seal stays."""
    answering = front(api).answering
    if answering is None:
        return payload, [], False
    payload, failed, sealed = answering.unverified_seals(payload, key)
    if failed and validate:
        raise RefusalError(400, f"invalid {api} request: {failed[0]}: {_WHAT} ({_WHY}); send it as it came, or not")
    return payload, [Loss(where, _WHAT, _WHY) for where in failed], sealed


def check_unsealed(upstream: str, body: Mapping[str, Any]) -> None:
    """Refuse (400) an upstream body, written from a request with seals, holding a field
    the upstream's strict field sets do not define (what a seal carried onto a block)."""
    from chatcodec._strict.fields import payload_problems

    problems = payload_problems(upstream, "request", body)
    if problems:
        listed = "; ".join(f"{json_path_of(*problem.location)}: {problem.message}" for problem in problems[:3])
        raise RefusalError(400, f"the sealed reasoning of this request would send {upstream} what it refuses: {listed}")
