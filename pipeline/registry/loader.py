"""The registry of real sources (`sources.toml`, packaged; `--sources FILE` overrides it)."""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import Collection
from importlib import resources

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from pipeline.errors import RegistryError, UsageError
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
            source = Source.model_validate(entry, context={"families": families})
        except ValidationError as exc:
            raise RegistryError(name, f"source {label}: {_problems(exc)}") from exc
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


def _problems(exc: ValidationError) -> str:
    """The model's refusals, each after the key it refused (none for the whole entry)."""

    def one(error: ErrorDetails) -> str:
        key = ".".join(str(part) for part in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        return f"{key}: {message}" if key else message

    return "; ".join(one(error) for error in exc.errors())


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
