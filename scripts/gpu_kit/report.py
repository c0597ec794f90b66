"""What `gpu_kit.sh run` leaves in $OUT, rewritten after every step so that a run
cut short keeps what it measured: RESULTS.md (one marked section per step, the
format benchmarks/RESULTS.md uses), summary.json, logs.tar.gz and the plots.
Also `gpu_kit.sh merge`: copy those sections into benchmarks/RESULTS.md."""

from __future__ import annotations

import json
import re
import sys
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from gpu_kit import steps

# The one writer of RESULTS.md's marked sections (benchmarks/results_file.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from results_file import write_section  # noqa: E402

RUN_SECTION = "GPU kit run"


@dataclass
class Entry:
    """One step's record."""

    key: str
    title: str
    status: str = "not run"
    seconds: float = 0.0
    limit: float = 0.0
    lines: list[str] = field(default_factory=list)
    body: str = ""


class Report:
    """The run's outputs under ``out``; logs come from ``work/logs``."""

    def __init__(self, out: Path, work: Path, dry: bool) -> None:
        self.out, self.work, self.dry = out, work, dry
        self.entries: dict[str, Entry] = {}
        self.notes: dict[str, str] = {}
        self.env_lines: list[str] = []
        self.warmups: list[tuple[str, str, float]] = []
        self.date = time.strftime("%Y-%m-%d %H:%M")

    def _entry(self, step: steps.Step) -> Entry:
        return self.entries.setdefault(step.key, Entry(step.key, step.title))

    def note(self, key: str, text: str) -> None:
        self.notes[key] = text

    def step(self, key: str, title: str, status: str, seconds: float, limit: float) -> None:
        self.entries[key] = Entry(key, title, status, seconds, limit)

    def environment(self, have: dict[str, str | None], gpu: str, cpus: int) -> None:
        versions = ", ".join(f"{k} {v}" for k, v in have.items() if v)
        absent = ", ".join(k for k, v in have.items() if not v)
        gpu = "; ".join(ln.strip() for ln in gpu.splitlines() if ln.strip())
        self.env_lines = [f"- CPUs: {cpus}", f"- GPU: {gpu}", f"- Installed: {versions}"]
        if absent:
            self.env_lines.append(f"- Not installed: {absent}")

    def background(self, key: str, status: str, seconds: float) -> None:
        """A warm-up's outcome (it ran beside the steps)."""
        self.warmups.append((key, status, seconds))
        print(f"gpu_kit run: {key} (background): {status} after {seconds:.0f} s", flush=True)

    def line(self, step: steps.Step, text: str) -> None:
        self._entry(step).lines.append(text)

    def skip(self, step: steps.Step, reason: str) -> None:
        entry = self._entry(step)
        entry.status = reason
        print(f"gpu_kit run: {step.key}: {reason}", flush=True)

    def finish(
        self,
        step: steps.Step,
        status: str,
        seconds: float,
        limit: float,
        commands: list[list[str]],
        body: str,
    ) -> None:
        entry = self._entry(step)
        entry.status, entry.seconds, entry.limit, entry.body = status, seconds, limit, body
        entry.lines += [f"Command: `{_short(c, self.work)}`" for c in commands]
        print(
            f"gpu_kit run: {step.key}: {status} in {seconds:.0f} s (limit {limit:.0f} s)",
            flush=True,
        )

    def _status(self, e: Entry) -> str:
        if e.status in ("ok", "exit 0"):
            return f"ok in {e.seconds:.0f} s (limit {e.limit:.0f} s)"
        if e.status == "timed out":
            return f"TIMED OUT at {e.seconds:.0f} s: partial results (what it printed)"
        if e.status.startswith("exit"):
            return f"FAILED ({e.status}) after {e.seconds:.0f} s: see logs.tar.gz"
        return e.status

    def _section(self, e: Entry) -> str:
        body = e.body.strip()
        head = f"## {e.title}"
        if body.startswith("## "):
            head, _, body = body.partition("\n")
        lines = [head, "", f"- gpu_kit step `{e.key}`: {self._status(e)}"]
        lines += [f"- {ln}" for ln in e.lines]
        if self.dry:
            lines.append("- DRY RUN on CPU stand-ins: a check of the kit, not a measurement")
        text = "\n".join(lines) + ("\n\n" + body.strip("\n") if body else "") + "\n"
        return f"<!-- begin: {e.title} -->\n{text}<!-- end: {e.title} -->\n"

    def _run_section(self, seconds: float | None) -> str:
        mode = "DRY RUN on CPU stand-ins" if self.dry else "on the GPU machine"
        lines = [f"## {RUN_SECTION} ({self.date}, {mode})", ""]
        if seconds is not None:
            lines.append(f"- Whole run: {seconds:.0f} s")
        lines += self.env_lines
        lines += ["", "| step | section | status |", "|---|---|---|"]
        lines += [f"| {e.key} | {e.title} | {self._status(e)} |" for e in self.entries.values()]
        if self.warmups:
            lines += ["", "Compiled ahead in the background (logs in logs.tar.gz):", ""]
            lines += [f"- {k}: {st} ({sec:.0f} s)" for k, st, sec in self.warmups]
        if "install" in self.notes:
            lines += ["", "### Install", "", self.notes["install"]]
        text = "\n".join(lines) + "\n"
        return f"<!-- begin: {RUN_SECTION} -->\n{text}<!-- end: {RUN_SECTION} -->\n"

    def write(self, final: bool = False, seconds: float | None = None) -> None:
        """RESULTS.md, summary.json and logs.tar.gz as they stand."""
        title = "# GPU kit results" + (" (DRY RUN: not measurements)" if self.dry else "")
        parts = [title, "", self._run_section(seconds)]
        parts += [self._section(e) for e in self.entries.values() if e.key != "install"]
        (self.out / "RESULTS.md").write_text("\n".join(parts))
        summary = {
            "dry": self.dry,
            "date": self.date,
            "final": final,
            "seconds": seconds,
            "warmups": [
                {"key": k, "status": st, "seconds": round(sec, 1)} for k, st, sec in self.warmups
            ],
            "steps": [
                {
                    "key": e.key,
                    "title": e.title,
                    "status": e.status,
                    "seconds": round(e.seconds, 1),
                    "limit": e.limit,
                }
                for e in self.entries.values()
            ],
        }
        (self.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
        with tarfile.open(self.out / "logs.tar.gz", "w:gz") as tar:
            for path in sorted(self.work.rglob("*")):
                if path.is_file():
                    tar.add(path, arcname=f"gpu_kit_logs/{path.relative_to(self.work)}")

    def summary_line(self) -> str:
        return "; ".join(f"{e.key}: {self._status(e)}" for e in self.entries.values())


def _short(cmd: list[str], work: Path) -> str:
    """A command line as a reader would type it: `python benchmarks/...`."""
    text = " ".join(f"'{a}'" if " " in a else a for a in cmd[1:])
    text = re.sub(r"\S*/(benchmarks|tests)/", r"\1/", text)
    return "python " + text.replace(str(work), "WORK")


def sections(text: str) -> dict[str, str]:
    """Marked sections of a results file: name -> body (without the markers)."""
    pattern = re.compile(r"<!-- begin: (.*?) -->\n(.*?)<!-- end: \1 -->", re.S)
    return {m.group(1): m.group(2) for m in pattern.finditer(text)}


def merge(results: Path, target: Path, names: list[str] | None = None) -> list[str]:
    """Copy the kit's sections (those of the steps that finished, or ``names``)
    into ``target`` (benchmarks/RESULTS.md), replacing sections of the same name."""
    text = results.read_text()
    if text.startswith("# GPU kit results (DRY RUN"):
        raise SystemExit(f"gpu_kit merge: {results} is a dry run's: nothing in it is a measurement")
    found = sections(text)
    # By default only the steps that finished: a skipped, failed or cut-short
    # step's section would replace a complete one (name it to take it anyway).
    finished = re.compile(r"^- gpu_kit step `[^`]+`: ok in ", re.M)
    chosen = names or [n for n in found if n != RUN_SECTION and finished.search(found[n])]
    for name in chosen:
        if name not in found:
            raise SystemExit(f"gpu_kit merge: {results} has no section {name!r}")
        write_section(target, name, found[name])
    return chosen
