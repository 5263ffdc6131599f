"""Strict reading at an API boundary: the fields a provider would refuse
(:mod:`chatcodec._strict.fields`, with the compatible servers' documented extensions), the
values it refuses (:mod:`chatcodec._strict.values`), the structural rules it enforces
(:mod:`chatcodec._strict.rules`), and the one check the entry points call with
``strict=True`` (:mod:`chatcodec._strict.check`)."""
