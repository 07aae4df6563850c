"""`cite-check --fix`: plan every rewrite first, then write each file so that nothing but
its renumbered citations changes, and say per file what happened.

A file is written through a temporary file created exclusively and never through a link
in its own folder (`store.temp_files`), given the file's mode and owner, and renamed over
it; a symlink given is written through to its target. A file is left as it is, and
reported, when it changed since it was checked (its bytes are compared again just before
the rename), when it is read-only for the user, when its owner cannot be kept, or when it
has other hard links (a rename would cut them off; `--break-hard-links` writes it anyway).
"""

from __future__ import annotations

import difflib
import errno
import os
import stat
from dataclasses import dataclass, field
from typing import Literal

from pipeline.cite.files import Protected, TextFile, read_bytes, shown
from pipeline.store.temp_files import temp_beside

FixState = Literal["changed", "skipped", "failed"]


@dataclass
class FileFix:
    """One file's planned rewrite: its text as checked and as it will be."""

    file: TextFile
    after: str
    fixed: list[object]  # the citations it rewrites (cite_check.Cited)
    # Where it may not be written (the check's corpus, cache, environments): a link is
    # resolved again just before the write, and a target there is skipped.
    guard: Protected = field(default_factory=lambda: Protected({}))
    written: bool = False  # set once the rewrite is in place

    @property
    def path(self) -> str:
        return str(self.file.path)

    def unified_diff(self) -> str:
        named = self.path if self.path.startswith("/") else None
        return "".join(
            difflib.unified_diff(
                self.file.text.splitlines(keepends=True),
                self.after.splitlines(keepends=True),
                fromfile=named or f"a/{self.path}",
                tofile=named or f"b/{self.path}",
            )
        )


@dataclass(frozen=True)
class FixResult:
    path: str
    state: FixState
    fixed: int
    reason: str = ""

    def line(self) -> str:
        if self.state == "changed":
            return f"fixed {self.fixed} citations in {shown(self.path)}"
        return f"{self.state} {shown(self.path)}: {self.reason}; the file is unchanged"


def write_fixes(fixes: list[FileFix], *, break_hard_links: bool = False) -> list[FixResult]:
    """Write every planned fix that can be written safely; one result per file, in order.
    A file that cannot be written never stops the others."""
    results = []
    for fix in fixes:
        result = _write_one(fix, break_hard_links)
        fix.written = result.state == "changed"
        results.append(result)
    return results


def _write_one(fix: FileFix, break_hard_links: bool) -> FixResult:
    def result(state: FixState, reason: str = "") -> FixResult:
        return FixResult(fix.path, state, len(fix.fixed) if state == "changed" else 0, reason)

    target = fix.file.path.resolve()  # a symlink is written through to the file it names
    reason = fix.guard.reason(target)
    if reason is not None:
        return result("skipped", f"it is inside {reason}")
    try:
        info = os.stat(target)
    except OSError as exc:
        return result("failed", f"cannot read it ({exc.strerror})")
    if not stat.S_ISREG(info.st_mode):
        return result("skipped", "no longer a regular file")
    if info.st_nlink > 1 and not break_hard_links:
        return result(
            "skipped",
            f"it has {info.st_nlink} hard links, which a rewrite would cut off "
            "(--break-hard-links writes it anyway)",
        )
    # By its mode, not only by access(): a superuser may write anything, but a file made
    # read-only was made so to be left alone.
    if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
        return result("skipped", "it is read-only")
    after = fix.file.encode(fix.after)
    try:
        with temp_beside(target, ".cite-check") as temp:
            try:
                temp.write(after)
                os.fchmod(temp.fd, stat.S_IMODE(info.st_mode))
                if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
                    os.fchown(temp.fd, info.st_uid, info.st_gid)
                os.fsync(temp.fd)
                if read_bytes(target) != fix.file.data:
                    return result("skipped", "it changed since it was checked; check it again")
                temp.replace()
            except OSError as exc:
                what = "keep its owner" if exc.errno == errno.EPERM else "write it"
                return result("failed", f"cannot {what} ({exc.strerror or exc})")
    except OSError as exc:
        return result("failed", f"cannot create a file in its folder ({exc.strerror})")
    return result("changed")


def partial(results: list[FixResult]) -> bool:
    """True when some planned fix was not written."""
    return any(r.state != "changed" for r in results)
