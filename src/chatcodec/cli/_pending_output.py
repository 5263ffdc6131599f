"""``convert``'s output, written under a temporary name and renamed when complete.

An interrupted or disk-full run left partial output under the final ``--out`` name, and a
Parquet file even closes with a valid footer (640 of 160,000 rows read as a whole file).
So every output is written beside its final name (``.NAME.<pid>.partial``, in the same
folder: the rename is then one atomic step of the same file system) and renamed over it
only when the run completes; an error, an interrupt (``KeyboardInterrupt``) or a run that
ends in failure removes it and leaves what was at the final name untouched. The
analyst's folder is written the same way, each of its files moved in once all are
complete. What is not a regular file (``/dev/stdout``, a named pipe) is written in place.
"""

from __future__ import annotations

import os
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
        self.path: Path | None = final if final is None or not _renamable(final) else _partial(final)
        """Where to write it meanwhile."""
        self._committed = False

    def commit(self) -> None:
        """Give the output its final name."""
        self._committed = True
        if self.path is None or self.final is None or self.path == self.final:
            return
        if not self.folder:
            os.replace(self.path, self.final)
            return
        self.final.mkdir(parents=True, exist_ok=True)
        for written in sorted(self.path.iterdir()):
            os.replace(written, self.final / written.name)
        self.path.rmdir()

    def discard(self) -> None:
        """Remove what was written under the temporary name."""
        if self.path is None or self.path == self.final:
            return
        if self.folder:
            shutil.rmtree(self.path, ignore_errors=True)
        else:
            self.path.unlink(missing_ok=True)

    def __enter__(self) -> PendingOutput:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if not self._committed:
            self.discard()


def _partial(final: Path) -> Path:
    return final.with_name(f".{final.name}.{os.getpid()}.partial")


def _renamable(final: Path) -> bool:
    """Whether ``final`` can be written under another name and renamed: it is absent, a
    regular file, or (for the analyst) a folder; not a device or a pipe."""
    return not final.exists() or final.is_file() or final.is_dir()
