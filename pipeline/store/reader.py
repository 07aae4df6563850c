"""The one reader of a corpus folder: index.json (parsed here and nowhere else), each
version's id index, and only the bytes of the records asked for, each checked against its
SHA-256. The json module alone.

Everything that reads a corpus reads through it: the read side (`corpus/`: show, history,
follow, lineages, search, the typed `CorpusReader`) and the write side (`store.corpus`,
whose transactions read the versions they diff through it, over the files they have not
committed yet). No pydantic, no models, no whole-document validation, so `show` answers in
the time Python takes to start and a history over a hundred versions costs what each
version's id index and renumbering map cost, never what the documents cost. A version
stored before id indexes existed is read whole with the json module.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pipeline.errors import NotFound, StoreError
from pipeline.store.ids import KEYS, children_in, fits, read_span, record_digests, records_by_id
from pipeline.store.layout import INDEX, digest_in_name


def read_checked(root: Path, relative: str, expected_sha256: str | None = None) -> bytes:
    """A file the index names; its bytes are checked against the digest in its name (and
    against `expected_sha256` when given), so a corrupted file is never read as data."""
    path = root / relative
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise StoreError(
            f"{path} is listed in index.json but missing; run `rulescorpus verify` and "
            "re-import the document"
        ) from exc
    got = hashlib.sha256(data).hexdigest()
    named = digest_in_name(relative)
    if (expected_sha256 is not None and got != expected_sha256) or (
        named is not None and not got.startswith(named)
    ):
        raise StoreError(
            f"{path} changed since it was stored: index.json says "
            f"{expected_sha256 or named}, the file hashes to {got}; restore it from a "
            "backup or re-import the document"
        )
    return data


class StoredVersion:
    """One stored version's records by id: a record's bytes are read when asked for."""

    def __init__(self, corpus: StoredCorpus, document: str, item: dict[str, Any]) -> None:
        self.corpus, self.document, self.item = corpus, document, item
        self.version: str = item["version"]
        self._index: dict[str, Any] | None = None
        self._whole: dict[str, Any] | None = None

    def _ids(self) -> dict[str, Any] | None:
        """The id index, or None when the version must be read whole."""
        if self._index is None and self._whole is None:
            name = self.item.get("ids")
            index = json.loads(self.corpus.read(name)) if name else None
            if fits(index, self.item["file"], self.item["sha256"]):
                self._index = index
            else:  # stored before id indexes, or an index of other bytes
                self._whole = json.loads(self.corpus.read(self.item["file"], self.item["sha256"]))
        return self._index

    @property
    def head(self) -> dict[str, Any]:
        """The document-level fields (title, version, source, renditions, parser)."""
        index = self._ids()
        return index["head"] if index is not None else self._whole or {}

    def ids(self) -> list[str]:
        """Every citable id (rules, glossary terms, rulings), in file order."""
        index = self._ids()
        if index is not None:
            return [i for i, _ in sorted(index["ids"].items(), key=lambda kv: kv[1][1])]
        return list(records_by_id(self._whole or {}))

    def kind(self, citation: str) -> str | None:
        """The list holding the id (`records`, `glossary` or `rulings`), or None."""
        index = self._ids()
        if index is not None:
            entry = index["ids"].get(citation)
            return str(entry[0]) if entry else None
        found = records_by_id(self._whole or {}).get(citation)
        return found[0] if found else None

    def has(self, citation: str) -> bool:
        index = self._ids()
        if index is not None:
            return citation in index["ids"]
        return citation in records_by_id(self._whole or {})

    def records(self, wanted: list[str]) -> list[dict[str, Any]]:
        """The asked records' JSON (ids this version lacks are left out), each read from
        its own bytes and checked against the digest the id index recorded."""
        index = self._ids()
        if index is None:
            table = records_by_id(self._whole or {})
            return [table[i][1] for i in wanted if i in table]
        present = [i for i in wanted if i in index["ids"]]
        found: list[dict[str, Any]] = []
        with (self.corpus.root / self.item["file"]).open("rb") as handle:
            for ident in present:
                record = read_span(handle, ident, index["ids"][ident])
                if record is None:
                    raise StoreError(
                        f"{self.item['file']} does not hold the bytes its id index names "
                        f"for {ident}; run `rulescorpus verify`"
                    )
                found.append(record)
        return found

    def record(self, citation: str) -> dict[str, Any] | None:
        found = self.records([citation])
        return found[0] if found else None

    def children(self, citation: str) -> list[dict[str, Any]]:
        """The rules whose parent is `citation`, in document order."""
        index = self._ids()
        if index is not None:
            return self.records(children_in(index, citation))
        rules = (self._whole or {}).get("records") or []
        return [r for r in rules if r.get("parent") == citation]

    def read_whole(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The version file decoded whole, read afresh and kept nowhere (an export walks
        every version once), and the SHA-256 of each record's own canonical JSON read off
        its span, for the ids the id index gives that the version holds once."""
        raw = self.corpus.read(self.item["file"], self.item["sha256"])
        data: dict[str, Any] = json.loads(raw)
        name = self.item.get("ids")
        index = json.loads(self.corpus.read(name)) if name else None
        if index is None or not fits(index, self.item["file"], self.item["sha256"]):
            return data, {}
        counts = Counter(r["id"] for key in KEYS for r in data.get(key) or [])
        spans = record_digests(raw, index)
        return data, {k: v for k, v in spans.items() if counts[k] == 1}

    def whole(self) -> dict[str, Any]:
        """The version file decoded whole (search reads every record's text)."""
        if self._whole is None:
            self._whole = json.loads(self.corpus.read(self.item["file"], self.item["sha256"]))
        return self._whole


