"""`rulescorpus site OUT`: a corpus as a static website. Reads through `pipeline.corpus`.

OUT/index.html                                 every document, its version and last change
OUT/<game>/index.html                          the game's documents side by side
OUT/<game>/<doc>/index.html                    contents, glossary, versions
OUT/<game>/<doc>/<number>/index.html           a page per rule of the current version
OUT/<game>/<doc>/v/<version>/index.html       an older version's contents
OUT/<game>/<doc>/v/<version>/<number>/index.html   a rule as it stood then (or a light page
                                               leading to where that text still stands)
OUT/<game>/<doc>/rulings/<id>/index.html       a page per ruling
OUT/<game>/<doc>/changes/<version>/index.html  what changed in that version
OUT/<game>/<doc>/feed.atom                     one entry per version
OUT/search/index.html, OUT/pagefind/           search without a server
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.corpus import CorpusReader, open_corpus
from pipeline.errors import UsageError
from pipeline.models.records import Ruling
from pipeline.site import paths
from pipeline.site.changes_pages import changes_context
from pipeline.site.document_site import DocumentSite, read_document_site
from pipeline.site.feed import feed_context
from pipeline.site.index_pages import (
    document_context,
    game_context,
    games_of,
    home_context,
    search_context,
)
from pipeline.site.output import SiteFolder
from pipeline.site.render import read_asset, render_page
from pipeline.site.rule_pages import rule_context
from pipeline.site.ruling_pages import card_names, ruling_context
from pipeline.site.search import build_index
from pipeline.site.version_pages import version_pages

_ASSETS = ("site.css", "search.js")


@dataclass(frozen=True)
class SiteBuilt:
    root: Path
    documents: list[str]
    pages: int
    written: list[str]  # files whose bytes changed (new ones included)
    removed: list[str]  # files of the previous build no longer made
    bytes: int


class Pages:
    """Where pages go: the site's folder, and the pages the search index reads (copied to a
    folder of their own, so the index holds only pages this build wrote, never a file a
    person put in the site's folder)."""

    def __init__(self, folder: SiteFolder, indexed: Path) -> None:
        self.folder = folder
        self.indexed = indexed
        self.count = 0  # pages written (assets, feeds and the search index aside)

    def page(
        self, page: str, template: str, context: dict[str, object], *, found: bool = True
    ) -> None:
        root = paths.relative(page, "index.html").removesuffix("index.html")
        data = render_page(template, {**context, "root": root})
        self.folder.write(page, data)
        self.count += 1
        if found:
            copy = self.indexed / page
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(data)

    def write(self, name: str, data: bytes) -> None:
        self.folder.write(name, data)


def rulings_by_game(reader: CorpusReader, games: set[str]) -> dict[str, list[tuple[str, Ruling]]]:
    """The rulings of the current versions of these games' documents, by game (only the
    documents that hold any are read)."""
    found: dict[str, list[tuple[str, Ruling]]] = {}
    for info in reader.documents():
        game = info.id.split("/", 1)[0]
        current = next((v for v in info.versions if v.current), None)
        if game not in games or current is None or not current.rulings:
            continue
        for ruling in reader.rulings(info.id):
            found.setdefault(game, []).append((info.id, ruling))
    return found


def link_documents(reader: CorpusReader, sites: list[DocumentSite]) -> None:
    """Tie the documents of a game together: a record citing another document's number
    links to its page there, a ruling's page names its cards, a rule lists the rulings
    citing it with links to their pages."""
    built = {s.id: s.title for s in sites}
    by_game: dict[str, list[DocumentSite]] = {}
    for site in sites:
        by_game.setdefault(site.id.split("/", 1)[0], []).append(site)
    for game, group in by_game.items():
        rulings = (
            [
                r
                for info in reader.documents()
                if info.id.startswith(game + "/") and info.id in built
                for r in reader.rulings(info.id)
            ]
            if any(s.doc.rulings for s in group)
            else []
        )
        names = card_names(rulings) if rulings else {}
        for site in group:
            site.built = built
            site.card_names = names
            site.linker.others = [s.linker for s in group if s is not site]


