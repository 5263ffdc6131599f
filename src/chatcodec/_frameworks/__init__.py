"""Framework histories: the conversations agent frameworks store, as formats of their own;
and the conversations agent protocols carry (``a2a``: an A2A agent's messages and tasks), which
are read and written the same way.

A framework's stored history is no provider wire (no HTTP, no streams), but it is read and
written as one: each folder here is a codec written on the public contract
(:mod:`chatcodec.contract`), as a codec from outside would be, registered by name beside the
provider formats (``_registry.FRAMEWORK_FORMATS``) and left out of the provider lists.
"""
