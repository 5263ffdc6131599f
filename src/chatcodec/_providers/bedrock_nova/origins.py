"""Where each canonical message of a request came from: the AWS family's
(:mod:`chatcodec._providers.families.aws.origins`)."""

from chatcodec._providers.families.aws.origins import message_origins

__all__ = ["message_origins"]
