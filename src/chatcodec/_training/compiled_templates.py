"""Compiled chat templates kept on disk, so a new process loads a template's code instead of compiling it.

Every dataset worker and command-line run renders through the same few templates, and compiling
one (Jinja's lexer, parser and code generator, chatcodec's bounded generator on top) is most of
what a process's first render spends beyond its imports. Jinja's own ``FileSystemBytecodeCache``
keeps the compiled code: it writes each file whole (a temporary file renamed) and loads a file
only under Jinja's magic for the running Python and the checksum of the template's text, so a
stale or foreign file is compiled again, not run. Around it, this module adds:

- the key: the template's text, Jinja's version and the source of the modules that build the
  environment and its code generator (:data:`_GENERATOR_MODULES`), so code compiled by another
  chatcodec or Jinja is never loaded;
- the place: ``$XDG_CACHE_HOME/chatcodec/templates`` (``~/.cache/...``), a directory owned by the
  user and closed to others, as Jinja checks its own default one; anywhere else (another owner,
  opened to others, not writable) the template is compiled in memory, as before;
- a corrupt file (cut short, not Jinja's format) is compiled again, never an error;
- the bound: at most :data:`MOST_FILES` files, the oldest removed when a new one is written.
"""

from __future__ import annotations

import hashlib
import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

MOST_FILES: Final = 64
"""Compiled templates kept on disk; past it, the oldest files go as a new one is written."""
_PATTERN: Final = "%s.jinja-code"
_GENERATOR_MODULES: Final = ("jinja.py", "template_sandbox.py", "template_sizes.py")
"""The modules (beside this one) whose source decides the compiled code: the environment, its
code generator, the sizes it measures."""


def compiled_code(environment: Any, template: str) -> Any:
    """``template``'s code as ``environment.compile`` gives it: loaded from the cache when a
    process compiled it before, else compiled (and kept for the next process)."""
    cache = _cache()
    if cache is None:
        return environment.compile(template)
    try:
        bucket = cache.get_bucket(environment, _name(template), None, template)
    except UnicodeEncodeError:  # a lone surrogate in the text: Jinja's checksum cannot be taken
        return environment.compile(template)
    if bucket.code is None:
        bucket.code = environment.compile(template)
        try:
            cache.set_bucket(bucket)
        except (OSError, ValueError):  # a full disk, code nested past marshal: still good for this process
            return bucket.code
        _prune(Path(cache.directory))
    return bucket.code


CACHE_VARIABLE: Final = "CHATCODEC_TEMPLATE_CACHE"
"""The environment variable naming the directory instead (a read-only image, a test run), or
``off`` for none: every template compiled in memory."""


def directory() -> Path | None:
    """Where compiled templates are kept: :data:`CACHE_VARIABLE`'s directory, else the user's
    cache directory; None when it says ``off`` or there is no home."""
    chosen = os.environ.get(CACHE_VARIABLE) or ""
    if chosen == "off":
        return None
    if os.path.isabs(chosen):
        return Path(chosen)
    root = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(root):  # the XDG rule: a relative value is ignored
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        root = os.path.join(home, ".cache")
    return Path(root) / "chatcodec" / "templates"


def _cache() -> Any:
    """Jinja's file cache in :func:`directory`, made safe to read; None where it cannot be."""
    place = directory()
    fingerprint = _generator_fingerprint()
    if place is None or fingerprint is None or not _private(place):
        return None
    return _safe_cache_class()(str(place), _PATTERN)


def _private(place: Path) -> bool:
    """Whether ``place`` is (or was just made) a directory of this user that no one else may
    write: the files there are code this process runs."""
    if not hasattr(os, "getuid"):  # no owners to check (Windows): kept in memory only
        return False
    try:
        place.mkdir(mode=stat.S_IRWXU, parents=True, exist_ok=True)
        found = os.lstat(place)
    except OSError:
        return False
    open_to_others = stat.S_IMODE(found.st_mode) & (stat.S_IWGRP | stat.S_IWOTH)
    return stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not open_to_others


@lru_cache(maxsize=1)
def _safe_cache_class() -> Any:
    """Jinja's ``FileSystemBytecodeCache`` whose read of a file it cannot parse is a miss: Jinja
    reads the checksum it wrote with ``pickle`` and lets a file cut short there raise."""
    from jinja2.bccache import FileSystemBytecodeCache

    class SafeFileCache(FileSystemBytecodeCache):
        def load_bytecode(self, bucket: Any) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception:  # any unreadable file is a miss, compiled again
                bucket.reset()

    return SafeFileCache


def _name(template: str) -> str:
    """The cache key of ``template``: its text with what decides its code (Jinja's version,
    chatcodec's generator)."""
    return hashlib.sha256(f"{_generator_fingerprint()}\0{template}".encode("utf-8", "surrogatepass")).hexdigest()


@lru_cache(maxsize=1)
def _generator_fingerprint() -> str | None:
    """Jinja's version and the source of :data:`_GENERATOR_MODULES`: a change to either compiles
    anew. None where the source cannot be read (a zipped install): nothing is cached."""
    import jinja2

    digest = hashlib.sha256(jinja2.__version__.encode())
    here = Path(__file__).parent
    try:
        for name in _GENERATOR_MODULES:
            digest.update((here / name).read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


def _prune(place: Path) -> None:
    """The oldest compiled templates removed while more than :data:`MOST_FILES` are kept."""
    try:
        kept = [
            (entry.stat().st_mtime, entry.path) for entry in os.scandir(place) if entry.name.endswith(".jinja-code")
        ]
    except OSError:
        return
    kept.sort()
    for _, path in kept[: max(0, len(kept) - MOST_FILES)]:
        try:
            os.remove(path)
        except OSError:  # another process removed it first
            continue