def read_index(root: Path, expected_format: int | None = None) -> dict[str, Any] | None:
    """The folder's index.json decoded, or None when it has none; `expected_format`, when
    given, is the one format this build reads."""
    path = root / INDEX
    if not path.is_file():
        return None
    try:
        index = json.loads(path.read_bytes())
        if not isinstance(index, dict):
            raise ValueError("not a JSON object")
    except ValueError as exc:
        raise StoreError(
            f"{path} is not a valid index: {exc}; restore it from a backup or re-import"
        ) from exc
    if expected_format is not None and (found := index.get("format")) != expected_format:
        raise StoreError(
            f"{path} has format {found}, this rulescorpus reads {expected_format}; "
            "rebuild the corpus with `rulescorpus import`"
        )
    return index


class StoredCorpus:
    """A corpus folder's index.json and the files it names, read with json.

    `index` and `pending` read the corpus as a transaction will leave it: its index, and
    the files it has written but not committed, before the stored ones."""

    def __init__(
        self,
        root: Path | str,
        *,
        expected_format: int | None = None,
        index: dict[str, Any] | None = None,
        pending: Mapping[str, bytes] | None = None,
    ) -> None:
        self.root = Path(root)
        found = index if index is not None else read_index(self.root, expected_format)
        if found is None:
            raise NotFound(
                f"a corpus at {self.root}",
                "the folder has no index.json; run `rulescorpus import` or `update` first",
            )
        self.index: dict[str, Any] = found
        self.pending = pending or {}
        self._versions: dict[tuple[str, str], StoredVersion] = {}
        self._json: dict[str, Any] = {}

    def read(self, relative: str, sha256: str | None = None) -> bytes:
        if relative in self.pending:
            return self.pending[relative]
        return read_checked(self.root, relative, sha256)

    def read_json(self, relative: str) -> Any:
        """A small corpus file (map, aliases, provenance) decoded once per reader."""
        if relative not in self._json:
            self._json[relative] = json.loads(self.read(relative))
        return self._json[relative]

    def documents(self) -> list[str]:
        return sorted(self.index.get("documents") or {})

    def entry(self, document: str) -> dict[str, Any]:
        entry = (self.index.get("documents") or {}).get(document)
        if entry is None:
            known = ", ".join(self.documents()) or "none yet"
            raise NotFound(f"document {document}", f"the corpus at {self.root} has: {known}")
        return dict(entry)

    def current(self, document: str) -> str | None:
        current: str | None = self.entry(document).get("current")
        return current

    def item(self, document: str, version: str | None = None) -> dict[str, Any]:
        entry = self.entry(document)
        wanted = version or entry.get("current")
        for item in entry.get("versions") or []:
            if item["version"] == wanted:
                return dict(item)
        known = ", ".join(v["version"] for v in entry.get("versions") or [])
        raise NotFound(f"version {wanted} of {document}", f"stored versions: {known}")

    def published(self, document: str) -> list[str]:
        """The published versions, oldest first, in the store's order."""
        return [
            v["version"]
            for v in self.entry(document).get("versions") or []
            if v.get("status", "published") == "published"
        ]

    def version(self, document: str, version: str | None = None) -> StoredVersion:
        item = self.item(document, version)
        key = (document, item["version"])
        if key not in self._versions:
            self._versions[key] = StoredVersion(self, document, item)
        return self._versions[key]

    def aliases(self, document: str, version: str) -> dict[str, str]:
        name = self.item(document, version).get("aliases")
        return dict(self.read_json(name)) if name else {}

    def provenance(self, document: str, version: str) -> dict[str, Any]:
        name = self.item(document, version).get("provenance")
        return dict(self.read_json(name)) if name else {}

    def diff_entry(self, document: str, old: str, new: str) -> dict[str, Any] | None:
        """The index's entry of the stored diff between two versions, if one was stored."""
        for stored in self.entry(document).get("diffs") or []:
            if (stored["old"], stored["new"]) == (old, new):
                return dict(stored)
        return None

    def stored_map(self, document: str, old: str, new: str) -> dict[str, Any] | None:
        """The renumbering map stored beside the diff of two versions (its JSON), if any."""
        stored = self.diff_entry(document, old, new)
        if stored is None or not stored.get("renumbering"):
            return None
        data: dict[str, Any] = self.read_json(stored["renumbering"])
        return data
