"""``bench/warm_up_split.py``: the sessions a count converts first (other seeds) and counts (the
generator's own), and chatcodec's two subjects (the whole session, ``model`` and ``messages`` alone).
The counts themselves need valgrind and are the bench's; the anchors are not imported here."""

from __future__ import annotations

from bench_modules import bench_module as _bench


def test_warm_up_bodies_come_from_other_seeds_and_the_counted_one_last() -> None:
    split = _bench("warm_up_split")
    shapes = _bench("feature_shapes")
    bodies = split._bodies("openai-chat", "anthropic", "signed thinking", 3, warm=5, held=None)
    assert len(bodies) == 6
    assert bodies[-1] == shapes.body("openai-chat", "anthropic", 3, (shapes.SIGNED,))
    assert bodies[0] == shapes.body("openai-chat", "anthropic", 3, (shapes.SIGNED,), shapes.OTHER_SEEDS[0])
    assert all(body != bodies[-1] for body in bodies[:-1])
    held = _bench("held_out")
    claude = split._bodies("anthropic", "openai-chat", "none", 10, warm=2, held=held.CLAUDE_CODE)
    assert claude == [held.claude_code(10, seed) for seed in held.OTHER_SEEDS] + [held.claude_code(10)]


def test_chatcodec_subjects_convert_the_whole_session_or_its_messages_alone() -> None:
    split = _bench("warm_up_split")
    (body,) = split._bodies("openai-chat", "anthropic", "none", 3, warm=0, held=None)
    whole = split._prepared(split.CHATCODEC, "openai-chat", "anthropic", body)()
    bare = split._prepared(split.MESSAGES_ONLY, "openai-chat", "anthropic", body)()
    assert isinstance(whole, dict)
    assert isinstance(bare, dict)
    assert "tools" in whole
    assert "tools" not in bare
    assert whole["messages"] == bare["messages"]
