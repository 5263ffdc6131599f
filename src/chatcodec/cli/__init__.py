"""The ``chatcodec`` command line: the parser and its commands (:mod:`chatcodec.cli._commands`),
``convert`` at scale with its input reading and progress bar, ``serve``, and the exit codes.
:func:`main` is the ``chatcodec`` console script and ``python -m chatcodec``."""

from chatcodec.cli._commands import main

__all__ = ["main"]
