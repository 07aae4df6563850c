"""`nsg-yaml`: Null Signal Games' Comprehensive Rules from its YAML source -> records.

The tarball (read by pipeline.extract.yaml_bundle) holds one YAML file per chapter
with symbolic keys (`rule_player_definitions`, `sec_golden_rules`) and no printed
numbers: they are derived from position exactly as NSG's generator derives them
(pipeline.parse.nsg.tree). Records are `cr:1`, `cr:1.2`, `cr:1.2.3`, `cr:1.2.3a`
(kinds chapter, section, rule, subrule), each with its key; text is rendered as
the printed document shows it (pipeline.parse.nsg.markup), with references
resolved to record ids and card names kept in `cards`.

Version and dates come only from what the bundle states (pipeline.parse.nsg.release:
`config.yaml`, the generator's command line in a build workflow, the changelog, a tag's
archive folder), otherwise from the version the maintainer asserts (the registry entry's
`asserted_version`, which the jobs pass as `ParseOptions.version`), never a guess.
"""

from __future__ import annotations

from pipeline.models.content import YamlBundle, YamlFile
from pipeline.models.records import (
    Document,
    Erratum,
    Location,
    ParseOptions,
    ParserInfo,
    ParseWarning,
    PublisherChange,
    Rule,
)
from pipeline.parse.errata import known_source_defect
from pipeline.parse.nsg.checks import nsg_document
from pipeline.parse.nsg.checks import problem as warn
from pipeline.parse.nsg.markup import RefInfo, Rendered, fold_space, record_id, render
from pipeline.parse.nsg.release import read_release
from pipeline.parse.nsg.tree import Entry, Problem, build_tree

FAMILY = "nsg-yaml"
PARSER_VERSION = "1.0"
TITLE = "Netrunner Comprehensive Rules"  # the generator's page and PDF title


def parse(bundle: YamlBundle, notes: dict[str, int], options: ParseOptions) -> Document:
    """Records, changes, version and effective date of one bundle. Pure.

    `options.version` is the version the caller asserts (the registry's
    `asserted_version` for bytes from the pinned URL, or the archive manifest's): it is
    taken only when the bundle states none, and a different statement is a warning."""
    asserted = options.version
    tree = build_tree(bundle)
    refs = tree.ref_map()
    problems = list(tree.problems)
    records = [_record(entry, refs, problems) for entry in tree.entries]
    warnings: list[ParseWarning] = []
    release = read_release(bundle)
    warnings += release.warnings
    stated, effective, changelog = release.version, release.effective, release.changelog
    if stated and asserted and stated != asserted:
        message = f"the caller says version {asserted}, the bundle {stated}"
        warnings.append(warn("version-mismatch", message))
    if not stated and not asserted:
        message = "the bundle states no version or effective date (not in config.yaml, a build "
        message += "workflow, its changelog or a tag's folder name); the maintainer asserts it: "
        message += "asserted_version in the registry entry's options"
        warnings.append(warn("no-version", message))
    changes = _changes(changelog, refs, problems)
    errata, unreviewed = _review(problems, {e.key: record_id(e.number) for e in tree.entries})
    parser = ParserInfo(family=FAMILY, version=PARSER_VERSION)
    doc = nsg_document(
        options, parser, records, changes, warnings + unreviewed, notes, title=TITLE,
        version=stated or asserted, effective=effective, publisher_errata=errata,
    )  # fmt: skip
    doc.counts["highlighted"] = sum(1 for r in records if r.highlighted)
    return doc


def _record(entry: Entry, refs: dict[str, RefInfo], problems: list[Problem]) -> Rule:
    rendered: list[Rendered] = []

    def show(source: str | None) -> str:
        if source is None:
            return ""
        out = render(source, refs)
        rendered.append(out)
        problems.extend(Problem(c, entry.key, d, entry.line) for c, d in out.problems)
        problems.extend(
            Problem("dangling-reference", entry.key, f"{{ref:{k}}} names no entry", entry.line)
            for k in out.unknown_refs
        )
        return out.text

    if entry.kind == "chapter":
        title = fold_space(entry.title or "")  # printed as written: no markup in chapter titles
        text = ""
    elif entry.kind == "section" or entry.heading:
        title = show(entry.title if entry.kind == "section" else entry.text)
        text = show(entry.snippet)
    else:
        title = ""
        text = "\n".join(t for t in (show(entry.text), show(entry.snippet)) if t)
    if entry.kind != "chapter" and entry.text is None and entry.title is None:
        problems.append(Problem("bad-entry", entry.key, f"{entry.key} has no text", entry.line))
    examples = [show(e) for e in entry.examples]
    bullets = [f"{label} {show(source)}" for label, source in entry.bullets]
    ident = record_id(entry.number)
    return Rule(
        id=ident,
        number=entry.number,
        kind=entry.kind,
        parent=record_id(entry.parent.number) if entry.parent else None,
        depth=entry.depth,
        title=title or None,
        text=text,
        examples=[e for e in examples if e],
        bullets=bullets,
        references=[
            r for r in dict.fromkeys(x for out in rendered for x in out.references) if r != ident
        ],
        cards=list(dict.fromkeys(c for out in rendered for c in out.cards)),
        location=Location(line=entry.line),
        highlighted=entry.new or any(out.new_text for out in rendered),
        key=entry.key,
    )


def _changes(
    changelog: YamlFile | None, refs: dict[str, RefInfo], problems: list[Problem]
) -> list[PublisherChange]:
    if changelog is None:
        return []
    data = changelog.data
    items = data.get("changelog") if isinstance(data, dict) else None
    if not isinstance(items, list):
        problems.append(Problem("no-changelog", None, f"{changelog.path} has no changelog list"))
        return []
    changes = []
    for item in items:
        text = item.get("text") if isinstance(item, dict) else None
        if not isinstance(text, str):
            problems.append(Problem("no-changelog", None, f"an entry without text: {item!r}"))
            continue
        out = render(text, refs)
        problems.extend(Problem(c, None, d) for c, d in out.problems)
        problems.extend(
            Problem("dangling-reference", None, f"the changelog's {{ref:{k}}} names no entry")
            for k in out.unknown_refs
        )
        changes.append(PublisherChange(text=out.text, cites=out.references))
    return changes


def _review(
    problems: list[Problem], ids: dict[str, str]
) -> tuple[list[Erratum], list[ParseWarning]]:
    """Reviewed defects of the source become errata; every other problem is a warning."""
    errata: list[Erratum] = []
    warnings: list[ParseWarning] = []
    for problem in problems:
        defect = known_source_defect(problem.code, problem.key, problem.detail)
        location = Location(line=problem.line) if problem.line is not None else None
        if defect is not None and problem.key is not None:
            errata.append(
                Erratum(
                    record=ids.get(problem.key, problem.key),
                    cites=defect.cites,
                    reason=defect.reason,
                    location=location,
                )
            )
            continue
        where = f"{problem.key}: " if problem.key else ""
        warnings.append(warn(problem.code, where + problem.detail, problem.line))
    return errata, warnings
