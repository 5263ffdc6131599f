"""The law facts of chatcodec's built-in formats (the seven wires and the four framework
histories), one home each, stated as an outside codec states its own: each module's ``entry``
is named by a ``chatcodec.laws`` entry point of chatcodec's distribution (``pyproject.toml``),
so ``chatcodec check-codec NAME`` reads them by name. They are the facts the codec gives (its
documented rewrites, normal forms, bags, marker requests); the facts only recordings and SDKs
give (fixtures, oracles, finish words over a recorded body, recorded stream pairs) stay with
the repository's tests, whose entries add them to these (``tests/providers/<name>/conformance.py``)."""
