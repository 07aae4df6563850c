"""The campaign's one table (rich on the terminal, Markdown for docs/measured/faults.md) and
its verdict."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from .concurrency import Contest
from .crash_campaign import Tally
from .lab import Outcome
from .materials import MiB


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    tallies: list[Tally] = field(default_factory=list)
    contests: list[Contest] = field(default_factory=list)
    seconds: float = 0.0

    # -- counts
    @property
    def crashes(self) -> int:
        """Cases with a traceback or an exit code they do not expect, runs after a kill that
        failed, contest runs that crashed."""
        wrong = sum(1 for o in self.outcomes if o.crashed or (o.got not in o.expected))
        return (
            wrong
            + sum(len(t.crashes) for t in self.tallies)
            + sum(1 for c in self.contests for p in c.problems if "crashed" in p)
        )

    @property
    def kill_tracebacks(self) -> int:
        """Killed runs whose parse worker printed a traceback as it lost its parent."""
        return sum(len(t.kill_tracebacks) for t in self.tallies)

    @property
    def hangs(self) -> int:
        return sum(o.hung for o in self.outcomes) + sum(t.hangs for t in self.tallies)

    @property
    def corrupt(self) -> int:
        return sum(o.corrupt for o in self.outcomes) + sum(len(t.corrupt) for t in self.tallies)

    @property
    def leftovers(self) -> int:
        return sum(len(o.leftovers) for o in self.outcomes) + sum(
            len(t.leftovers) for t in self.tallies
        )

    @property
    def touched(self) -> int:
        """Files changed outside what each command may write (user files, exports)."""
        return sum(len(o.touched) for o in self.outcomes)

    @property
    def orphans(self) -> int:
        return sum(o.orphans for o in self.outcomes) + sum(t.orphans for t in self.tallies)

    @property
    def double_writes(self) -> int:
        return sum(c.double_writes for c in self.contests)

    @property
    def failed(self) -> bool:
        """The verdict: any case not handled, corrupt state, leftover, crash, hang, orphan,
        concurrency problem or double write."""
        return bool(
            any(not o.handled for o in self.outcomes)
            or self.corrupt
            or self.leftovers
            or self.touched
            or self.crashes
            or self.kill_tracebacks
            or self.hangs
            or self.orphans
            or self.double_writes
            or any(c.problems for c in self.contests)
        )

    # -- rows
    def rows(self) -> list[tuple[str, str]]:
        kill_points = " + ".join(f"{t.kill_points}" for t in self.tallies)
        kills = sum(t.sweep_kills for t in self.tallies)
        if all(t.full_sweep for t in self.tallies):
            points = f"{kill_points} durable steps × 1 kill each ({kills} kills)"
        else:
            points = f"{kills} kills at chosen durable steps (--quick)"
        randoms = sum(t.random_kills for t in self.tallies)
        late = sum(t.finished_first for t in self.tallies)
        runs = sum(c.runs for c in self.contests)
        proceeded = sum(c.proceeded for c in self.contests)
        locked = sum(c.locked_out for c in self.contests)
        bombs = [o for o in self.outcomes if "bomb" in o.name and o.peak_rss]
        rows = [
            ("fault cases tried", str(len(self.outcomes))),
            ("handled (exit code, message, corpus, no traceback)",
             str(sum(o.handled for o in self.outcomes))),
            ("crashes (tracebacks, unexpected exit codes)", str(self.crashes)),
            ("killed runs whose parse worker printed a traceback", str(self.kill_tracebacks)),
            ("hangs", str(self.hangs)),
            (
                "kill points × iterations",
                f"{points} + {randoms} random SIGKILLs ({late} after the run had ended)",
            ),
            ("workloads killed", "; ".join(t.workload for t in self.tallies)),
            ("corrupt states", str(self.corrupt)),
            ("leftover files", str(self.leftovers)),
            (
                "files touched outside what each command may write (user files, registries, "
                "exports, site folders, kills during --fix and export)",
                str(self.touched),
            ),
            ("processes outliving their run", str(self.orphans)),
            (
                "concurrent runs and double writes",
                f"{runs} runs in {len(self.contests)} variants: {proceeded} proceeded, "
                f"{locked} exited 75; {self.double_writes} double writes",
            ),
        ]  # fmt: skip
        if bombs:
            rows.append(
                (
                    "peak memory of a process under a bomb",
                    ", ".join(f"{o.name} {o.peak_rss // MiB} MiB" for o in bombs)
                    + " (limit 512 MiB)",
                )
            )
        rows.append(("wall time", f"{self.seconds / 60:.1f} min"))
        return rows

    def not_handled(self) -> list[str]:
        lines = [
            f"{o.name} ({o.title}): " + "; ".join(o.problems)
            for o in self.outcomes
            if not o.handled
        ]
        for tally in self.tallies:
            lines += tally.corrupt + tally.leftovers + tally.crashes
            if tally.kill_tracebacks:
                lines.append(
                    f"{tally.workload}: {len(tally.kill_tracebacks)} killed runs printed a "
                    f"traceback, e.g. {tally.kill_tracebacks[0]}"
                )
        for contest in self.contests:
            lines += [f"{contest.variant}: {p}" for p in contest.problems]
        return lines

    # -- output
    def print(self, console: Console) -> None:
        table = Table(title="rulescorpus fault campaign")
        table.add_column("what")
        table.add_column("measured")
        for what, value in self.rows():
            table.add_row(what, value)
        console.print(table)
        problems = self.not_handled()
        if problems:
            console.print(f"[bold red]{len(problems)} problems:[/]")
            for line in problems:
                console.print(f"  - {line}", markup=False)
        console.print("verdict: " + ("FAILED" if self.failed else "passed"))

    # The Markdown is written by `python -m tests.faults` only, where `tests` is a package;
    # pytest imports this folder as `faults`, beside no `tests`.
    def markdown(self) -> str:
        from tests.support.measured import markdown_table

        verdict = "FAILED" if self.failed else "passed"
        problems = "".join(f"- {line}\n" for line in self.not_handled())
        table = markdown_table(("what", "measured"), self.rows())
        return f"Verdict: **{verdict}**.\n\n{problems and problems + chr(10)}{table}"

    def cases_markdown(self) -> str:
        from tests.support.measured import markdown_table

        rows = [
            (
                f"`{o.name}`",
                o.title,
                "/".join(map(str, o.expected)),
                str(o.got),
                "yes" if o.handled else "**no**: " + "; ".join(o.problems)[:160],
            )
            for o in self.outcomes
        ]
        headers = ("case", "misbehaviour", "expected", "got", "handled")
        return (
            "<details><summary>Every case, its expected and actual exit code</summary>\n\n"
            + markdown_table(headers, rows)
            + "\n</details>\n"
        )
