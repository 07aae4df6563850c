"""DESIGN's import rules, read off the source: every `import` and `from ... import` in
every module of pipeline/ (those inside functions and under TYPE_CHECKING too: a lazy
or type-only import still reaches into another room).

- `models` and `errors` import nothing from the package;
- `extract`, `parse`, `verify` and `diff` import only `models`, `errors` and their own
  package;
- `registry`, `fetch` and `store` import no later stage;
- nothing imports `cli`, and `cli` imports only `jobs` (and `errors`);
- the document libraries (beautifulsoup4 and soupsieve, the PDF engines, PyYAML) are
  imported only in `extract`, the HTTP client (requests, urllib3) only in `fetch`.

A pair that breaks a rule but is accepted for now is listed, with the reason, in
ALLOWED; a listed pair that no longer occurs fails too, so the list stays exact.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from helpers import ROOT

PACKAGE = ROOT / "pipeline"

# The stages that come after registry, fetch and store's blob half in DESIGN's flow
# (registry -> fetch -> store/blobs -> verify -> extract -> parse -> store -> diff ->
# report), and the layers over them. fetch writes into store/blobs, so store is not
# "later" for fetch; registry comes before both.
LATER_THAN_STORE = frozenset(
    {"verify", "extract", "parse", "diff", "report", "jobs", "cli", "corpus"}
)
LATER = {
    "registry": LATER_THAN_STORE | {"fetch", "store"},
    "fetch": LATER_THAN_STORE,
    "store": LATER_THAN_STORE,
}
PURE = frozenset({"extract", "parse", "verify", "diff"})
LEAVES = frozenset({"models", "errors"})
LIBRARIES = {
    "bs4": "extract",
    "soupsieve": "extract",
    "pdfplumber": "extract",
    "pdfminer": "extract",
    "pypdfium2": "extract",
    "yaml": "extract",
    "requests": "fetch",
    "urllib3": "fetch",
}

# (importing module, imported module) pairs that break a rule, each with its reason.
ALLOWED: dict[tuple[str, str], str] = {
    # `python -m pipeline` is the command line's entry point, as pyproject's console
    # script `rulescorpus = pipeline.cli.app:main` is: the one place that starts cli.
    ("pipeline.__main__", "pipeline.cli.app"): "the -m entry point",
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, e.g. pipeline.fetch.backends
    target: str  # the imported module, e.g. pipeline.extract.html
    line: int

    @property
    def room(self) -> str:
        return room_of(self.module)

    @property
    def target_room(self) -> str:
        return room_of(self.target)


def room_of(module: str) -> str:
    """`fetch` for pipeline.fetch.http, `errors` for pipeline.errors, `pipeline` for the
    package itself, the top-level name for a library (`bs4` for bs4.element)."""
    parts = module.split(".")
    if parts[0] != "pipeline":
        return parts[0]
    return parts[1] if len(parts) > 1 else "pipeline"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[Import]:
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [Import(module, alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the importing package
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.append(Import(module, target, node.lineno))
    return found


def all_imports() -> list[Import]:
    return [i for path in sorted(PACKAGE.rglob("*.py")) for i in imports_of(path)]


def broken_rule(imp: Import) -> str | None:
    """Which of DESIGN's rules the import breaks, or None."""
    room, target = imp.room, imp.target_room
    if target in LIBRARIES:
        owner = LIBRARIES[target]
        return None if room == owner else f"only {owner}/ imports {target}"
    if imp.target.split(".")[0] != "pipeline" or target in (room, "pipeline"):
        return None  # the standard library, other libraries, its own package, __version__
    if target == "cli":
        return "nothing imports cli"
    if room == "cli" and target not in ("jobs", "errors"):
        return "cli imports only jobs (and errors)"
    if room in LEAVES:
        return f"{room} imports nothing from the package"
    if room in PURE and target not in LEAVES:
        return f"{room}/ imports only models and errors"
    if target in LATER.get(room, ()):
        return f"{room}/ imports no later stage ({target}/)"
    return None


def violations() -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for imp in all_imports():
        rule = broken_rule(imp)
        if rule is not None:
            found.setdefault((imp.module, imp.target), []).append(f"line {imp.line}: {rule}")
    return found


def test_the_scan_sees_the_imports_that_are_there() -> None:
    # A scanner that found nothing would pass every rule: it must see known imports,
    # lazy ones inside functions included.
    pairs = {(i.module, i.target) for i in all_imports()}
    assert ("pipeline.jobs.update", "pipeline.fetch.backends") in pairs
    assert ("pipeline.extract.html", "bs4") in pairs
    assert ("pipeline.fetch.backends", "pipeline.fetch.mediawiki") in pairs  # in a method
    assert len(pairs) > 300


def test_the_rules_catch_what_they_forbid() -> None:
    def rule(module: str, target: str) -> str | None:
        return broken_rule(Import(module, target, 1))

    assert rule("pipeline.fetch.discover", "pipeline.extract.html") is not None
    assert rule("pipeline.fetch.sites", "bs4.element") is not None
    assert rule("pipeline.parse.wiki", "pipeline.fetch.mediawiki") is not None
    assert rule("pipeline.models.records", "pipeline.errors") is not None
    assert rule("pipeline.registry.loader", "pipeline.store.blobs") is not None
    assert rule("pipeline.jobs.update", "pipeline.cli.app") is not None
    assert rule("pipeline.verify.checks", "requests") is not None
    assert rule("pipeline.cli.parse_run", "pipeline.store.canonical") is not None
    assert rule("pipeline.cli.read_commands", "pipeline.jobs.show") is None
    assert rule("pipeline.fetch.sites", "pipeline.store.blobs") is None
    assert rule("pipeline.extract.fab_html", "pipeline.models.bundles") is None
    assert rule("pipeline.jobs.update", "pipeline.extract.html") is None


def test_no_fetch_module_imports_extract_or_beautifulsoup() -> None:
    offending = [
        f"{i.module} line {i.line}: {i.target}"
        for path in sorted((PACKAGE / "fetch").rglob("*.py"))
        for i in imports_of(path)
        if i.target_room in ("bs4", "soupsieve") or i.target.startswith("pipeline.extract")
    ]
    assert offending == []


def test_every_module_keeps_design_s_import_rules() -> None:
    found = violations()
    new = {pair: lines for pair, lines in found.items() if pair not in ALLOWED}
    assert new == {}, "imports that break DESIGN's rules:\n" + "\n".join(
        f"  {module} -> {target}: {'; '.join(lines)}" for (module, target), lines in new.items()
    )
    stale = sorted(set(ALLOWED) - set(found))
    assert stale == [], f"ALLOWED lists pairs that no longer occur: {stale}"


def test_fetch_loads_neither_extract_nor_beautifulsoup_at_run_time() -> None:
    # The AST cannot see an import made by name (importlib); a fresh interpreter can.
    modules = sorted(
        module_name(path) for path in (PACKAGE / "fetch").glob("*.py") if path.name != "__init__.py"
    )
    probe = (
        f"import sys\nfor name in {modules!r}: __import__(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('bs4', 'soupsieve')"
        " or m.startswith('pipeline.extract')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert len(modules) >= 8
    assert done.stdout.strip() == "[]"
