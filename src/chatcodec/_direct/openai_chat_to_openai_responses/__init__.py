"""OpenAI Chat -> OpenAI Responses, direct: the pair's messages written as ``input`` items in one
pass (:mod:`.messages`, which holds the pair's ``convert``) and the usual agent request's top
level written field by field (:mod:`.top_level`). One package per pair, so each module's
imports are its pair's two provider folders and nothing else."""

from chatcodec._direct.openai_chat_to_openai_responses.messages import convert

__all__ = ["convert"]
