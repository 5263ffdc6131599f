"""Shared test settings: one Hypothesis profile, used in CI and locally."""

from hypothesis import settings

settings.register_profile("chatcodec", deadline=None, print_blob=True)
settings.load_profile("chatcodec")
