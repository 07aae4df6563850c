"""DESIGN's import rules, read off the source: every `import` and `from ... import` in
every module of pipeline/ (those inside functions and under TYPE_CHECKING too: a lazy
or type-only import still reaches into another room).

- `models` and `errors` import nothing from the package;
- `extract`, `parse`, `verify` and `diff` import only `models`, `errors` and their own
  package;
- `registry`, `fetch` and `store` import no later stage;
- nothing imports `cli`, and `cli` imports only `jobs`, `runner`, `corpus`, `lookup`,
  `export`, `cite` and `site` (and `models`, `errors`);
- `export` (the SQLite database) reads through `corpus`: it imports no `jobs` and no `site`;
- `cite` (stale citations in a user's files) reads through `corpus`: it imports no `jobs`,
  no `site` and no `export`;
- `jobs` is the write pipeline alone: it imports no `site`, no `cite`, no `export` and no
  `report` (the command line runs the site after a job, and passes the renderers of the
  diff reports a job stores);
- `corpus` renders nothing: it imports no `report` and no Jinja2;
- `lookup` (the read side's json-only half, beneath `corpus`) imports only the standard
  library, `store`, `errors` and the citation parser `diff.citations`: no pydantic, no
  `models`, no `corpus`, so `show`'s quick path never loads them;
- `runner` (the parse runtime) imports only `models`, `errors`, `extract`, `parse`,
  `store`, `verify` and `registry` (and `fetch.manifest`, an archive's manifest, for
  `scheme FILE`): never `jobs` or `cli`, which import it;
- `corpus` is the one read side: the command line and the site never touch the store (but
  for the site's pages, written through `store.temp_files`, which reads nothing stored),
  and outside `corpus` only the jobs that write or check a corpus read its versions;
- no import cycles, not even inside one package (a lazy import counts);
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
from functools import cache
from pathlib import Path

import pytest

from tests.support.helpers import ROOT

PACKAGE = ROOT / "pipeline"

# The stages that come after registry, fetch and store's blob half in DESIGN's flow
# (registry -> fetch -> store/blobs -> verify -> extract -> parse -> store -> diff ->
# report), and the layers over them. fetch writes into store/blobs, so store is not
# "later" for fetch; registry comes before both.
LATER_THAN_STORE = frozenset(
    {"verify", "extract", "parse", "diff", "report", "runner", "jobs", "cli", "corpus", "lookup",
     "export"}
)  # fmt: skip
LATER = {
    "registry": LATER_THAN_STORE | {"fetch", "store"},
    "fetch": LATER_THAN_STORE,
    "store": LATER_THAN_STORE,
}
PURE = frozenset({"extract", "parse", "verify", "diff"})
# What the command line imports: the rooms it is a thin layer over, and report/ to render
# what corpus/ answers (corpus/ renders nothing).
LEAVES = frozenset({"models", "errors"})
# What the parse runtime reads with: the parsers, their engines, and the store's durable
# writes and canonical JSON for the parse cache and `parse FILE`; for `scheme FILE`, the
# registry's entry writer and loader, and the archive manifest beside the file.
RUNNER_READS = frozenset({"models", "errors", "extract", "parse", "store", "verify", "registry"})
RUNNER_FETCH = frozenset({"pipeline.fetch.manifest"})  # a manifest parser; no HTTP
# The commands, and the published models they print (a run's outcomes, the JSON Schemas).
CLI_READS = frozenset(
    {"jobs", "runner", "corpus", "lookup", "report", "export", "cite", "site", "models", "errors"}
)
# What the json-only read side reads with: the store's one reader, the errors, and the one
# citation parser (which needs no pydantic); beside them, the standard library alone.
LOOKUP_READS = frozenset({"store", "errors"})
LOOKUP_DIFF = frozenset({"pipeline.diff.citations"})
LIBRARIES = {
    "bs4": "extract",
    "soupsieve": "extract",
    "pdfplumber": "extract",
    "pdfminer": "extract",
    "pypdfium2": "extract",
    "yaml": "extract",
    "markdown_it": "extract",
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
            # `from pipeline.jobs import update` imports the module pipeline.jobs.update,
            # not only the package: the edge goes to the module, or a cycle through it
            # would be missed.
            named = {f"{target}.{alias.name}" for alias in node.names} & package_modules()
            found += [Import(module, t, node.lineno) for t in sorted(named) or [target]]
    return found


@cache
def package_modules() -> frozenset[str]:
    return frozenset(module_name(path) for path in PACKAGE.rglob("*.py"))


def all_imports() -> list[Import]:
    return [i for path in sorted(PACKAGE.rglob("*.py")) for i in imports_of(path)]


def broken_rule(imp: Import) -> str | None:
    """Which of DESIGN's rules the import breaks, or None."""
    room, target = imp.room, imp.target_room
    if target in LIBRARIES:
        owner = LIBRARIES[target]
        return None if room == owner else f"only {owner}/ imports {target}"
    if room == "lookup" and target != room and not _lookup_may_import(imp.target):
        return (
            "lookup/ reads with json alone: it imports only the standard library, store, "
            f"errors and diff.citations ({imp.target} is not)"
        )
    if room == "corpus" and target in ("report", "site", "jinja2"):
        return "corpus/ imports no rendering: the caller renders what it returns"
    if room == "jobs" and target in ("report", "jinja2"):
        return "jobs/ imports no report/: the command line passes the renderers"
    if imp.target.split(".")[0] != "pipeline" or target in (room, "pipeline"):
        return None  # the standard library, other libraries, its own package, __version__
    if target == "cli":
        return "nothing imports cli"
    if room == "cli" and target not in CLI_READS:
        return (
            "cli imports only jobs, runner, corpus, lookup, report, export, cite, site "
            "(models, errors)"
        )
    if room == "jobs" and target in ("site", "cite", "export"):
        return f"jobs/ is the write pipeline: it imports no {target}/"
    if room == "cite" and target in ("jobs", "site", "export"):
        return f"cite/ reads through corpus; it imports no {target}/"
    if room == "export" and target in ("jobs", "site"):
        return f"export/ reads through corpus; it imports no {target}/"
    if room == "runner" and target not in RUNNER_READS and imp.target not in RUNNER_FETCH:
        return f"runner/ imports only {', '.join(sorted(RUNNER_READS))} ({target}/ is not)"
    if room in LEAVES:
        return f"{room} imports nothing from the package"
    if room in PURE and target not in LEAVES:
        return f"{room}/ imports only models and errors"
    if target in LATER.get(room, ()):
        return f"{room}/ imports no later stage ({target}/)"
    return None


