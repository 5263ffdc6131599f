"""Batch envelopes and training dialects are facts of the provider folders: each folder's
``batch_rows.py`` declares the envelopes its bodies ride in (and what a body holds
differently there), and :data:`chatcodec.batch._envelopes.ENVELOPES` is assembled from those
declarations alone, so a new provider's batch rows need no shared edit."""

from __future__ import annotations

from collections import Counter

import pytest

from chatcodec._providers.contract.envelopes import FORMAT
from chatcodec._registry import PROVIDER_NAMES, get_batch_rows
from chatcodec._row_dialects import dialects as training
from chatcodec.batch import _envelopes as envelopes

DECLARED = [(name, body) for name in PROVIDER_NAMES for body in get_batch_rows(name).bodies]


def test_every_body_is_declared_by_its_own_folder() -> None:
    assert DECLARED
    assert all(body.format == name for name, body in DECLARED)


def test_each_layout_has_one_default_body() -> None:
    defaults = Counter(body.envelope.name for _, body in DECLARED if body.default)
    layouts = {body.envelope.name for _, body in DECLARED}
    assert defaults == dict.fromkeys(layouts, 1)


@pytest.mark.parametrize("envelope", envelopes.ENVELOPES, ids=lambda envelope: envelope.name)
def test_the_table_is_the_declarations(envelope: envelopes.Envelope) -> None:
    bodies = [body for _, body in DECLARED if body.envelope.name == envelope.name]
    assert envelope.formats[0] == next(body.format for body in bodies if body.default)
    assert sorted(envelope.formats) == sorted(body.format for body in bodies)
    assert dict(envelope.body_dropped) == {body.format: body.dropped for body in bodies if body.dropped}
    assert dict(envelope.body_fixed) == {body.format: body.fixed for body in bodies if body.fixed}
    assert set(envelope.format_marks) == {(mark, body.format) for body in bodies for mark in body.marks}
    told = [held for _, held in envelope.layout if isinstance(held, envelopes.ByFormat)]
    assert all(held is not FORMAT for _, held in envelope.layout)
    assert [dict(each.values) for each in told] == [
        {body.format: body.told_by for body in bodies if body.told_by is not None}
    ] * len(told)


def test_one_format_holds_the_training_dialects() -> None:
    holding = [name for name in PROVIDER_NAMES if get_batch_rows(name).training_dialects]
    assert holding == [training.WRITTEN_FROM]


def test_a_folder_without_batch_rows_declares_none() -> None:
    silent = [name for name in PROVIDER_NAMES if not get_batch_rows(name).bodies]
    assert all(name not in envelope.formats for envelope in envelopes.ENVELOPES for name in silent)
