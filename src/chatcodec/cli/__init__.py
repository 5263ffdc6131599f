"""The ``chatcodec`` command line: the parser and its commands (:mod:`chatcodec.cli.main`),
``convert`` at scale with its input reading and progress bar, ``serve``, and the exit codes."""
