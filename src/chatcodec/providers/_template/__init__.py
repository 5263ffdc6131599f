"""The provider folder a newcomer copies: every file of the folder contract, minimal.

This package is not registered (no line in ``registry._BUILT_IN``) and describes no real
API: its wire is a toy chat format of text turns (``{"role", "content"}``), so each file
shows the one job it has, its signatures and why it is there, without a real provider's
quirks in the way. ``tests/providers/test_template.py`` keeps it honest: the template has
every file of the contract, every real provider folder has the same files with the same
public signatures, and the template's codec converts a text conversation both ways.

To add a provider (CONTRIBUTING.md, "Adding a provider"):

1. Copy this folder to ``providers/<name>/`` (the registry name with ``_`` for ``-``);
   set ``PROVIDER`` in ``markers.py``; replace the toy wire with the provider's own,
   file by file (each file's docstring says what it holds).
2. Add one line to ``_BUILT_IN`` in ``registry.py``:
   ``"<name>": "chatcodec.providers.<name>.codec:CODEC"``.
3. Copy the recorded fixtures from ``../shared/fixtures`` into ``tests/fixtures/<name>/``
   (provenance kept) and write ``tests/providers/<name>/conformance.py``.

Here, at the head of a real provider's package, go its API documentation links (the
reference, streaming, errors, the changelog, the SDK types the tests validate against),
as every provider package does, in this form (``tests/providers/test_package_docs.py``
reads the labels; ``Streaming`` only for a codec with streams):

API documentation:

- Reference: https://example.com/template-chat/api
- Streaming: https://example.com/template-chat/api#streaming
- Changelog: https://example.com/template-chat/changelog
"""
