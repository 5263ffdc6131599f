"""The law facts of chatcodec's built-in codecs, stated as an outside codec states its own:
each module's ``entry`` is named by a ``chatcodec.laws`` entry point of chatcodec's
distribution (``pyproject.toml``), so ``chatcodec check-codec NAME`` reads them by name. They
are the facts the codec gives (its documented rewrites, normal forms, bags); the facts only
recordings and SDKs give (fixtures, oracles, recorded stream pairs) stay with the
repository's tests, whose entries add them to these (``tests/providers/<name>/conformance.py``)."""
