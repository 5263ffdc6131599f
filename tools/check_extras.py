"""Each engine extra installs everything its recipe needs: checked from a fresh venv per extra.

A dev venv holds every engine at once, so a dependency one extra forgot is found there by
another: the ``ray`` extra left out ``aiohttp``, which ``ray.data.from_huggingface`` (Ray
Data's reader of a Hugging Face dataset's Parquet files) imports, and the runs that needed
it crashed until it was installed by hand. This tool makes a venv per extra (or set of
extras), installs ``chatcodec[EXTRA]`` into it and nothing else, and runs the docs' datasets page's
recipe for that engine there on a few rows::

    python tools/check_extras.py                  # every extra below (a few minutes: pip's cache keeps it cheap)
    python tools/check_extras.py ray hf,ray       # some of them
    make check-extras

It prints one line per extra and exits non-zero when a recipe fails. The Spark recipe needs
a Java 17+ runtime as well, which no pip extra installs: without ``java`` on the ``PATH`` it
says so and counts as a failure only with ``--require-java``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_ROWS = """
import json
REQUEST = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 64}
ROWS = [json.dumps({**REQUEST, "messages": [{"role": "user", "content": f"row {n}"}]}) for n in range(20)]
from chatcodec.datasets import ArrowConverter
TO_ANTHROPIC = ArrowConverter(source="openai-chat", target="anthropic", column="request", options={"max_tokens": 64})
def check(errors):
    assert list(errors) == [None] * 20, list(errors)
"""

RECIPES: dict[str, str] = {
    "arrow": """
        import subprocess, sys, tempfile, pathlib
        folder = pathlib.Path(tempfile.mkdtemp())
        (folder / "in.jsonl").write_text("".join(row + "\\n" for row in ROWS))
        for source, out in (("in.jsonl", "c.parquet"), ("c.parquet", "back.jsonl")):
            frm = "openai-chat" if source.endswith("jsonl") else "canonical"
            to = "canonical" if out.endswith("parquet") else "openai-chat"
            command = [sys.executable, "-m", "chatcodec", "convert", str(folder / source), "--from", frm, "--to", to]
            subprocess.run([*command, "--out", str(folder / out), "--quiet"], check=True)
        assert len((folder / "back.jsonl").read_text().splitlines()) == 20
    """,
    "hf": """
        import datasets
        dataset = datasets.Dataset.from_dict({"request": ROWS}).with_format("arrow")
        converted = dataset.map(TO_ANTHROPIC, batched=True)
        check(converted.with_format(None)["chatcodec_error"])
    """,
    "ray": """
        import subprocess, sys, tempfile, pathlib
        import pyarrow as pa, pyarrow.parquet as pq, ray
        folder = pathlib.Path(tempfile.mkdtemp())
        pq.write_table(pa.table({"request": ROWS}), folder / "in.parquet")
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
        rows = ray.data.read_parquet(str(folder / "in.parquet")).map_batches(TO_ANTHROPIC, batch_format="pyarrow")
        check(row["chatcodec_error"] for row in rows.take_all())
        ray.shutdown()
    """,
    "hf,ray": """
        import datasets, ray
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
        dataset = ray.data.from_huggingface(datasets.Dataset.from_dict({"request": ROWS}))
        rows = dataset.map_batches(TO_ANTHROPIC, batch_format="pyarrow").take_all()
        check(row["chatcodec_error"] for row in rows)
        ray.shutdown()
    """,
    "spark": """
        import os, sys
        os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers run this venv's Python, as an activated venv's
        from pyspark.sql import SparkSession
        spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
        frame = spark.createDataFrame([(row,) for row in ROWS], "request string")
        def convert_batches(batches):
            for batch in batches:
                yield from TO_ANTHROPIC(batch).to_batches()
        schema = "request string, anthropic_request string, chatcodec_error string, chatcodec_losses array<string>"
        check(row["chatcodec_error"] for row in frame.mapInArrow(convert_batches, schema).collect())
        spark.stop()
    """,
}
"""Each extra's recipe (the docs' datasets page's), run in a venv holding that extra only."""


def check(extra: str, keep: bool, root: Path = ROOT) -> tuple[bool, str]:
    """Install ``chatcodec[extra]`` (from ``root``) into a fresh venv and run its recipe there."""
    folder = Path(tempfile.mkdtemp(prefix=f"chatcodec-extra-{extra.replace(',', '-')}-"))
    python = folder / "bin" / "python"
    started = time.monotonic()
    try:
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, capture_output=True)
        install = [str(python), "-m", "pip", "install", "--quiet", f"{root}[{extra}]"]
        installed = subprocess.run(install, capture_output=True, text=True, check=False)
        if installed.returncode:
            return False, f"pip install failed:\n{installed.stderr[-2000:]}"
        script = _ROWS + textwrap.dedent(RECIPES[extra])
        ran = subprocess.run([str(python), "-c", script], capture_output=True, text=True, timeout=600, check=False)
        seconds = time.monotonic() - started
        if ran.returncode:
            return False, f"the recipe failed ({seconds:.0f} s):\n{ran.stderr[-3000:]}"
        return True, f"ok ({seconds:.0f} s)"
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("extras", nargs="*", default=list(RECIPES), help=f"of {', '.join(RECIPES)} (default: all)")
    parser.add_argument("--keep", action="store_true", help="keep the venvs (their paths are printed)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to install (default: this one)")
    parser.add_argument("--require-java", action="store_true", help="fail the spark check when no java is found")
    arguments = parser.parse_args()
    failed = 0
    for extra in arguments.extras:
        if extra not in RECIPES:
            parser.error(f"unknown extra {extra!r}: one of {', '.join(RECIPES)}")
        if extra == "spark" and shutil.which("java") is None:
            print(f"{extra}: not run: no Java runtime on the PATH (Spark needs Java 17+, which no pip extra installs)")
            failed += arguments.require_java
            continue
        passed, said = check(extra, arguments.keep, arguments.root)
        print(f"{extra}: {said}", flush=True)
        failed += not passed
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
