"""Provider codecs, one folder per wire format, each with the same shape, and the four
packages they share:

``contract/``   what every folder implements (the codec class, the role protocols, the
                contexts, capabilities, edge, structure and rules records)
``kit/``        mechanics, naming no vendor or model family
``families/``   one vendor's facts that more than one folder needs (Claude, OpenAI, Google)
``history/``    a request's history as a target format can hold it

Nothing here is imported by ``import chatcodec``: the registry imports a provider's
``codec`` module the first time its name is used. Providers import canonical modules and
the shared packages, never each other.
"""
