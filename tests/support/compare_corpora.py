"""Compare two corpora version by version: every difference but the listed contract changes.

    python tests/support/compare_corpora.py OLD_CORPUS NEW_CORPUS

Each version OLD's index.json lists is read beside the same document and version
in NEW (found through NEW's index.json; file names may differ); versions only NEW
stores are listed, not compared. The contract changes of schema version 2
(CHANGELOG.md) are allowed:

- `schema_version` is new; `parser.version` is bumped;
- `depth` counts from 1 (checked: 1 without a parent, 1 + the parent's otherwise);
- count keys: `glossary_terms` is `glossary`; every numbered document counts
  `glossary` and `examples`;
- warning codes renamed (RENAMED below), their messages reworded;
- `extraction` notes kept for every family (new keys only);
- fields added since (e.g. a record's `key`) at their empty default;
- errata keyed by version: a reviewed defect no longer applied to a version it
  was not reviewed for shows up as a `dangling-reference` warning instead.

Anything else is printed, one line per difference (at most 20 per version), and
the exit code is 1. The output is not committed anywhere.
"""

from __future__ import annotations

import copy
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

RENAMED = {
    "version-missing": "no-version",
    "no-effective-date": "no-version",
    "unplaced-line": "unplaced-text",
    "duplicate-number": "duplicate-id",
    "misplaced-section": "misplaced",
    "misplaced-rule": "misplaced",
    "out-of-chapter": "misplaced",
    "glossary-entry": "empty-definition",
}
COUNT_RENAMED = {"glossary_terms": "glossary"}
COUNTS_ADDED = {"glossary", "examples"}
# A field added since, at its empty default, is no difference.
EMPTY: tuple[object, ...] = (None, [], {})


def version_files(root: Path) -> dict[str, Path]:
    """Stored version JSONs by `document/version`, as the corpus's index.json lists them."""
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))
    return {
        f"{document}/{entry['version']}": root / entry["file"]
        for document, item in sorted(index["documents"].items())
        for entry in item["versions"]
    }


def _check_depths(doc: dict[str, Any], where: str) -> list[str]:
    depth: dict[str, int] = {}
    problems = []
    for record in doc.get("records", []):
        parent = record.get("parent")
        want = 1 if parent is None else depth.get(parent, 0) + 1
        if record["depth"] != want:
            problems.append(
                f"{where}: {record['id']} depth {record['depth']}, contract says {want}"
            )
        depth[record["id"]] = record["depth"]
    return problems


def _warnings(doc: dict[str, Any]) -> Counter[tuple[str, str, str]]:
    out: Counter[tuple[str, str, str]] = Counter()
    for w in doc.get("warnings", []):
        code = RENAMED.get(w["code"], w["code"])
        message = "" if code != w["code"] or code in RENAMED.values() else w["message"]
        out[(code, message, json.dumps(w.get("location"), sort_keys=True))] += 1
    return out


def compare_documents(old: dict[str, Any], new: dict[str, Any], where: str) -> list[str]:
    """Differences between two stored versions beyond the contract changes."""
    problems = _check_depths(new, where)
    old, new = copy.deepcopy(old), copy.deepcopy(new)
    if "schema_version" not in old:  # new in schema 2; between two later corpora it is compared
        new.pop("schema_version", None)
    for doc in (old, new):
        doc["parser"] = {**doc["parser"], "version": "*"}
        for record in doc.get("records", []):
            record.pop("depth", None)
    old_counts = {COUNT_RENAMED.get(k, k): v for k, v in old.pop("counts", {}).items()}
    new_counts = dict(new.pop("counts", {}))
    for key in sorted(set(old_counts) | set(new_counts)):
        if key in old_counts and old_counts[key] != new_counts.get(key):
            problems.append(f"{where}: counts[{key}] {old_counts[key]} -> {new_counts.get(key)}")
        if key not in old_counts and key not in COUNTS_ADDED:
            problems.append(f"{where}: counts[{key}] is new ({new_counts[key]})")
    old_notes, new_notes = old.pop("extraction", {}), new.pop("extraction", {})
    for key, value in old_notes.items():
        if new_notes.get(key) != value:
            problems.append(f"{where}: extraction[{key}] {value} -> {new_notes.get(key)}")
    old_errata = {(e["record"], e["cites"]) for e in old.pop("publisher_errata", [])}
    new_errata = {(e["record"], e["cites"]) for e in new.pop("publisher_errata", [])}
    old_warnings, new_warnings = _warnings(old), _warnings(new)
    old.pop("warnings", None)
    new.pop("warnings", None)
    for record, cites in sorted(old_errata - new_errata):
        key = next((k for k in new_warnings if k[0] == "dangling-reference"
                    and k[1].startswith(f"{record} cites {cites},")), None)  # fmt: skip
        if key is None:
            problems.append(f"{where}: erratum {record} -> {cites} is gone")
        else:
            new_warnings[key] -= 1
    for record, cites in sorted(new_errata - old_errata):
        problems.append(f"{where}: erratum {record} -> {cites} is new")
    for key, n in sorted((old_warnings - new_warnings).items()):
        problems.append(f"{where}: warning {key[0]} {key[1][:80]!r} at {key[2]} gone ({n})")
    for key, n in sorted((new_warnings - old_warnings).items()):
        problems.append(f"{where}: warning {key[0]} {key[1][:80]!r} at {key[2]} new ({n})")
    problems += _diff_values(old, new, where)
    return problems


def _diff_values(old: Any, new: Any, where: str, limit: int = 20) -> list[str]:
    """Leaf differences, records matched by id."""
    out: list[str] = []

    def walk(a: Any, b: Any, path: str) -> None:
        if len(out) >= limit or a == b or (a == "<absent>" and b in EMPTY):
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(a.get(key, "<absent>"), b.get(key, "<absent>"), f"{path}.{key}")
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for index, (x, y) in enumerate(zip(a, b, strict=True)):
                label = x.get("id", index) if isinstance(x, dict) else index
                walk(x, y, f"{path}[{label}]")
        else:
            out.append(f"{where}: {path}: {json.dumps(a)[:150]} -> {json.dumps(b)[:150]}")

    walk(old, new, "")
    return out


def compare_corpora(old_root: Path, new_root: Path) -> tuple[list[str], list[str]]:
    """Differences beyond the contract changes; and the versions only NEW stores (documents
    added since, not compared)."""
    old_files, new_files = version_files(old_root), version_files(new_root)
    problems = [
        f"{name}: stored before, missing now" for name in sorted(set(old_files) - set(new_files))
    ]
    for name in sorted(set(old_files) & set(new_files)):
        old = json.loads(old_files[name].read_text(encoding="utf-8"))
        new = json.loads(new_files[name].read_text(encoding="utf-8"))
        problems += compare_documents(old, new, name)
    return problems, sorted(set(new_files) - set(old_files))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    old_root, new_root = Path(argv[0]), Path(argv[1])
    problems, added = compare_corpora(old_root, new_root)
    compared = len(set(version_files(old_root)) & set(version_files(new_root)))
    for line in problems:
        print(line)
    if added:
        print(f"{len(added)} versions stored only in {new_root} (not compared): {', '.join(added)}")
    print(f"{compared} versions compared; {len(problems)} differences beyond the contract changes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
