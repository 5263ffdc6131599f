"""Strict reading at an API boundary: the fields a provider would refuse
(:mod:`chatcodec.strict.fields`, with the compatible servers' documented extensions), the
values it refuses (:mod:`chatcodec.strict.values`), the structural rules it enforces
(:mod:`chatcodec.strict.rules`), and the one check the entry points call with
``strict=True`` (:mod:`chatcodec.strict.check`)."""
