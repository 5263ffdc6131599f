"""Dialects: the alternate input shapes chatcodec reads at the API boundary (provider
content parts, Verifiers' ``provider_state``, tool definitions in the providers' shapes),
read into canonical dicts by :mod:`chatcodec._dialects.reader`."""
