"""The provider laws, shipped: every law the built-in codecs pass, run over any installed
codec from the installed package (``chatcodec check-codec NAME``, or :func:`law_cases` in a
codec's own test suite), not from this repository's test tree.

A law reads a codec only through public entry points and the facts its :class:`ProviderEntry`
states (recordings, SDK oracles, documented rewrites); a fact an entry does not state gives
the laws that need it no case, and the codec's capabilities say which laws stream.
"""
