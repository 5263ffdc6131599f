"""``render`` with a tokenizer as users hold it: a ``transformers`` fast tokenizer against the
``tokenizers.Tokenizer`` it wraps (its ``backend_tokenizer``), and a model folder against its
``tokenizer.json`` path.

Qwen3's ``tokenizer.json`` (:func:`bench.render_instructions.tokenizer_json`) wrapped in a
``PreTrainedTokenizerFast``; :func:`bench.render_instructions.conversation`'s agent loop under
``qwen3-training``, every answer trained, ids and masks checked equal across the four; the CPU
time of one render, the least of ``--rounds`` rounds (the four interleaved in each round, so a
loaded machine's slow moments fall on all of them).

``python bench/held_tokenizers.py [--sizes 10 50 200] [--rounds 15]`` (in the bench's venv).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[10, 50, 200])
    parser.add_argument("--rounds", type=int, default=15)
    arguments = parser.parse_args(argv)
    import tokenizers
    from transformers import PreTrainedTokenizerFast

    import chatcodec
    from bench.render_instructions import TOOLS, conversation, tokenizer_json

    with tempfile.TemporaryDirectory(prefix="chatcodec-held-tokenizers-") as directory:
        path = tokenizer_json(Path(directory))
        folder = Path(directory) / "snapshot"
        folder.mkdir()
        shutil.copy(path, folder / "tokenizer.json")
        loaded = tokenizers.Tokenizer.from_file(str(path))
        wrapped = PreTrainedTokenizerFast(tokenizer_object=loaded, eos_token="<|im_end|>", pad_token="<|endoftext|>")
        held: dict[str, object] = {
            "`tokenizers.Tokenizer` (its backend)": wrapped.backend_tokenizer,
            "transformers `PreTrainedTokenizerFast`": wrapped,
            "`tokenizer.json` path": str(path),
            "model folder": str(folder),
        }
        print(f"CPU ms of one render (least of {arguments.rounds}), Python {sys.version.split()[0]}")
        print()
        print("| messages | " + " | ".join(held) + " | transformers / its backend |")
        print("|---|" + "---|" * (len(held) + 1))
        for size in arguments.sizes:
            messages = conversation(size)

            def rendered(tokenizer: object, messages: list[dict[str, object]] = messages) -> Callable[[], object]:
                return lambda: chatcodec.render(
                    messages,
                    tools=TOOLS,
                    template="qwen3-training",
                    tokenizer=tokenizer,
                    train_on="all_assistant_messages",
                    on_loss="ignore",
                )

            calls = {name: rendered(tokenizer) for name, tokenizer in held.items()}
            outputs = {name: call() for name, call in calls.items()}
            first = next(iter(outputs.values()))
            for name, output in outputs.items():
                if (output.token_ids, output.trainable) != (first.token_ids, first.trainable):  # type: ignore[attr-defined]
                    raise RuntimeError(f"{name}: other ids or mask at {size} messages")
            least = dict.fromkeys(calls, float("inf"))
            for _ in range(arguments.rounds):
                for name, call in calls.items():
                    started = time.process_time()
                    call()
                    least[name] = min(least[name], time.process_time() - started)
            cells = " | ".join(f"{seconds * 1000:.2f}" for seconds in least.values())
            names = list(held)
            print(f"| {size} | {cells} | {least[names[1]] / least[names[0]]:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
