"""Provider codecs, one folder per wire format, each with the same shape.

Nothing here is imported by ``import chatcodec``: the registry imports a provider's
``codec`` module the first time its name is used. Providers import canonical modules and
:mod:`chatcodec.providers.kit`, never each other.
"""
