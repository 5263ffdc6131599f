"""Converting many payloads: the pure work on one payload and on batches of JSON lines
(:mod:`chatcodec.batch.convert`), worker processes (:mod:`chatcodec.batch.parallel`), and
:class:`~chatcodec.BatchConverter` for a dataset's column."""
