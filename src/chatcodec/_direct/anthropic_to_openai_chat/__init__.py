"""Anthropic -> OpenAI Chat, direct: the pair's turns written in one pass (:mod:`.messages`,
which holds the pair's ``convert``) and the usual Anthropic agent request's top level written
field by field (:mod:`.top_level`). One package per pair, so each module's imports are its
pair's two provider folders and nothing else."""

from chatcodec._direct.anthropic_to_openai_chat.messages import convert

__all__ = ["convert"]
