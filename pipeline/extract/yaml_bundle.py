"""Null Signal Games' Comprehensive Rules source: a tarball of YAML files -> parsed YAML.

The bundle is the generator repository's `data/input/NN_*.yaml` chapter files (and
`00_changelog.yaml` before 2025), `data/changelogs/<version>.yaml` and `config.yaml`
(from 2025), either at the archive root (`git archive`) or under one top folder
(GitHub's `<repo>-<commit>/`, or `<repo>-<tag>/` for a tag). Two more things a
release may state its date or version in are kept as they are: the top folder's name
and the build workflows (`.github/workflows/*.yml`, whose generator command line
carried the effective date before `config.yaml` did); the workflows are text only,
never loaded as YAML (nothing but that command line is read from them).

The archive is read with the project's safe tarball reader; this module is the only
one that imports PyYAML, and it only ever calls `yaml.safe_load`, after refusing
anchors and aliases (the rules source never uses them, and an alias bomb could make a
few bytes expand without bound when walked).

Nothing here interprets the rules: the parser (pipeline.parse.nsg.yaml_cr) does that.
"""

from __future__ import annotations

import re

import yaml

from pipeline.errors import ExtractError
from pipeline.extract.tarball import MiB, read_archive_commit, read_tar_members
from pipeline.models.content import YamlBundle, YamlFile

# One optional top folder, then the three places the generator reads.
_WANTED = re.compile(
    r"^(?P<top>[^/]+/)?(?P<rel>data/input/[^/]+\.ya?ml|data/changelogs/[^/]+\.ya?ml|config\.ya?ml"
    r"|\.github/workflows/[^/]+\.ya?ml)$"
)
_CHAPTER = re.compile(r"^data/input/(?P<n>\d\d)_[^/]+\.ya?ml$")
_CHANGELOG = re.compile(r"^data/(?:changelogs/[^/]+|input/00_changelog)\.ya?ml$")
_WORKFLOW = re.compile(r"^\.github/workflows/[^/]+\.ya?ml$")


def read_yaml_bundle(data: bytes, *, what: str) -> YamlBundle:
    """The bundle's YAML files, parsed; chapters in file-name order (as the generator lists
    them), each with the line its text starts at in the chapters' concatenated stream."""
    members = read_tar_members(
        data,
        what=what,
        include=lambda path: _WANTED.match(path) is not None,
        max_total_bytes=32 * MiB,
        max_member_bytes=8 * MiB,
    )
    tops = {m["top"] or "" for path in members if (m := _WANTED.match(path))}
    if len(tops) > 1:
        raise ExtractError(
            what,
            "the archive holds the rules source under more than one folder "
            f"({', '.join(sorted(t or '(root)' for t in tops))}); which one is meant is "
            "ambiguous, refusing the archive",
        )
    files = {}
    for path, content in members.items():
        match = _WANTED.match(path)
        assert match is not None
        files[match["rel"]] = content
    chapter_paths = sorted(p for p in files if (m := _CHAPTER.match(p)) and m["n"] != "00")
    if not chapter_paths:
        raise ExtractError(
            what,
            "no chapter files (data/input/01_*.yaml ...) in the archive; is this Null Signal "
            "Games' rules source (github.com/rubenpieters/netrunner-comprehensive-rules)?",
        )
    chapters: list[YamlFile] = []
    start = 1
    for path in chapter_paths:
        parsed = _load(files[path], f"{what}: {path}")
        chapters.append(YamlFile(path=path, data=parsed[0], text=parsed[1], start=start))
        start += parsed[1].count("\n") + (0 if parsed[1].endswith("\n") else 1)
    changelogs = tuple(
        YamlFile(path=p, data=loaded[0], text=loaded[1])
        for p in sorted(files)
        if _CHANGELOG.match(p)
        for loaded in [_load(files[p], f"{what}: {p}")]
    )
    config_path = next((p for p in sorted(files) if p.startswith("config.")), None)
    config = None
    if config_path is not None:
        loaded = _load(files[config_path], f"{what}: {config_path}")
        config = YamlFile(path=config_path, data=loaded[0], text=loaded[1])
    workflows = tuple(
        YamlFile(path=p, data=None, text=_decode(files[p], f"{what}: {p}"))
        for p in sorted(files)
        if _WORKFLOW.match(p)
    )
    (top,) = tops or {""}
    return YamlBundle(
        chapters=tuple(chapters),
        changelogs=changelogs,
        config=config,
        commit=read_archive_commit(data),
        folder=top.rstrip("/") or None,
        workflows=workflows,
    )


def _decode(content: bytes, what: str) -> str:
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExtractError(what, f"not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    return text.removeprefix("\ufeff")


def _load(content: bytes, what: str) -> tuple[object, str]:
    text = _decode(content, what)
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            anchor = getattr(event, "anchor", None)
            if isinstance(event, yaml.AliasEvent) or anchor is not None:
                line = event.start_mark.line + 1 if event.start_mark else None
                raise ExtractError(
                    what,
                    f"YAML anchor or alias {anchor!r}: the rules source never uses them, and "
                    "they can expand without bound; refusing the file",
                    line,
                )
        return yaml.safe_load(text), text
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise ExtractError(what, f"not valid YAML: {problem}", line) from exc
