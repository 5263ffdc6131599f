"""Direct paths: for a pair of formats that carries traffic, the source's validated copy of a
body written as the target's in one pass, with no canonical message built between.

The canonical path (the source's reader, canonical data, the target's writer:
:mod:`chatcodec._conversion`) stays the model, every other pair's path and the fallback of
this one. A direct path calls the functions the canonical reader and writer call for every
rule, takes only the shapes it admits, and hands anything else back, whole, before it
writes; the tests hold its outputs, losses and errors equal to the canonical path's
(CONTRIBUTING.md, "Direct paths"). :mod:`.table` says which pairs have one.
"""
