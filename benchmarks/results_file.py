"""The marked sections of benchmarks/RESULTS.md: one writer for every script
(the benchmarks and scripts/gpu_kit), standard library only."""

from __future__ import annotations

from pathlib import Path


def write_section(path: Path, section: str, body: str) -> None:
    """Replace (or append) one section of the results file, keeping the others."""
    begin, end = f"<!-- begin: {section} -->", f"<!-- end: {section} -->"
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    block = f"{begin}\n{body}{end}\n"
    if begin in text and end in text:
        before, rest = text.split(begin, 1)
        after = rest.split(end, 1)[1].lstrip("\n")
        text = before + block + ("\n" + after if after else "")
    else:
        text = text.rstrip("\n") + "\n\n" + block
    path.write_text(text)
