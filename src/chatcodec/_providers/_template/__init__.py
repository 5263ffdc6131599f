"""The provider folder a newcomer copies: every file of the folder contract, minimal.

This package is not registered (no line in ``registry._BUILT_IN``) and describes no real
API: its wire is a toy chat format of text turns (``{"role", "content"}``), so each file
shows the one job it has, its signatures and why it is there, without a real provider's
quirks in the way. ``tests/providers/test_template.py`` keeps it honest: the template has
every file of the contract, every real provider folder plays the same roles with the same
public signatures, and the template's codec converts a text conversation both ways.

A folder is the modules it has: the codec is built from them by
``ProviderCodec.from_package``, a role the wire does not have is left out (no tools, no
settings, no usage, no streams: both stream modules or neither), and ``markers.ROLES`` may
name a module elsewhere that plays a role (a family's shared reader).

To add a provider (CONTRIBUTING.md, "Adding a provider"):

1. Copy this folder to ``_providers/<name>/`` (the registry name with ``_`` for ``-``);
   set ``PROVIDER`` in ``markers.py``; replace the toy wire with the provider's own,
   file by file (each file's docstring says what it holds).
2. Add one line to ``_BUILT_IN`` in ``_registry.py``: ``"<name>": "chatcodec._providers.<name>"``
   (the registry builds the codec from the folder's modules, ``ProviderCodec.from_package``;
   an outside distribution names its package in its ``chatcodec.codecs`` entry point).
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

The contract's optional files, which this toy wire does not need (a real folder has the ones
its wire does; each job as here):

- ``stream_framing``: how its server frames a stream (``FRAMING``, which its edge holds), read
  on a stream's first use without loading the edge.
- ``batch_rows``: where its bodies ride in batch files, and the training dialects that hold its
  messages.
- ``origins``: where each canonical message came from in the request read, for a
  conversion's loss paths (:mod:`chatcodec._providers.kit.origins`).
- ``structure``: what strict mode's structural rules read of a request (its turns, token limit,
  calls and results).
- ``dialect``: what the dialect readers (``chatcodec._dialects``) read of this shape outside a
  request body.

Modules (the folder contract, each a job of its own). A real folder's map says "the contract's
files as in ``_providers/_template``" and gives a bullet, with its job, to each module of its own
and to a contract file it has more to say of; the contract's files are described here once, the
optional ones above (``tests/providers/test_package_docs.py`` reads the maps):

- ``markers``: this provider's name, its kit, its encoder options and the spelling markers it
  keeps in its bags.
- ``capabilities``: what the wire can carry, as data (``CAPABILITIES``), read by the shared
  rules, strict mode and the laws.
- ``edge``: what the API says on HTTP (``EDGE``): routes, upstream, stream framing, error
  shapes, detection marks.
- ``wire``: the one description of the wire: its shapes, keys spelled as the API spells them.
- ``request``: the one reader and the one writer of request bodies, over canonical data.
- ``response``: the one reader and the one writer of response bodies, over canonical data.
- ``messages``: the wire's message list <-> canonical messages.
- ``parts``: content blocks <-> canonical content parts.
- ``tools``: tool definitions and tool choice, both ways.
- ``settings``: sampling, reasoning and output-format settings, both ways.
- ``finish_reason``: the wire's finish word <-> the canonical finish reason.
- ``usage``: token counts <-> canonical usage.
- ``rules``: what the target accepts today, by API version and model family (``RULES``, with
  sources).
- ``stream_decode``: wire stream events -> the shared stream builder (the one stream path).
- ``stream_encode``: canonical stream events -> wire stream events.
"""
