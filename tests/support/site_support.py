"""What the site tests share: a corpus imported from a few real documents (three MTG text
exports, so old numbers and changes have a real history, Magic's tournament documents, two
FaB versions, three Netrunner versions and the NetrunnerDB rulings), and a
small game of the tests' own whose rule text is hostile markup; each made once per run."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.cli.shared import diff_renderers
from pipeline.errors import EXIT_OK
from pipeline.jobs.context import Context
from tests.support.built_once import build_once
from tests.support.helpers import SHARED, link_archive, registry_file

SUBSET = (
    "mtg/comprehensive-rules/20250207/MagicCompRules 20250207.txt",
    "mtg/comprehensive-rules/20250725/MagicCompRules 20250725.txt",
    "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.txt",
    "fab/comprehensive-rules/2.10.1/en-fab-cr-2.10.1-20250519212741.txt",
    "fab/comprehensive-rules/2.14.0/en-fab-cr.txt",
    # Netrunner: versions that state no date (their feed times come from the corpus), and
    # the NetrunnerDB rulings, which name the rules' numbers and file cards under slugs.
    "netrunner/comprehensive-rules-yaml-source/22.12/nsg-cr-yaml-v22.12.tar.gz",
    "netrunner/comprehensive-rules-yaml-source/25.04/nsg-cr-yaml-v25.04.tar.gz",
    "netrunner/comprehensive-rules-yaml-source/26.03/nsg-cr-yaml-v26.03.tar.gz",
    "netrunner/rulings-netrunnerdb/2024-01-15/netrunnerdb-v2-rulings-2024-01-15.tar.gz",
    # Magic's tournament documents, which cite the Comprehensive Rules and each other.
    "mtg/tournament-rules/2024-05-13/MTG_MTR_2024_May13.pdf",
    "mtg/infraction-procedure-guide/2024-04-15/MTG_IPG_2024Apr15_EN.pdf",
    "mtg/judging-at-regular-rel/2014-09-26/mtg_jar_2014Sep26_en.pdf",
)

# A rules text whose rules hold markup: the site must show it as text and never run it.
HOSTILE_RULE = '<script>document.title="pwned"</script><img src=x onerror="document.title=1">'
HOSTILE = f"""Hostile Comprehensive Rules
VERSION 1.0,  effective 2 March 2026
These rules test a website.
1. Game Concepts
1.1. Winning
1.1.a. {HOSTILE_RULE} wins. See rule 1.1.b.
1.1.b. A player with </main><b>bold</b> & "quotes" loses.
Credits
The test team.
"""
HOSTILE_SCHEME = {
    "prefix": "hx",
    "levels": [
        {"kind": "chapter", "dot": "required", "title": "always"},
        {"kind": "rule", "dot": "required", "title": "short"},
        {"kind": "subrule", "segment": "letter", "dot": "required"},
    ],
    "keywords": ["rule", "see"],
    "title": "Comprehensive Rules",
    "statements": ["Version {version}, effective {date}."],
    "date_is": "effective",
    "ends": ["Credits"],
}

# A FAQ of the same game whose answer names a rule by number, as a reader would read it.
HOSTILE_FAQ = b"""<!doctype html>
<html><head><title>Hostile FAQ</title></head>
<body><main>
<p class="updated">Last updated: 2026-03-02</p>
<h3>Does a player with three stars win at once?</h3>
<p>Yes, see rule 1.1.a.</p>
</main></body></html>
"""


def site_corpus(factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    """The corpus of SUBSET, imported once per run (read only)."""

    def build(root: Path) -> None:
        from pipeline.jobs.import_archive import import_archive

        entries: list[dict[str, Any]] = json.loads((SHARED / "manifest.json").read_text())
        folder = link_archive(root / "archive", [e for e in entries if e["path"] in SUBSET])
        ctx = Context(
            corpus_dir=root / "corpus",
            cache_dir=root / "cache",
            parse_cache_dir=parse_cache_dir,
            renderers=diff_renderers(),
        )
        summary = import_archive(ctx, folder)
        assert summary.exit_code == EXIT_OK, [o.message for o in summary.outcomes if o.exit_code]

    return build_once("site-corpus", factory, build) / "corpus"


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def built_site(factory: pytest.TempPathFactory, parse_cache_dir: Path) -> Path:
    """`rulescorpus site OUT` of the SUBSET corpus, built once per run (read only)."""
    corpus = site_corpus(factory, parse_cache_dir)

    def build(folder: Path) -> None:
        code, output = run_cli("site", str(folder / "out"), "--corpus", str(corpus))
        assert code == EXIT_OK, output

    return build_once("site", factory, build) / "out"


def _entry(folder: Path, document: str, path: str, fmt: str, data: bytes) -> dict[str, Any]:
    (folder / path).parent.mkdir(parents=True)
    (folder / path).write_bytes(data)
    return {
        "game": "hostile",
        "document": document,
        "version": "1.0",
        "date": "2026-03-02",
        "format": fmt,
        "url": f"https://hostile.invalid/{document}.{fmt}",
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "path": path,
        "tier": "publisher",
    }


def hostile_archive(folder: Path) -> tuple[Path, Path]:
    """(archive folder, registry file) of the hostile game (its rules and a FAQ citing
    them), ready for `import`."""
    archive = folder / "archive"
    entries = [
        _entry(archive, "cr", "hostile/cr/1.0/rules.txt", "txt", HOSTILE.encode()),
        _entry(archive, "faq", "hostile/faq/1.0/faq.html", "html", HOSTILE_FAQ),
    ]
    (archive / "manifest.json").write_text(json.dumps(entries))
    registry = registry_file(
        folder,
        [
            {
                "id": "hostile-cr-txt",
                "game": "hostile",
                "document": "hostile/cr",
                "title": "Hostile Comprehensive Rules",
                "family": "numbered",
                "rendition": "txt",
                "url": "https://hostile.invalid/cr.txt",
                "primary": True,
                "manifest": {"game": "hostile", "document": "cr", "format": "txt"},
                "scheme": HOSTILE_SCHEME,
            },
            {
                "id": "hostile-faq-html",
                "game": "hostile",
                "document": "hostile/faq",
                "title": "Hostile FAQ",
                "family": "faq-html",
                "rendition": "html",
                "url": "https://hostile.invalid/faq.html",
                "primary": True,
                "manifest": {"game": "hostile", "document": "faq", "format": "html"},
                "options": {"question": "main h3", "answer": "main p", "version": "p.updated"},
            },
        ],
    )
    return archive, registry
