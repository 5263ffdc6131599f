"""Converting many payloads: the pure work on one payload and on batches of JSON lines
(:mod:`chatcodec.batch._convert`), worker processes (:mod:`chatcodec.batch._parallel`), and
:class:`~chatcodec.BatchConverter` for a dataset's column."""
