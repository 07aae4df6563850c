"""The registry of real sources (`sources.toml`, packaged; `--sources FILE` overrides it)."""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import Collection
from importlib import resources
from urllib.parse import urlsplit

from pydantic import ValidationError

from pipeline.errors import RegistryError, UsageError
from pipeline.models.path_parts import (
    document_problem,
    game_problem,
    part_problem,
    prefix_problem,
)
from pipeline.models.scheme import pattern_problem
from pipeline.models.sources import Source
from pipeline.registry.patterns import backtracking_problem

PACKAGED = "sources.toml"


def load_registry(families: Collection[str] | None = None) -> list[Source]:
    """The packaged registry, validated. A user's registry (`--sources FILE`) is read by
    the jobs' one reader of input files and given to `parse_registry`.

    `families` are the family names the caller can parse (jobs passes its table's
    names; the registry cannot import jobs): a source naming another is an error."""
    name = f"pipeline/registry/{PACKAGED} (packaged)"
    text = resources.files("pipeline.registry").joinpath(PACKAGED).read_text(encoding="utf-8")
    # The packaged registry's patterns are the project's own, probed by its tests; a user's
    # are probed at every load.
    return parse_registry(text, name, families, probe=False)


def parse_registry(
    text: str,
    name: str = "<registry>",
    families: Collection[str] | None = None,
    *,
    probe: bool = True,
) -> list[Source]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(name, f"not valid TOML: {exc}") from exc
    entries = data.get("source")
    if not isinstance(entries, list) or not entries:
        raise RegistryError(name, "no [[source]] tables")
    sources: list[Source] = []
    for index, entry in enumerate(entries, start=1):
        label = entry.get("id", f"#{index}") if isinstance(entry, dict) else f"#{index}"
        try:
            source = Source.model_validate(entry)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg'].removeprefix('Value error, ')}"
                for e in exc.errors()
            )
            raise RegistryError(name, f"source {label}: {problems}") from exc
        if (
            source.url is None
            and source.discovery is None
            and not source.options.get("archive_only")
        ):
            raise RegistryError(name, f"source {label}: needs a url or a discovery rule")
        if families is not None and source.family not in families:
            known = ", ".join(sorted(families))
            raise RegistryError(
                name, f"source {label}: unknown family {source.family!r} (known: {known})"
            )
        if (source.family == "numbered") != (source.scheme is not None):
            raise RegistryError(
                name, f"source {label}: family `numbered` and a [source.scheme] go together"
            )
        if source.url is not None and not _secure(source.url):
            raise RegistryError(name, f"source {label}: url must be https ({source.url})")
        problem = _names_problem(source) or _patterns_problem(source)
        if problem is not None:
            raise RegistryError(name, f"source {label}: {problem}")
        sources.append(source)
    _check_unique(sources, name)
    if probe:
        for source in sources:
            patterns = _patterns(source)
            problem = backtracking_problem(list(patterns.values()))
            if problem is not None:
                key = next((f"{k}: " for k, p in patterns.items() if repr(p) in problem), "")
                raise RegistryError(name, f"source {source.id}: {key}{problem}")
    return sources


def _names_problem(source: Source) -> str | None:
    """Ids that become corpus paths or citation prefixes must be safe names."""
    checks = [
        ("id", part_problem(source.id, "source id")),
        ("game", game_problem(source.game)),
        ("document", document_problem(source.document)),
    ]
    if "prefix" in source.options:
        checks.append(("options.prefix", prefix_problem(source.options["prefix"])))
    if source.manifest is not None:
        checks += [
            (f"manifest.version_map[{key!r}]", part_problem(version, "version"))
            for key, version in source.manifest.version_map.items()
        ]
    return next((f"{field}: {problem}" for field, problem in checks if problem), None)


def _patterns(source: Source) -> dict[str, str]:
    """Each regex of the entry, by the field that holds it."""
    found = {"discovery.link_pattern": source.discovery.link_pattern} if source.discovery else {}
    if source.manifest is not None:
        if source.manifest.path_pattern:
            found["manifest.path_pattern"] = source.manifest.path_pattern
        for n, side in enumerate(source.manifest.side_files, 1):
            found[f"manifest.side_files[{n}].path_pattern"] = side.path_pattern
    if source.scheme is not None:
        found["scheme.version_pattern"] = source.scheme.version_pattern
    return found


def _patterns_problem(source: Source) -> str | None:
    # The scheme's version_pattern is checked by its model (models.scheme).
    for field, pattern in _patterns(source).items():
        if field == "scheme.version_pattern":
            continue
        problem = pattern_problem(pattern)
        if problem is not None:
            return f"{field} {pattern!r}: {problem}"
    return None


def _secure(url: str) -> bool:
    """https, or plain http to this machine only (test servers and local mirrors)."""
    if url.startswith("https://"):
        return True
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:  # `http://[source`: not a URL at all, so not a secure one
        return False
    return url.startswith("http://") and host in ("127.0.0.1", "localhost", "::1")


def _check_unique(sources: list[Source], name: str) -> None:
    seen: set[str] = set()
    primaries: dict[str, int] = defaultdict(int)
    for source in sources:
        if source.id in seen:
            raise RegistryError(name, f"source id {source.id} appears twice")
        seen.add(source.id)
        if source.primary:
            primaries[source.document] += 1
    for document in {s.document for s in sources}:
        if primaries[document] != 1:
            raise RegistryError(
                name,
                f"document {document} needs exactly one primary rendition, has "
                f"{primaries[document]}",
            )


def select_sources(sources: list[Source], wanted: list[str]) -> list[Source]:
    """Sources by id, or every source of a named document; all of them when none is named."""
    if not wanted:
        return list(sources)
    chosen: list[Source] = []
    for name in wanted:
        matches = [s for s in sources if name in (s.id, s.document, s.game)]
        if not matches:
            known = ", ".join(s.id for s in sources)
            raise UsageError(f"unknown source {name!r}; the registry has: {known}")
        chosen.extend(m for m in matches if m not in chosen)
    return chosen


def documents_of(sources: list[Source]) -> dict[str, list[Source]]:
    """Sources grouped by document, primary rendition first, in registry order."""
    grouped: dict[str, list[Source]] = {}
    for source in sources:
        grouped.setdefault(source.document, []).append(source)
    return {doc: sorted(group, key=lambda s: not s.primary) for doc, group in grouped.items()}
