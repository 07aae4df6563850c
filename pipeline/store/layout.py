"""Every path inside a corpus folder, and nothing else: the one module that knows the layout.

Every file but `index.json` and its copy `lock.json` is immutable: its name ends
in the first 12 hex digits of its own SHA-256, so the same name always means the
same bytes, a new rendition or a re-parse makes a new file, and nothing is ever
overwritten in place. `index.json` is the one commit point: a file the index does
not name is not part of the corpus (an interrupted commit's leftovers, removed
by the next run).

    index.json                                   documents, versions, pins, fetch records
    lock.json                                    a copy of the index's pins, for tools
    fetch/<source>.<h>.json                      the last fetch record of each source
    <game>/<doc>/<version>.<h>.json              one Document per version
    <game>/<doc>/provenance/<version>.<h>.json   how that version's bytes were obtained
    <game>/<doc>/ids/<version>.<h>.json          where each record sits in the version file
    <game>/<doc>/aliases/<version>.<h>.json      old citation id -> id in that version
    <game>/<doc>/diffs/<old>..<new>.<h>.json|md|html   the diff between two versions
    <game>/<doc>/diffs/<old>..<new>.renumbering.<h>.json   its renumbering map
    staged/<game>/<doc>/...                      the same, for versions awaiting `accept`
"""

from __future__ import annotations

import re

from pipeline.errors import UnsafeName
from pipeline.models.path_parts import document_problem, part_problem

INDEX = "index.json"
LOCK = "lock.json"
RUN_LOCK = ".lock"
TEMP_PREFIX = ".tmp-"
DIGEST_CHARS = 12
# A name this module made: <stem>.<12 hex digits>.<json|md|html>.
MANAGED_RE = re.compile(r"\.[0-9a-f]{12}\.(?:json|md|html)$")


def _safe(what: str, value: str, problem: str | None) -> str:
    """`value` when it can be part of a path; refused before any file is named with it."""
    if problem is not None:
        raise UnsafeName(what, value, problem)
    return value


def safe_version(version: str) -> str:
    return _safe("version", version, part_problem(version, "version"))


def document_dir(document: str, *, staged: bool = False) -> str:
    base = _safe("document id", document, document_problem(document))
    return f"staged/{base}" if staged else base


def _addressed(stem: str, digest: str, suffix: str) -> str:
    return f"{stem}.{digest[:DIGEST_CHARS]}.{suffix}"


def version_file(document: str, version: str, digest: str, *, staged: bool = False) -> str:
    folder = document_dir(document, staged=staged)
    return _addressed(f"{folder}/{safe_version(version)}", digest, "json")


def provenance_file(document: str, version: str, digest: str, *, staged: bool = False) -> str:
    folder = document_dir(document, staged=staged)
    return _addressed(f"{folder}/provenance/{safe_version(version)}", digest, "json")


def ids_file(document: str, version: str, digest: str, *, staged: bool = False) -> str:
    folder = document_dir(document, staged=staged)
    return _addressed(f"{folder}/ids/{safe_version(version)}", digest, "json")


def aliases_file(document: str, version: str, digest: str) -> str:
    return _addressed(f"{document_dir(document)}/aliases/{safe_version(version)}", digest, "json")


def diff_file(document: str, old: str, new: str, suffix: str, digest: str) -> str:
    """suffix: json, md or html."""
    pair = f"{safe_version(old)}..{safe_version(new)}"
    return _addressed(f"{document_dir(document)}/diffs/{pair}", digest, suffix)


def renumbering_file(document: str, old: str, new: str, digest: str) -> str:
    """The renumbering map stored beside the diff of the same two versions."""
    pair = f"{safe_version(old)}..{safe_version(new)}"
    return _addressed(f"{document_dir(document)}/diffs/{pair}.renumbering", digest, "json")


def fetch_file(source_id: str, digest: str) -> str:
    source = _safe("source id", source_id, part_problem(source_id, "source id"))
    return _addressed(f"fetch/{source}", digest, "json")


def is_managed(relative: str) -> bool:
    """True for a content-addressed file of this layout (the ones recovery may remove)."""
    return MANAGED_RE.search(relative) is not None


def digest_in_name(relative: str) -> str | None:
    """The digest prefix a managed name carries, to check the bytes without the index."""
    match = re.search(r"\.([0-9a-f]{12})\.(?:json|md|html)$", relative)
    return match.group(1) if match else None
