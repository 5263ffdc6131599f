"""``convert``'s output, written under a temporary name and renamed when complete.

An interrupted or disk-full run left partial output under the final ``--out`` name, and a
Parquet file even closes with a valid footer (640 of 160,000 rows read as a whole file).
So every output is written beside its final name (``.NAME.<pid>.<random>.partial``, in the
same folder: the rename is then one atomic step of the same file system) and renamed over it
only when the run completes; an error, an interrupt (``KeyboardInterrupt``) or a run that
ends in failure removes it and leaves what was at the final name untouched. The
analyst's folder is written the same way, each of its files moved in once all are
complete. What is not a regular file (``/dev/stdout``, a named pipe) is written in place.

The partial is created here, exclusively (``O_CREAT | O_EXCL | O_NOFOLLOW``, a folder by
``mkdir``), under a name with random bits: a name known in advance (the pid alone) let anyone
who could write the folder plant a symlink there, which the run then followed and wrote
through. A run killed too hard to clean up (``SIGKILL``, a power cut) leaves its partial: the
next run for the same output removes every partial of that name whose process is gone (its
pid is in the name; on this host, where the pid says something).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from pathlib import Path
from types import TracebackType


class PendingOutput:
    """An output file (or folder) under its temporary name until :meth:`commit`; used as a
    context manager, it is removed unless committed by the end of the block."""

    def __init__(self, final: Path | None, *, folder: bool = False) -> None:
        self.final = final
        """Where the output goes when complete (``None``: standard output, nothing to rename)."""
        self.folder = folder
        """Whether it is a folder of files (the analyst's view)."""
        self._renamed = final is not None and _renamable(final)
        self._partial: Path | None = None
        self._committed = False

    @property
    def path(self) -> Path | None:
        """Where to write it meanwhile: the partial, created when first asked for (a rejects file
        that never gets a reject makes none), or the final name when it is not renamed."""
        if not self._renamed or self.final is None:
            return self.final
        if self._partial is None:
            self._partial = _partial(self.final, folder=self.folder)
        return self._partial

    def commit(self) -> None:
        """Give the output its final name."""
        self._committed = True
        partial, final = self._partial, self.final
        if partial is None or final is None:
            return
        if not self.folder:
            os.replace(partial, final)
            return
        final.mkdir(parents=True, exist_ok=True)
        for written in sorted(partial.iterdir()):
            os.replace(written, final / written.name)
        partial.rmdir()

    def discard(self) -> None:
        """Remove what was written under the temporary name."""
        partial = self._partial
        if partial is None:
            return
        if self.folder:
            shutil.rmtree(partial, ignore_errors=True)
        else:
            partial.unlink(missing_ok=True)

    def __enter__(self) -> PendingOutput:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if not self._committed:
            self.discard()


_ATTEMPTS = 16
"""Names tried before giving up (each with 32 random bits: a clash is a planted name)."""


def _partial(final: Path, *, folder: bool) -> Path:
    """A new partial beside ``final``, created exclusively (never through a symlink), after the
    stale partials of dead runs for the same name are removed."""
    remove_stale_partials(final)
    flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(_ATTEMPTS):
        path = final.with_name(f".{final.name}.{os.getpid()}.{secrets.token_hex(4)}.partial")
        try:
            if folder:
                path.mkdir(0o777)  # mkdir follows no symlink: an existing name is refused
            else:
                os.close(os.open(path, flags, 0o666))  # the mode the umask leaves, as open() gives
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"{final.parent}: no free name for a partial of {final.name}")


def remove_stale_partials(final: Path) -> list[Path]:
    """Remove the partials of ``final`` left by runs whose process is gone (its pid, in the
    name, no longer runs on this host); the ones removed."""
    if os.name != "posix":  # a pid cannot be asked after there without a signal
        return []
    pattern = re.compile(rf"\.{re.escape(final.name)}\.(\d+)(?:\.[0-9a-f]+)?\.partial")
    removed: list[Path] = []
    try:
        entries = list(final.parent.iterdir())
    except OSError:
        return []
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        if found is None or _running(int(found.group(1))):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        removed.append(entry)
    return removed


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (another user's too)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # no signal sent: only whether it could be
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it runs, as another user
        return True
    return True


def _renamable(final: Path) -> bool:
    """Whether ``final`` can be written under another name and renamed: it is absent, a
    regular file, or (for the analyst) a folder; not a device or a pipe."""
    return not final.exists() or final.is_file() or final.is_dir()
