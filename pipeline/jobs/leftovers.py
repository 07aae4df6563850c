"""What an import did not take, and why: nothing an archive holds goes unexplained.

A file no source takes is one of three things: a side file the registry names
(metadata such as a vendoring log or a version map, with the maintainer's
reason), a copy whose exact bytes are already inside an archive the import took
(a single ruling file beside the tarball that holds it, proven by SHA-256), or
a file nothing accounts for, which is reported as skipped for a person to look at.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from pathlib import Path

from pipeline.errors import NothingMatched, RulesCorpusError
from pipeline.extract.tarball import read_tar_members
from pipeline.fetch.manifest import ManifestEntry, read_checked
from pipeline.models.outcomes import Outcome
from pipeline.models.sources import Source
from pipeline.registry.patterns import use_budget

Member = tuple[Source, list[ManifestEntry]]


def side_file_reason(sources: list[Source], entry: ManifestEntry) -> str | None:
    for source in sources:
        key = source.manifest
        if key is None or (key.game, key.document) != (entry.game, entry.document):
            continue
        for n, side in enumerate(key.side_files, 1):
            with use_budget(source.id, f"manifest.side_files[{n}].path_pattern", side.path_pattern):
                if re.search(side.path_pattern, entry.path):
                    return side.reason
    return None


def archived_members(
    groups: list[tuple[tuple[str, str], list[Member]]], root: Path
) -> dict[str, str]:
    """SHA-256 of every member of every tarball the import took -> 'tarball:member'."""
    found: dict[str, str] = {}
    for _group, members in groups:
        for source, files in members:
            for entry in files:
                if entry.format != "tar.gz":
                    continue
                try:
                    data = read_checked(source, entry, root)
                    inside = read_tar_members(data, what=entry.path)
                except RulesCorpusError:
                    continue  # the import itself reports what is wrong with it
                name = entry.path.rsplit("/", 1)[-1]
                for member, content in inside.items():
                    found.setdefault(hashlib.sha256(content).hexdigest(), f"{name}:{member}")
    return found


def report_leftovers(
    sources: list[Source],
    rest: list[ManifestEntry],
    groups: list[tuple[tuple[str, str], list[Member]]],
    root: Path,
) -> list[Outcome]:
    """One outcome per kind of leftover and document: side files, copies, skipped."""
    copies = archived_members(groups, root) if rest else {}
    kinds: dict[tuple[str, str], list[str]] = defaultdict(list)
    for entry in rest:
        name = "/".join(entry.path.split("/")[-2:])  # enough to tell index.html pages apart
        document = f"{entry.game}/{entry.document}"
        reason = side_file_reason(sources, entry)
        if reason is not None:
            kinds[(document, "side-file")].append(f"{name} ({reason})")
        elif entry.sha256 in copies:
            kinds[(document, "copy")].append(f"{name} (the same bytes as {copies[entry.sha256]})")
        else:
            kinds[(document, "skipped")].append(f"{name} ({entry.format})")
    intro = {
        "side-file": "not a document, as the registry notes",
        "copy": "already taken: the same bytes are inside an archive of the same folder",
        "skipped": "no registry source takes these files",
    }
    return [
        Outcome(
            document=document,
            outcome=kind,
            message=f"{len(names)} file(s) {intro[kind]}: " + "; ".join(sorted(names)),
        )
        for (document, kind), names in sorted(kinds.items())
    ]


def check_something_taken(
    sources: list[Source], entries: list[ManifestEntry], taken: bool, where: str
) -> None:
    """Refuse an archive or mirror with files none of which `sources` takes (NothingMatched):
    the run would store nothing and say 0."""
    if taken or not entries:
        return
    files = [f"{e.path} ({e.game}/{e.document}, {e.format})" for e in entries]
    tried = [
        f"{s.id} ({s.manifest.game}/{s.manifest.document}, {s.manifest.format})"
        if s.manifest is not None
        else f"{s.id} (by its url only)"
        for s in sources
    ]
    raise NothingMatched(where, files, tried)
