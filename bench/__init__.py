"""chatcodec's benchmark suite: a script, not timed unit tests.

``make bench`` builds ``.venv-bench`` (chatcodec plus the anchor libraries of the
``bench`` dependency group) and runs ``bench/run.py``, which writes ``bench/RESULTS.md``;
``make bench-quick`` is a smoke run. One module per job: ``workloads`` (the synthetic
sessions and streams), ``floor`` (plain-dict converters), ``equivalence`` (the views
every output is checked on), ``timing`` (interleaved rounds, medians, growth exponents),
``subject`` (chatcodec's calls), ``anchors_*`` (one per library, imported lazily),
``section_*`` (one per part of the report), ``report`` and ``cli``.
``instructions.py`` (``make bench-instructions``) counts instructions per conversion
under valgrind callgrind (``callgrind`` holds its client requests), a measure the
machine's load does not move. ``convert_throughput.py`` is a separate script: the ``chatcodec convert`` command's
conversations per second by worker count.
"""
