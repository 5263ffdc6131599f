"""The room of conversation readers for row and session-file dialects.

A dialect here is another project's record of a conversation, not a provider's wire: a dataset
row (ShareGPT, Alpaca, eval items, trajectories) or a harness's own session file (Claude Code's
``~/.claude/projects`` transcripts, Codex's rollout files), read into a body a registered codec
then reads, every difference a named loss. The batch route and the training room call these
readers; no codec imports them.
"""