def _lookup_may_import(target: str) -> bool:
    top = target.split(".")[0]
    if top != "pipeline":
        return top in sys.stdlib_module_names or top == "__future__"
    return room_of(target) in LOOKUP_READS or target in LOOKUP_DIFF


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


FORBIDDEN = [
    ("pipeline.fetch.discover", "pipeline.extract.html"),
    ("pipeline.fetch.sites", "bs4.element"),
    ("pipeline.parse.wiki", "pipeline.fetch.mediawiki"),
    ("pipeline.models.records", "pipeline.errors"),
    ("pipeline.registry.loader", "pipeline.store.blobs"),
    ("pipeline.jobs.update", "pipeline.cli.app"),
    ("pipeline.verify.checks", "requests"),
    ("pipeline.cli.job_commands", "pipeline.store.canonical"),
    ("pipeline.runner.sandbox", "pipeline.jobs.context"),
    ("pipeline.runner.families", "pipeline.cli.shared"),
    ("pipeline.store.corpus", "pipeline.runner.cache"),
    ("pipeline.parse.lint", "pipeline.runner.families"),
    ("pipeline.jobs.update", "pipeline.site.build"),
    ("pipeline.jobs.update", "pipeline.cite.check"),
    ("pipeline.jobs.publish", "pipeline.export.sqlite"),
    ("pipeline.cite.check", "pipeline.jobs.context"),
    ("pipeline.cite.run", "pipeline.site.build"),
    ("pipeline.runner.scheme_entry", "pipeline.fetch.http"),
    ("pipeline.corpus.diffs", "pipeline.report.markdown"),
    ("pipeline.corpus.site_queries", "jinja2"),
    ("pipeline.jobs.update", "pipeline.report.output"),
    ("pipeline.jobs.versions", "pipeline.report.html"),
    ("pipeline.jobs.versions", "pipeline.report.markdown"),
    ("pipeline.corpus.reader", "pipeline.report.html"),
    ("pipeline.corpus.shown", "pipeline.site.render"),
    ("pipeline.lookup.show", "pipeline.site.render"),
    ("pipeline.lookup.show", "pipeline.corpus.renumbering"),
    ("pipeline.lookup.lineage", "pipeline.models.diffs"),
    ("pipeline.lookup.search", "pydantic"),
    ("pipeline.lookup.show", "pipeline.diff.renumbering"),
    ("pipeline.lookup.lineage", "jinja2"),
    ("pipeline.lookup.show", "pipeline.cli.show_text"),
    ("pipeline.store.reader", "pipeline.lookup.show"),
    ("pipeline.cli.read_commands", "pipeline.store.reader"),
    ("pipeline.jobs.publish", "jinja2"),
]
PERMITTED = [
    ("pipeline.cli.read_commands", "pipeline.jobs.show"),
    ("pipeline.fetch.sites", "pipeline.store.blobs"),
    ("pipeline.extract.fab_html", "pipeline.models.bundles"),
    ("pipeline.jobs.update", "pipeline.extract.html"),
    ("pipeline.runner.families", "pipeline.parse.lint"),
    ("pipeline.jobs.update", "pipeline.runner.sandbox"),
    ("pipeline.cli.job_commands", "pipeline.runner.local_file"),
    ("pipeline.cli.renumbering_commands", "pipeline.cite.run"),
    ("pipeline.cite.check", "pipeline.corpus.renumbering"),
    ("pipeline.runner.scheme_entry", "pipeline.registry.loader"),
    ("pipeline.runner.scheme_entry", "pipeline.fetch.manifest"),
    ("pipeline.cli.read_commands", "pipeline.report.output"),
    ("pipeline.cli.quick", "pipeline.lookup.show"),
    ("pipeline.cli.read_commands", "pipeline.lookup"),
    ("pipeline.corpus.reader", "pipeline.lookup.show"),
    ("pipeline.cite.check", "pipeline.lookup"),
    ("pipeline.export.records", "pipeline.lookup"),
    ("pipeline.lookup.show", "pipeline.diff.citations"),
    ("pipeline.lookup.show", "pipeline.lookup.lineage"),
    ("pipeline.lookup", "pipeline.store.reader"),
    ("pipeline.lookup.search", "unicodedata"),
    ("pipeline.lookup.lineage", "__future__"),
]