def choose_documents(reader: CorpusReader, wanted: list[str]) -> list[str]:
    known = [d.id for d in reader.documents()]
    if not known:
        raise UsageError(
            f"the corpus at {reader.root} holds no documents; run `rulescorpus import` or "
            "`rulescorpus update` first"
        )
    for name in wanted:
        if name not in known:
            raise UsageError(f"document {name} is not in the corpus; it has: {', '.join(known)}")
    return sorted(set(wanted)) if wanted else known


def build_site(
    corpus_dir: Path,
    out: Path,
    documents: list[str] | None = None,
    *,
    base_url: str | None = None,
    force: bool = False,
    guarded: Sequence[tuple[Path, str]] = (),
) -> SiteBuilt:
    """Write the site of the corpus at corpus_dir into out (see the module's docstring).
    Nothing is written inside corpus_dir or the `guarded` folders (what each is)."""
    reader = open_corpus(corpus_dir)
    chosen = choose_documents(reader, list(documents or []))
    sites = read_sites(reader, chosen)
    folder = SiteFolder(out, force=force, guarded=[(corpus_dir, "the corpus"), *guarded])
    try:
        with tempfile.TemporaryDirectory(prefix="rulescorpus-site-") as temp:
            return _build(folder, reader, sites, base_url, Path(temp))
    finally:
        folder.close()


def read_sites(reader: CorpusReader, chosen: list[str]) -> list[DocumentSite]:
    """What the site shows of each chosen document that has a published version."""
    rulings = rulings_by_game(reader, {d.split("/", 1)[0] for d in chosen})
    sites: list[DocumentSite] = []
    for document in chosen:
        game = document.split("/", 1)[0]
        others = [(d, r) for d, r in rulings.get(game, []) if d != document]
        site = read_document_site(reader, document, others)
        if site is not None:
            sites.append(site)
    link_documents(reader, sites)
    if not sites:
        raise UsageError(
            f"the corpus at {reader.root} has no published version of "
            f"{', '.join(chosen)}; accept a staged version first (`rulescorpus accept`)"
        )
    return sites


def _build(
    folder: SiteFolder,
    reader: CorpusReader,
    sites: list[DocumentSite],
    base_url: str | None,
    indexed: Path,
) -> SiteBuilt:
    try:
        pages = write_pages(Pages(folder, indexed), reader, sites, base_url)
        for name, data in build_index(indexed, [s.id for s in sites]):
            folder.write(name, data)
    except BaseException:
        if folder.written:
            folder.abandon()
        raise
    removed = folder.finish()
    built = [s.id for s in sites]
    return SiteBuilt(folder.root, built, pages, folder.changed, removed, folder.bytes)


def write_pages(
    folder: Pages, reader: CorpusReader, sites: list[DocumentSite], base_url: str | None
) -> int:
    """Every page of the site (the search index aside); returns how many."""
    for name in _ASSETS:
        folder.write(f"assets/{name}", read_asset(name))
    folder.page(paths.home_page(), "home.html", home_context(sites))
    folder.page(paths.search_page(), "search.html", search_context(sites))
    games = games_of(sites)
    for game, group in games.items():
        folder.page(paths.game_page(game), "game.html", game_context(game, group))
    for site in sites:
        write_document(folder, reader, site, base_url)
    return folder.count


def write_document(
    folder: Pages, reader: CorpusReader, site: DocumentSite, base_url: str | None
) -> None:
    """Every page of one document, and its feed."""
    folder.page(paths.document_page(site.id), "document.html", document_context(site))
    for rule in site.rules:
        folder.page(paths.rule_page(site.id, rule.number), "rule.html", rule_context(site, rule))
    for page, template, context in version_pages(site):
        # older versions' pages: a search finds the rule as it stands
        folder.page(page, template, context, found=False)
    for ruling in site.doc.rulings:
        page = paths.ruling_page(site.id, ruling.id)
        folder.page(page, "ruling.html", ruling_context(site, ruling, site.card_names))
    for version in site.lineage.diffs:
        page = paths.changes_page(site.id, version)
        folder.page(page, "changes.html", changes_context(reader, site, version))
    feed = feed_context(reader, site, base_url)
    folder.write(paths.feed_file(site.id), render_page("feed.atom", feed))
