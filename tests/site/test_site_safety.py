"""`rulescorpus site OUT` writes inside OUT and nowhere else: a marker naming files outside
the folder, links planted in it, a folder inside the corpus or the cache, a second build at
the same time and a person's own pages are each met without touching anything outside OUT.
Built from the small hostile game of `site_support` (imported once per module)."""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

from pipeline.corpus import open_corpus
from pipeline.errors import EXIT_IO, EXIT_LOCKED, EXIT_OK, EXIT_USAGE
from pipeline.site import paths
from pipeline.site.build import Pages, write_document
from pipeline.site.document_site import read_document_site
from pipeline.site.feed import feed_context
from pipeline.site.output import LOCK, MARKER, SiteFolder
from pipeline.site.render import render_page
from tests.support.helpers import corpus_digest
from tests.support.site_support import hostile_archive, run_cli


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(archive, registry, corpus) of the hostile game, imported once (read only)."""
    folder = tmp_path_factory.mktemp("hostile-site")
    archive, registry = hostile_archive(folder)
    corpus = folder / "corpus"
    code, output = run_cli(
        "import", str(archive), "--corpus", str(corpus), "--cache", str(folder / "cache"),
        "--sources", str(registry),
    )  # fmt: skip
    assert code == EXIT_OK, output
    return archive, registry, corpus


def site(corpus: Path, out: Path, *extra: str) -> tuple[int, str]:
    code, output = run_cli("site", str(out), "--corpus", str(corpus), *extra)
    return code, " ".join(output.split())


def victim(tmp_path: Path) -> Path:
    """A file of the person's, outside the site's folder."""
    path = tmp_path / "victim" / "rel.txt"
    path.parent.mkdir()
    path.write_text("not the site's\n")
    return path


@pytest.mark.parametrize(
    "listed",
    ["../victim/rel.txt", "ABSOLUTE", "page\0.html", "./index.html", ""],
    ids=["parent", "absolute", "nul", "dot", "empty"],
)
def test_a_marker_listing_files_outside_the_folder_deletes_nothing(
    hostile: tuple[Path, Path, Path], tmp_path: Path, listed: str
) -> None:
    """A cloned folder whose marker listed `../victim/rel.txt` or an absolute path made the
    build delete those files and the folders left empty above them."""
    target = victim(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    name = str(target) if listed == "ABSOLUTE" else listed
    (out / MARKER).write_text(json.dumps({"files": {name: "0" * 64}}))
    code, output = site(hostile[2], out)
    assert code == EXIT_USAGE and "Traceback" not in output, output
    assert MARKER in output and "nothing was removed" in output and "--force" in output
    assert target.read_text() == "not the site's\n"
    assert [p.name for p in out.iterdir()] == [MARKER]  # not even a lock file was made
    # --force writes the site over the foreign list, and still removes nothing it names
    code, output = site(hostile[2], out, "--force")
    assert code == EXIT_OK, output
    assert target.read_text() == "not the site's\n"
    assert name not in json.loads((out / MARKER).read_text())["files"]


def test_a_marker_with_a_number_for_a_digest_is_foreign(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / MARKER).write_text(json.dumps({"files": {"index.html": 1}}))
    code, output = site(hostile[2], out)
    assert code == EXIT_USAGE and "is not a page" in output, output


def test_a_link_planted_at_a_temporary_or_page_name_is_never_written_through(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """The temporary name `.NAME.tmp` was predictable: a link planted there overwrote a
    file outside the folder."""
    out = tmp_path / "out"
    assert site(hostile[2], out)[0] == EXIT_OK
    outside = victim(tmp_path)
    (out / "hostile/cr/1.1.a/index.html").unlink()  # so the rebuild writes that page again
    (out / "hostile/cr/1.1.a/.index.html.tmp").symlink_to(outside)
    (out / "search").rename(tmp_path / "moved")
    (out / "search").mkdir()
    (out / "search/index.html").symlink_to(outside)  # a link where a page goes
    code, output = site(hostile[2], out)
    assert code == EXIT_OK, output
    assert outside.read_text() == "not the site's\n"
    assert (out / "hostile/cr/1.1.a/index.html").is_file()
    page = out / "search/index.html"
    assert (
        not page.is_symlink() and page.read_bytes() == (tmp_path / "moved/index.html").read_bytes()
    )


def test_a_sub_folder_that_links_out_of_the_folder_receives_no_file(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """A sub-folder of the site that was a link out of it received 21 files."""
    out = tmp_path / "out"
    assert site(hostile[2], out)[0] == EXIT_OK
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "hostile/cr").rename(tmp_path / "old-cr")
    (out / "hostile/cr").symlink_to(elsewhere, target_is_directory=True)
    code, output = site(hostile[2], out)
    assert code == EXIT_USAGE and "is a symbolic link" in output and "hostile/cr" in output
    assert list(elsewhere.iterdir()) == []


def test_the_site_folder_may_be_neither_inside_nor_around_the_corpus_or_the_cache(
    hostile: tuple[Path, Path, Path],
) -> None:
    """`site` wrote into the corpus folder and the cache."""
    corpus = hostile[2]
    cache = corpus.parent / "cache"
    before = corpus_digest(corpus.parent)
    for out in (corpus / "site", cache / "site", corpus.parent, corpus):
        code, output = run_cli("site", str(out), "--corpus", str(corpus), "--cache", str(cache))
        assert code == EXIT_USAGE, (out, output)
        output = " ".join(output.split())
        assert "the site never writes there" in output and "Traceback" not in output
    assert corpus_digest(corpus.parent) == before


def test_a_dangling_link_as_the_site_folder_is_named_as_one(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """The message was "File exists"."""
    out = tmp_path / "out"
    out.symlink_to(tmp_path / "nowhere")
    code, output = site(hostile[2], out)
    assert code == EXIT_USAGE and "symbolic link to nothing" in output, output
    assert "File exists" not in output and not (tmp_path / "nowhere").exists()


def test_a_build_while_another_holds_the_folder_exits_locked(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    with open(out / LOCK, "w") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        code, output = site(hostile[2], out)
    assert code == EXIT_LOCKED and "another `rulescorpus site` build" in output, output
    assert site(hostile[2], out)[0] == EXIT_OK


def test_two_concurrent_builds_into_one_folder_never_fail_on_io(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """Two builds at once into one folder made one exit 74 (each renamed the other's
    temporary file)."""
    out = tmp_path / "out"
    command = [sys.executable, "-m", "pipeline", "site", str(out), "--corpus", str(hostile[2])]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in "ab"]
    codes = [run.wait(timeout=300) for run in runs]
    assert sorted(codes) in ([EXIT_OK, EXIT_OK], [EXIT_OK, EXIT_LOCKED]), codes
    assert site(hostile[2], out)[1].count("0 files changed, 0 removed") == 1


def _indexed_text(out: Path) -> bytes:
    """Every fragment of the Pagefind indexes (one per document), decompressed."""
    found = b""
    for fragment in sorted((out / "pagefind").rglob("fragment/*")):
        found += zlib.decompress(fragment.read_bytes(), 16 + zlib.MAX_WBITS)
    return found


def test_with_force_the_persons_own_pages_stay_out_of_the_search_index(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    mine = out / "hostile/mine/index.html"
    mine.parent.mkdir(parents=True)
    mine.write_text("<html><body><main><p>Quokkasecret private notes</p></main></body></html>")
    assert site(hostile[2], out, "--force")[0] == EXIT_OK
    indexed = _indexed_text(out)
    assert b"Quokkasecret" not in indexed and b"Hostile" in indexed
    assert mine.is_file()


def test_a_nul_in_the_marker_after_an_import_keeps_the_report(tmp_path: Path) -> None:
    """`import --site` exited 70 after committing, and its report and `--report` file were
    lost; its message said the corpus was left as it was."""
    archive, registry = hostile_archive(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / MARKER).write_text(json.dumps({"files": {"a\0b": "0" * 64}}))
    report = tmp_path / "report.json"
    code, output = run_cli(
        "import", str(archive), "--corpus", str(tmp_path / "corpus"),
        "--cache", str(tmp_path / "cache"), "--sources", str(registry),
        "--site", str(out), "--report", str(report),
    )  # fmt: skip
    assert code == EXIT_USAGE and "Traceback" not in output, output
    summary = json.loads(report.read_text())
    assert summary["exit_code"] == EXIT_USAGE
    failed = [o for o in summary["outcomes"] if o["outcome"] == "site-failed"]
    assert len(failed) == 1 and "NUL" in failed[0]["message"]
    assert "left as it was" not in " ".join(output.split())
    assert open_corpus(tmp_path / "corpus").documents()  # the import was committed


def test_a_rule_number_of_300_digits_gets_a_page_of_its_own(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """A 300-digit rule number failed the whole site build (a folder name over 255 bytes)."""
    long_a, long_b = "9" * 300, "9" * 299 + "8"
    pages = {paths.rule_page("hostile/cr", n) for n in (long_a, long_b)}
    assert len(pages) == 2 and all(len(Path(p).parts[2]) <= paths.MAX_SLUG for p in pages)
    reader = open_corpus(hostile[2])
    document = read_document_site(reader, "hostile/cr", [])
    assert document is not None
    renamed = [r.model_copy(update={"number": long_a}) if r.number == "1.1.b" else r
               for r in document.rules]  # fmt: skip
    with _pages(tmp_path / "out") as pages_out:
        write_document(pages_out, reader, dataclasses.replace(document, rules=renamed), None)
    assert (tmp_path / "out" / paths.rule_page("hostile/cr", long_a)).is_file()


def test_control_characters_in_a_title_leave_the_feed_well_formed(
    hostile: tuple[Path, Path, Path],
) -> None:
    reader = open_corpus(hostile[2])
    document = read_document_site(reader, "hostile/cr", [])
    assert document is not None
    titled = dataclasses.replace(document, title="Rules\x01\x1b[31m\x0c \ufffe")
    feed = ET.fromstring(render_page("feed.atom", feed_context(reader, titled, None)))
    assert feed.findtext("{http://www.w3.org/2005/Atom}title", "").startswith("Rules\ufffd")


class _pages:
    """The writer of a site's pages, into a folder of the test's, closed after the block."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def __enter__(self) -> Pages:
        self.folder = SiteFolder(self.out)
        os.makedirs(self.out.parent / "indexed", exist_ok=True)
        return Pages(self.folder, self.out.parent / "indexed")

    def __exit__(self, *_: object) -> None:
        self.folder.close()


