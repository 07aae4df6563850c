"""Safe reading of .tar.gz archives from memory: real NetrunnerDB bundles and hostile ones."""

from __future__ import annotations

import io
import tarfile

import pytest

from pipeline.errors import ExtractError
from pipeline.extract.tarball import read_archive_commit, read_tar_members
from tests.support.helpers import SHARED

RULINGS = SHARED / "netrunner" / "rulings-netrunnerdb"
SNAPSHOT_2023 = RULINGS / "2023-03-12" / "netrunnerdb-v2-rulings-2023-03-12.tar.gz"


def make_tar(entries: list[tarfile.TarInfo | tuple[str, bytes]]) -> bytes:
    """A .tar.gz built in memory; (name, bytes) is a regular file, a TarInfo is used as is."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for entry in entries:
            if isinstance(entry, tarfile.TarInfo):
                tar.addfile(entry)
            else:
                name, data = entry
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def link(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


def test_real_bundle_reads_every_file_sorted() -> None:
    data = SNAPSHOT_2023.read_bytes()
    files = read_tar_members(data, what="nrdb 2023-03-12")
    assert len(files) == 654  # 653 card files + ruling_sources.json; directories skipped
    assert list(files) == sorted(files)
    assert "v2/ruling_sources.json" in files
    assert (
        files["v2/rulings/virtuoso.json"] == (RULINGS / "2023-03-12" / "virtuoso.json").read_bytes()
    )


def test_include_filter_sees_clean_paths() -> None:
    data = SNAPSHOT_2023.read_bytes()
    files = read_tar_members(data, what="x", include=lambda p: p.endswith("ruling_sources.json"))
    assert list(files) == ["v2/ruling_sources.json"]


def test_archive_commit_is_read_from_the_pax_header() -> None:
    # The manifest records the bundle as `git archive 4b1cf24b...`.
    assert read_archive_commit(SNAPSHOT_2023.read_bytes()) == (
        "4b1cf24b46f771739fe5561aa8b6041058c2ff04"
    )
    assert read_archive_commit(make_tar([("a.txt", b"a")])) is None


def test_github_prefix_is_stripped_on_request() -> None:
    data = make_tar(
        [
            ("netrunner-cards-json-abc123/v2/rulings/x.json", b"[]"),
            ("netrunner-cards-json-abc123/README.md", b"hi"),
        ]
    )
    assert list(read_tar_members(data, what="x", strip_components=1)) == [
        "README.md",
        "v2/rulings/x.json",
    ]
    assert list(read_tar_members(data, what="x")) == [
        "netrunner-cards-json-abc123/README.md",
        "netrunner-cards-json-abc123/v2/rulings/x.json",
    ]


@pytest.mark.parametrize(
    "name", ["../evil.json", "v2/../../evil.json", "/etc/passwd", "C:/windows/x", "v2\\..\\x"]
)
def test_path_escape_refuses_the_archive(name: str) -> None:
    data = make_tar([("v2/ok.json", b"[]"), (name, b"x")])
    with pytest.raises(ExtractError) as err:
        read_tar_members(data, what="hostile")
    assert repr(name) in str(err.value)
    assert "refusing" in str(err.value)


def test_escape_is_refused_even_outside_the_selection() -> None:
    data = make_tar([("v2/ok.json", b"[]"), ("../evil", b"x")])
    with pytest.raises(ExtractError, match="escapes"):
        read_tar_members(data, what="hostile", include=lambda p: p.startswith("v2/"))


@pytest.mark.parametrize("kind", [tarfile.SYMTYPE, tarfile.LNKTYPE])
def test_selected_link_is_refused_never_followed(kind: bytes) -> None:
    data = make_tar([("v2/a.json", b"[]"), link("v2/b.json", "/etc/passwd", kind)])
    with pytest.raises(ExtractError) as err:
        read_tar_members(data, what="links")
    assert "v2/b.json" in str(err.value) and "/etc/passwd" in str(err.value)


def test_link_outside_the_selection_is_skipped() -> None:
    data = make_tar([("v2/a.json", b"[]"), link("docs/link", "../../x")])
    assert read_tar_members(data, what="x", include=lambda p: p.startswith("v2/")) == {
        "v2/a.json": b"[]"
    }


def test_device_is_refused() -> None:
    dev = tarfile.TarInfo("v2/dev")
    dev.type = tarfile.CHRTYPE
    with pytest.raises(ExtractError, match="not a regular file"):
        read_tar_members(make_tar([dev]), what="x")


def test_member_count_limit() -> None:
    data = make_tar([(f"f{i}", b"x") for i in range(5)])
    assert len(read_tar_members(data, what="x", max_members=5)) == 5
    with pytest.raises(ExtractError, match="more than 4 members"):
        read_tar_members(data, what="x", max_members=4)


def test_size_limits() -> None:
    data = make_tar([("a", b"x" * 100), ("b", b"y" * 100)])
    with pytest.raises(ExtractError, match="'a' declares 100 bytes"):
        read_tar_members(data, what="x", max_member_bytes=99)
    with pytest.raises(ExtractError, match="exceed 150 bytes"):
        read_tar_members(data, what="x", max_total_bytes=150)
    assert len(read_tar_members(data, what="x", max_total_bytes=200)) == 2


def test_duplicate_member_is_ambiguous() -> None:
    data = make_tar([("v2/a.json", b"[1]"), ("./v2/a.json", b"[2]")])
    with pytest.raises(ExtractError, match=r"two members named 'v2/a\.json'"):
        read_tar_members(data, what="x")


def test_not_an_archive() -> None:
    with pytest.raises(ExtractError, match="not a readable gzip tar"):
        read_tar_members(b"<!doctype html><p>rate limited</p>", what="nrdb")


def test_truncated_archive() -> None:
    data = SNAPSHOT_2023.read_bytes()
    with pytest.raises(ExtractError, match=r"truncated|corrupt"):
        read_tar_members(data[: len(data) // 2], what="nrdb")