@pytest.mark.parametrize(("module", "target"), FORBIDDEN)
def test_the_rules_catch_what_they_forbid(module: str, target: str) -> None:
    assert broken_rule(Import(module, target, 1)) is not None


@pytest.mark.parametrize(("module", "target"), PERMITTED)
def test_the_rules_let_through_what_they_permit(module: str, target: str) -> None:
    assert broken_rule(Import(module, target, 1)) is None


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


def printed_by(probe: str) -> str:
    """What a fresh interpreter running `probe` prints: its modules are loaded from nothing."""
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout.strip()


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
    assert len(modules) >= 8
    assert printed_by(probe) == "[]"


# The store's calls that read a stored version (its records, aliases, provenance, diffs).
VERSION_READS = frozenset(
    {"load_document", "load_aliases", "read_file", "read_span",
     "records_by_id", "children_in", "diff_data"}
)  # fmt: skip
# Modules outside corpus/ and store/ that read stored versions, none of them for display.
WRITERS_AND_CHECKERS = {
    "pipeline.jobs.versions": "stores the next version: its diff needs the one before",
    "pipeline.jobs.update": "re-reads what it stored to prove the commit",
    "pipeline.jobs.verify": "re-hashes and re-parses stored versions",
    "pipeline.cite.check": "checks files' citations against every version's ids",
    "pipeline.export.sqlite": "writes the SQLite database",
}


