"""``bench/variant_shapes.py``: each variant is one change of its pair's plain session, a request the
canonical path converts, and the direct path writes what the canonical path writes."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from bench import variant_shapes

import chatcodec
from chatcodec._direct.table import canonical_only

_SESSIONS = list(variant_shapes.sessions(3))


def _converted(body: dict[str, Any], source: str, target: str) -> str:
    losses: list[Any] = []
    output = chatcodec.convert_request(
        copy.deepcopy(body), source=source, target=target, on_loss="ignore", losses=losses
    )
    return json.dumps([output, [repr(loss) for loss in losses]])


@pytest.mark.parametrize(
    ("source", "target", "name", "body"), _SESSIONS, ids=[f"{s}->{t}: {n}" for s, t, n, _ in _SESSIONS]
)
def test_a_variant_changes_its_plain_session_and_converts_as_the_canonical_path_does(
    source: str, target: str, name: str, body: dict[str, Any]
) -> None:
    plain = next(b for s, t, n, b in _SESSIONS if (s, t, n) == (source, target, variant_shapes.PLAIN))
    assert (body == plain) == (name == variant_shapes.PLAIN)
    with canonical_only():
        canonical = _converted(body, source, target)
    assert _converted(body, source, target) == canonical
    assert _converted(body, source, target) == canonical  # (what the first conversion remembered)
