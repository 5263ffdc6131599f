"""Keys for the upstream: the caller's own, passed through, or the server's.

The caller's key (:func:`~chatcodec.serve.fronts.caller_key`) goes to the upstream in
the upstream's own header (its edge's ``Upstream.headers``); when the caller sent none,
the server's environment supplies it (``--api-key-env``, by default the variable the
upstream's SDK reads, ``Upstream.key_env``). An upstream that signs requests sent with
no key (Bedrock's SigV4) does so in its edge (``Upstream.sign``).
"""

from __future__ import annotations

import os

from chatcodec.providers.kit.edge import Upstream


def upstream_key(upstream: Upstream, caller: str | None, key_env: str | None) -> str | None:
    """The key to send: the caller's, else the environment's."""
    if caller:
        return caller
    return os.environ.get(key_env or upstream.key_env) or None
