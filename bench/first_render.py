"""A process's first render against transformers' first ``apply_chat_template``, in fresh processes.

What every dataset worker and command-line run pays once: a fresh ``python -I`` process loads the
same ``tokenizers.Tokenizer`` (Qwen3's ``tokenizer.json``, :func:`bench.render_instructions.tokenizer_json`)
and, for transformers, wraps it in a ``PreTrainedTokenizerFast`` with the template set; then the
CPU time (``time.process_time``) of its first call is taken: chatcodec's ``render(messages,
tools=..., template=T, tokenizer=..., train_on="all_assistant_messages")`` (``import chatcodec``
before the clock, the lazy imports it triggers inside it) against transformers'
``apply_chat_template(messages, tools=..., tokenize=True, return_dict=True)`` (with
``return_assistant_tokens_mask=True`` where the template has generation tags), on
:func:`bench.render_instructions.conversation`'s ten-message agent loop. Each is the median of
``--runs`` processes; their ids are checked equal. A process before the counted ones writes the
template's compiled code to the user's cache directory (``_training/compiled_templates.py``), as
a machine's first render does once: the counted renders load it.

``python bench/first_render.py [--templates qwen3-training qwen3] [--runs 5]`` (in the bench's venv).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

CHILD = """
import json, sys, time
sys.path[:0] = [SRC, ROOT]
subject, template, path = sys.argv[1], sys.argv[2], sys.argv[3]
import tokenizers
from bench.render_instructions import TOOLS, conversation
messages = conversation(10)
loaded = tokenizers.Tokenizer.from_file(path)
if subject == "chatcodec":
    import chatcodec
    text = None if "/" not in template else open(template).read()
    started = time.process_time()
    ids = chatcodec.render(messages, tools=TOOLS, template=text or template, tokenizer=loaded,
                           train_on="all_assistant_messages", on_loss="ignore").token_ids
else:
    from transformers import PreTrainedTokenizerFast
    made = PreTrainedTokenizerFast(tokenizer_object=loaded, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    made.chat_template = open(template).read()
    tags = "{%- generation" in made.chat_template or "{% generation" in made.chat_template
    started = time.process_time()
    ids = made.apply_chat_template(messages, tools=TOOLS, tokenize=True, return_dict=True,
                                   return_assistant_tokens_mask=tags)["input_ids"]
spent = time.process_time() - started
print(json.dumps({"seconds": spent, "ids": list(ids)}))
"""


def first_call(subject: str, template: str, path: Path) -> tuple[float, list[int]]:
    code = CHILD.replace("SRC", repr(str(ROOT / "src"))).replace("ROOT", repr(str(ROOT)))
    done = subprocess.run(
        [sys.executable, "-I", "-c", code, subject, template, str(path)], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return float(found["seconds"]), list(found["ids"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--templates", nargs="+", default=["qwen3-training", "qwen3"])
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args(argv)
    from bench.render_instructions import tokenizer_json
    from chatcodec._training import families

    print(f"CPU ms of a fresh process's first call (median of {arguments.runs}), Python {sys.version.split()[0]}")
    print()
    print("| template | chatcodec `render` | transformers `apply_chat_template` | ratio |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="chatcodec-first-render-") as directory:
        path = tokenizer_json(Path(directory))
        for family in arguments.templates:
            template = Path(directory) / f"{family}.jinja"
            template.write_text(families.template_text(family), encoding="utf-8")
            # the bytecode of both written once, outside the count, and chatcodec's compiled template
            # (kept in the user's cache directory: what every later process loads)
            first_call("chatcodec", family, path)
            first_call("transformers", str(template), path)
            ours = [first_call("chatcodec", family, path) for _ in range(arguments.runs)]
            theirs = [first_call("transformers", str(template), path) for _ in range(arguments.runs)]
            if ours[0][1] != theirs[0][1]:
                raise RuntimeError(f"{family}: chatcodec's ids differ from transformers'")
            mine = statistics.median(seconds for seconds, _ in ours) * 1000
            other = statistics.median(seconds for seconds, _ in theirs) * 1000
            print(f"| `{family}` | {mine:.1f} | {other:.1f} | {mine / other:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