def test_a_site_write_failing_after_an_import_never_says_the_corpus_was_left_as_it_was(
    tmp_path: Path,
) -> None:
    """A site that failed with an I/O error after the import had committed said "the corpus
    was left as it was"."""
    archive, registry = hostile_archive(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / MARKER).write_text(json.dumps({"files": {}}))
    (out / "hostile").write_text("a file where the game's folder goes")
    code, output = run_cli(
        "import", str(archive), "--corpus", str(tmp_path / "corpus"),
        "--cache", str(tmp_path / "cache"), "--sources", str(registry), "--site", str(out),
    )  # fmt: skip
    flat = " ".join(output.split())
    assert code == EXIT_IO and "Traceback" not in flat, output
    assert "left as it was" not in flat and "the site folder keeps its previous pages" in flat
    assert "corpus are committed" in flat


def test_a_temporary_file_a_killed_build_left_is_removed_by_the_next(
    hostile: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert site(hostile[2], out)[0] == EXIT_OK
    left = out / "search" / ".index.html.0123456789abcdef.rulescorpus-site"
    left.write_text("half a page")
    named = out / f".feed.xml.{os.getpid()}.0123456789abcdef.rulescorpus-site"
    named.write_text("half a feed")
    linked = out / ".index.html.fedcba9876543210.rulescorpus-site"
    outside = victim(tmp_path)
    linked.symlink_to(outside)
    assert site(hostile[2], out)[0] == EXIT_OK
    assert not left.exists() and not named.exists() and not linked.is_symlink()
    assert outside.read_text() == "not the site's\n" and (out / "search/index.html").is_file()
