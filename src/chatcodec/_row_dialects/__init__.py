"""The row dialects: the rows datasets and trainers keep a conversation in, read and written.

ShareGPT, alpaca, TRL's and Hugging Face's chat rows, Verifiers' rollouts, OpenAI Evals items,
rollout and trajectory rows (with their token columns), Harbor's ATIF trajectories
(:mod:`.dialects` is their table and the one reader and writer of a row), and the harnesses' own
session files (Claude Code's transcripts, Codex's rollout files, OpenHands' output rows:
:mod:`.sessions`), read into a body a registered codec then reads, every difference a named loss. A room below both of
its callers: the batch route (``chatcodec convert``, ``BatchConverter``) converts rows through
it, and the training room (``render``, ``render_turns``, ``trainer_samples``) reads a row as a
conversation through it, so neither climbs into the other to read a row. It imports only the
vocabulary and the registry (a provider's batch rows), never ``batch/``, ``_training/`` or the
API above them (``tests/test_layers.py`` pins it).
"""