def version_reads() -> dict[str, list[int]]:
    """Module -> lines calling the store's version-reading API, outside corpus/ and store/."""
    found: dict[str, list[int]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if room_of(module) in ("corpus", "store"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            name = None
            if isinstance(node, ast.Attribute):
                name = node.attr
            elif isinstance(node, ast.Name):
                name = node.id
            elif isinstance(node, ast.alias):
                name = node.name
            if name in VERSION_READS:
                found.setdefault(module, []).append(getattr(node, "lineno", 0))
    return found


def test_only_the_read_side_reads_stored_versions_for_display() -> None:
    readers = version_reads()
    assert set(readers) - set(WRITERS_AND_CHECKERS) == set(), readers
    assert set(WRITERS_AND_CHECKERS) - set(readers) == set(), "a listed module no longer reads"
    # The command line and the site answer through corpus, never from the store. The
    # store's temporary files read nothing stored: the site writes its pages with them.
    display = [
        f"{i.module} line {i.line}: {i.target}"
        for i in all_imports()
        if i.room in ("cli", "site")
        and i.target_room == "store"
        and i.target != "pipeline.store.temp_files"
    ]
    assert display == []


def test_the_read_side_check_catches_a_second_reader(tmp_path: Path) -> None:
    # A module that loaded a version itself would be caught by name.
    probe = tmp_path / "probe.py"
    probe.write_text("def f(c):\n    return c.load_document('mtg/cr')\n", encoding="utf-8")
    tree = ast.parse(probe.read_text(encoding="utf-8"))
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert names & VERSION_READS == {"load_document"}


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (lazy imports included)."""
    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for imp in all_imports():
        target = imp.target
        while target and target not in modules:  # `from a.b import c`: module a.b
            target = target.rpartition(".")[0]
        if target and target != imp.module and not imp.module.startswith(target + "."):
            graph[imp.module].add(target)
    return graph


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk meets, each as the modules on it."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


def test_the_package_has_no_import_cycle() -> None:
    # The walk finds a cycle where there is one, and sees lazy imports as edges.
    assert cycles_of({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    graph = import_graph()
    assert "pipeline.lookup.show" in graph["pipeline.cli.quick"]  # a lazy import
    # `from package import module` (inside a function here) is an edge to the module.
    assert "pipeline.jobs.update" in graph["pipeline.cli.job_commands"]
    assert "pipeline.runner.families" in graph["pipeline.runner.sandbox"]  # a lazy import
    assert cycles_of(graph) == []


def test_the_json_only_read_side_loads_no_pydantic_at_run_time() -> None:
    # `show`'s quick path imports lookup/: loading every one of its modules loads neither
    # pydantic (nor anything that imports it: the models, corpus/) nor typer.
    modules = sorted(module_name(path) for path in (PACKAGE / "lookup").glob("*.py"))
    probe = (
        f"import sys\nfor name in {modules!r}: __import__(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'typer')"
        " or m.startswith(('pipeline.corpus', 'pipeline.models.records'))))"
    )
    assert "pipeline.lookup.show" in modules and len(modules) >= 4
    assert printed_by(probe) == "[]"


def test_the_command_line_starts_without_the_typed_read_side() -> None:
    # Every command loads the typer app and the modules it is made of; the typed read side
    # (corpus/: the record models, the diff engine) loads only in a command that reads a
    # corpus, so `sources`, `--help` and the jobs never pay for it.
    probe = (
        "import sys, pipeline.cli.commands\n"
        "print(sorted(m for m in sys.modules if m.startswith('pipeline.corpus')))"
    )
    assert printed_by(probe) == "[]"


def test_the_parse_runtime_loads_no_command_at_run_time() -> None:
    # The runner is beneath the commands: importing every one of its modules (the family
    # table and every parser included) loads nothing of jobs or cli.
    modules = sorted(
        module_name(path)
        for path in (PACKAGE / "runner").glob("*.py")
        if path.name not in ("__init__.py", "sandbox_server.py")
    )
    probe = (
        f"import sys\nfor name in {modules!r}: __import__(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
        "(['pipeline', 'jobs'], ['pipeline', 'cli'])))"
    )
    assert "pipeline.runner.families" in modules and len(modules) >= 7
    assert printed_by(probe) == "[]"
