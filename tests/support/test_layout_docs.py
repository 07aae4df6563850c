"""The layout the development page draws (docs/development.md, "Layout") is the tree: every
package of pipeline/ with every one of its modules, and every folder of tests/, named
there; nothing named there that is not in the tree."""

from __future__ import annotations

import re

from tests.support.helpers import ROOT

PAGE = ROOT / "docs" / "development.md"


def _block(heading: str) -> str:
    """The first fenced block under a heading of the development page."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1]
    return section.split("```", 2)[1]


def _entries(block: str) -> dict[str, str]:
    """A drawn tree's top entries (`  name/  text...`) with the text that describes them."""
    entries: dict[str, str] = {}
    current = ""
    for line in block.splitlines():
        if match := re.match(r"  (\S+/)\s", line + " "):
            current = match.group(1).rstrip("/")
            entries[current] = line
        elif current:
            entries[current] += " " + line
    return entries


def test_the_package_layout_names_every_package_and_module_and_nothing_else() -> None:
    drawn = _entries(_block("Layout"))
    packages = {p.parent.name for p in (ROOT / "pipeline").glob("*/__init__.py")}
    assert set(drawn) == packages
    for package in sorted(packages):
        modules = {
            p.relative_to(ROOT / "pipeline" / package).as_posix()
            for p in (ROOT / "pipeline" / package).rglob("*.py")
            if p.name != "__init__.py"
        }
        named = set(re.findall(r"[\w/]+\.py", drawn[package]))
        subpackages = {m.split("/")[0] for m in modules if "/" in m}
        flat = {m for m in modules if "/" not in m}
        assert flat <= named, f"{package}/: not described: {sorted(flat - named)}"
        assert named <= modules, f"{package}/: described but absent: {sorted(named - modules)}"
        for sub in subpackages:
            assert f"{sub}/" in drawn[package], f"{package}/{sub}/ is not described"


def test_the_tests_layout_names_every_folder_of_tests() -> None:
    drawn = _entries(_block("Tests"))
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and p.name[0] not in "._"}
    assert set(drawn) == folders


def test_every_test_file_the_docs_and_code_name_exists() -> None:
    """A page or a docstring that points at a test file points at one that is there."""
    named: dict[str, set[str]] = {}
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    code = [*(ROOT / "pipeline").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    for path in pages + code:
        for name in re.findall(
            r"(?<![\w/])tests/[\w/]+\.(?:py|toml)\b", path.read_text(encoding="utf-8")
        ):
            named.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    missing = {name: sorted(where) for name, where in named.items() if not (ROOT / name).exists()}
    assert missing == {}
