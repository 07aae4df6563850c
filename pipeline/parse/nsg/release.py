"""What a Null Signal Games rules bundle states about its release: version, effective date,
and the changelog the generator would print with it.

NSG's generator names a release `YY.MM` from its effective date (the page's "Summary of
Changes (v26.03)"), and over the years the bundle has carried that date or version in
several places. Each is read where the release states it, first found first:

1. `config.yaml`'s `date: {year, month, day}` (2025 onwards: the generator's own input);
2. any other top-level statement of `config.yaml` (`version: 26.03`, `effective: 2026-03-02`,
   `effective_date: March 2, 2026`, `title: Netrunner Comprehensive Rules v26.03`);
3. the generator's command line in a build workflow (`-y 2025 -m 04 -d 24`: how the date
   was given before `config.yaml` existed);
4. the changelog's own top-level statements and entries (`Effective: June 16th, 2017`,
   `Version 1.2.0`), and a single version it names in a sentence
   (`Transcribed version of the v22.12 CR.`);
5. the archive's top folder when it names a tag (`netrunner-comprehensive-rules-25.08`).

Lines of the forms publishers print are read by the engine's one statement reader
(`parse.numbered.statements`): one month table, one date reader. A date with no version
beside it gives the version the generator derives from it; an explicit version that
disagrees with an earlier statement is a `version-mismatch` warning. Nothing stated:
no version (the caller warns), never one guessed from a file or folder name that does
not name a release.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from pipeline.models.content import Line, YamlBundle, YamlFile
from pipeline.models.records import ParseWarning
from pipeline.models.scheme import FORMS
from pipeline.parse.nsg.checks import problem as warn
from pipeline.parse.numbered.statements import compile_statement, find_statement, read_date

# The forms a release's metadata is written in, each the whole line (`Updated the list of
# subtypes` is a changelog entry, not a date); `Date: ...` only read whole, too.
_FORM_NAMES = (
    "version",
    "v",
    "ver",
    "effective-date",
    "effective",
    "effective-as-of",
    "last-updated",
    "date",
)


@cache
def _patterns() -> list[re.Pattern[str]]:
    """Compiled on first use: a parse of another game does not pay for them."""
    compiled = (compile_statement(FORMS[name]) for name in _FORM_NAMES)
    return [re.compile(rf"^(?:{p.pattern})", p.flags) for p in compiled]


# `v22.12` standing in a sentence; only a version the text names alone is taken.
_NAMED_VERSION = re.compile(r"(?<![\w.])v(\d+(?:\.\d+)+)(?!\w|\.\d)", re.IGNORECASE)
# `key: value` on a line of its own at the top of a YAML file (a scalar, maybe quoted).
_TOP_SCALAR = re.compile(r"^(?P<key>[A-Za-z][\w -]*?)\s*:\s+(?P<value>[^\s#|>&*!{\[][^#]*?)\s*$")
# The generator's effective-date options (`-y 2025 -m 04 -d 24`, or spelled out).
_OPTION = r"(?:^|\s)(?:-{opt}|--{name})[\s=]+[\"']?(\d{{1,4}})\b"
_GENERATOR_DATE = {
    part: re.compile(_OPTION.format(opt=part[0], name=part)) for part in ("year", "month", "day")
}
# GitHub's archive of a tag: `<repo>-<tag>`, the tag a dotted version (`25.08`, `v1.6`).
_TAG_FOLDER = re.compile(r"-v?(?P<version>\d+(?:\.\d+)+)$", re.IGNORECASE)


@dataclass
class Release:
    """What the bundle states: version, effective date (ISO), the changelog, and warnings."""

    version: str | None = None
    effective: str | None = None
    changelog: YamlFile | None = None
    warnings: list[ParseWarning] = field(default_factory=list)
    where: str = ""  # what stated the version, for messages

    def state(self, version: str | None, date: str | None, where: str) -> None:
        """Take what one place states; a version unlike the one already taken is a warning."""
        if date and self.effective is None:
            self.effective = date
        version = version or (generator_version(date) if date else None)
        if not version:
            return
        if self.version is None:
            self.version, self.where = version, where
        elif version != self.version:
            message = f"{self.where} states version {self.version}, {where} {version}"
            self.warnings.append(warn("version-mismatch", message))


def generator_version(date: str) -> str:
    """`2026-03-02` -> `26.03`: how the generator names the release of that date."""
    return f"{date[2:4]}.{date[5:7]}"


def read_release(bundle: YamlBundle) -> Release:
    """Version, effective date and changelog of one bundle, from whatever it states."""
    release = Release()
    by_path = {f.path: f for f in bundle.changelogs}
    if bundle.config is not None:
        read_config(bundle.config, release)
    for workflow in bundle.workflows:
        release.state(
            None, generator_date(workflow.text), f"the generator command in {workflow.path}"
        )
    changelog = by_path.get("data/input/00_changelog.yaml")
    if changelog is None and release.version is not None:
        changelog = by_path.get(f"data/changelogs/{release.version}.yaml")
        if changelog is None and bundle.config is not None:
            name = f"data/changelogs/{release.version}.yaml"
            message = (
                f"{release.where} gives version {release.version}, but the bundle has no {name}"
            )
            release.warnings.append(warn("no-changelog", message))
    if changelog is not None:
        read_changelog(changelog, release)
    release.changelog = changelog
    if bundle.folder and (tag := _TAG_FOLDER.search(bundle.folder)):
        release.state(tag["version"], None, f"the archive folder {bundle.folder!r}")
    return release


def read_config(config: YamlFile, release: Release) -> None:
    """`date: {year, month, day}` as the generator reads it, then any other statement."""
    data = config.data if isinstance(config.data, dict) else {}
    date = data.get("date")
    if isinstance(date, dict):
        parts = [str(date.get(k, "")) for k in ("year", "month", "day")]
        iso = read_date("-".join(parts)) if len(parts[0]) == 4 else None
        if iso is not None:
            release.state(None, iso, f"{config.path}'s date")
        else:
            message = f"{config.path} states no effective date: {date!r}"
            release.warnings.append(warn("bad-date", message))
    read_metadata(top_scalars(config.text), config.path, release)


def read_changelog(changelog: YamlFile, release: Release) -> None:
    """The changelog's own statements: its top-level keys, then its entries, each line read
    whole, then (when nothing else has) the one version its sentences name."""
    read_metadata(top_scalars(changelog.text), changelog.path, release)
    items = changelog.data.get("changelog") if isinstance(changelog.data, dict) else None
    lines = [
        line
        for item in (items if isinstance(items, list) else [])
        if isinstance(item, dict) and isinstance(item.get("text"), str)
        for line in item["text"].splitlines()
    ]
    for number, text in enumerate(lines, start=1):
        found = find_statement([Line(text=text.strip(), line=number)], _patterns())
        # Prose that merely starts like a statement (`Effective immediately, ...`) is not one.
        if found is not None and (found.date_text is None or found.date is not None):
            release.state(found.version, found.date, changelog.path)
    if release.version is None:
        named = {m.group(1) for text in lines for m in _NAMED_VERSION.finditer(text)}
        if len(named) == 1:
            release.state(named.pop(), None, changelog.path)


def read_metadata(texts: list[tuple[str, int]], where: str, release: Release) -> None:
    """Version and date from a file's top-level keys (`version 26.03`, `effective date
    2026-03-02`, `title ... v26.03`); a date there that does not read is reported."""
    found = find_statement([Line(text=t, line=n) for t, n in texts], _patterns())
    if found is not None and found.date_text and found.date is None:
        message = f"{where}: cannot read the date in {found.date_text!r}"
        release.warnings.append(warn("bad-date", message, found.lines[0].line))
    version = found.version if found is not None else None
    if version is None:
        named = {m.group(1) for text, _ in texts for m in _NAMED_VERSION.finditer(text)}
        version = named.pop() if len(named) == 1 else None
    release.state(version, found.date if found is not None else None, where)


def top_scalars(text: str) -> list[tuple[str, int]]:
    """Each top-level `key: value` of a YAML text as the words a person reads (`effective
    date 2026-03-02`): its raw value, so `26.10` stays `26.10` (YAML would load 26.1)."""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        match = _TOP_SCALAR.match(raw)
        if match is None:
            continue
        key = re.sub(r"[_-]+", " ", match["key"]).strip()
        value = match["value"].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        out.append((f"{key} {value}", number))
    return out


def generator_date(workflow: str) -> str | None:
    """The effective date on the generator's command line in a build workflow, or None."""
    for line in workflow.splitlines():
        if "rules_doc_generator" not in line:
            continue
        parts = [pattern.search(line) for pattern in _GENERATOR_DATE.values()]
        if all(parts):
            year, month, day = (p.group(1) for p in parts if p)
            return read_date(f"{year}-{month}-{day}") if len(year) == 4 else None
    return None
