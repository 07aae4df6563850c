"""A new game added by a registry entry alone: family `numbered` with a [source.scheme] table,
no Python. The documents are made here (a text export, and a PDF typeset with
tests/support/pdfgen.py);
the records come out of the engine exactly as the scheme declares them. And the registry
refuses a family it does not know, naming the file and the entry."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.errors import EXIT_USAGE, ParseError, RegistryError, UnsafeName
from pipeline.extract.pdf import extract_pdf_lines
from pipeline.jobs.context import load_sources
from pipeline.models.records import Document
from pipeline.models.scheme import FORMS, STATEMENT_FORMS
from pipeline.models.sources import Source
from pipeline.parse.numbered.statements import compile_statement
from pipeline.runner.families import parse_bytes
from pipeline.runner.family_names import NAMES
from pipeline.runner.limits import ParseLimits
from pipeline.runner.request import ParseRequest, request_for
from pipeline.runner.sandbox import parse_isolated
from pipeline.store import layout
from tests.support.helpers import SHARED, registry_file
from tests.support.pdfgen import SOFT_HYPHEN, build_pdf

MTG_PDF = "mtg/comprehensive-rules/20251114/MagicCompRules 20251114.pdf"

STARFALL_SCHEME = {
    "prefix": "sf",
    "levels": [
        {"kind": "chapter", "dot": "required", "title": "always"},
        {"kind": "rule", "dot": "required", "title": "short"},
        {"kind": "subrule", "segment": "letter", "dot": "required"},
        {"kind": "step", "segment": "roman", "join": ".", "printed": "own", "dot": "required"},
    ],
    "keywords": ["rule", "see"],
    "title": "Comprehensive Rules",
    "statements": ["Version {version}, effective {date}."],
    "date_is": "effective",
    "ends": ["Credits"],
}
STARFALL = """Starfall Comprehensive Rules
VERSION 3.1,  effective 2 March 2026
These rules govern every game of Starfall.
1. Game Concepts
1.1. Winning
1.1.a. A player who controls three stars wins the game at once,
whatever else is true. See rule 2.1.
Example: Ana controls three stars, so she wins.
1.1.b. A player who must draw from an empty deck loses.
Note: This is the second way to end a game; rules 1.1.a and 1.1.b are the only ones.
2. Turns
2.1. Taking turns
2.1.a. A turn has four steps, in order:
i. Draw a card.
ii. Play a card (see rule 1.1.a).
iii. Discard down to seven.
iv. Pass the turn.
2.1.b. The first player skips the draw.
• This is the only exception.
Credits
Game design: the Starfall team.
"""


def source(**extra: object) -> dict[str, object]:
    return {
        "id": "starfall-cr-txt",
        "game": "starfall",
        "document": "starfall/cr",
        "title": "Starfall Comprehensive Rules",
        "family": "numbered",
        "rendition": "txt",
        "url": "https://starfall.invalid/rules.txt",
        "primary": True,
        "scheme": STARFALL_SCHEME,
        **extra,
    }


def parse(entry: Source, data: bytes) -> Document:
    return parse_bytes(data, request_for(entry, what=entry.id))


def test_a_registry_entry_alone_adds_the_game(tmp_path: Path) -> None:
    (entry,) = load_sources(registry_file(tmp_path, [source()]), NAMES)
    assert entry.scheme is not None and entry.scheme.prefix == "sf"
    doc = parse(entry, STARFALL.encode())
    assert doc.warnings == []
    assert (doc.game, doc.document, doc.parser.family) == ("starfall", "starfall/cr", "numbered")
    # Read from the document, whatever its capitals and spacing: never from the registry.
    assert (doc.title, doc.version, doc.effective) == (
        "Starfall Comprehensive Rules",
        "3.1",
        "2026-03-02",
    )
    records = {r.id: r for r in doc.records}
    assert list(records) == [
        "sf:1", "sf:1.1", "sf:1.1.a", "sf:1.1.b", "sf:2", "sf:2.1", "sf:2.1.a",
        "sf:2.1.a.i", "sf:2.1.a.ii", "sf:2.1.a.iii", "sf:2.1.a.iv", "sf:2.1.b",
    ]  # fmt: skip
    assert [(r.depth, r.parent) for r in doc.records][:4] == [
        (1, None), (2, "sf:1"), (3, "sf:1.1"), (3, "sf:1.1"),
    ]  # fmt: skip
    assert records["sf:1"].title == "Game Concepts" and records["sf:1.1"].title == "Winning"
    win = records["sf:1.1.a"]
    assert win.text == (
        "A player who controls three stars wins the game at once, whatever else is true. "
        "See rule 2.1."
    )
    assert win.examples == ["Ana controls three stars, so she wins."]
    assert win.references == ["sf:2.1"]
    assert records["sf:1.1.b"].notes == [
        "This is the second way to end a game; rules 1.1.a and 1.1.b are the only ones."
    ]
    assert records["sf:1.1.b"].references == ["sf:1.1.a"]  # a record never cites itself
    # Steps printed as `i.` take their path from the open subrule (the outline position).
    assert records["sf:2.1.a.ii"].text == "Play a card (see rule 1.1.a)."
    assert records["sf:2.1.a.ii"].references == ["sf:1.1.a"]
    assert (records["sf:2.1.a.iv"].depth, records["sf:2.1.a.iv"].parent) == (4, "sf:2.1.a")
    assert records["sf:2.1.b"].bullets == ["This is the only exception."]
    assert [p.id for p in doc.front_matter] == ["preface"]
    assert doc.front_matter[0].text == "These rules govern every game of Starfall."
    assert [(p.id, p.text) for p in doc.back_matter] == [
        ("credits", "Game design: the Starfall team.")
    ]
    assert doc.counts == {
        "chapters": 2, "rules": 2, "subrules": 4, "steps": 4, "records": 12,
        "glossary": 0, "examples": 1,
    }  # fmt: skip


def test_the_engine_warns_what_the_scheme_cannot_place(tmp_path: Path) -> None:
    (entry,) = load_sources(registry_file(tmp_path, [source()]), NAMES)
    text = STARFALL.replace("effective 2 March 2026", "effective 31 February 2026")
    text = text.replace("See rule 2.1.", "See rule 9.9.")
    doc = parse(entry, text.encode())
    assert doc.version == "3.1" and doc.effective is None
    assert [w.code for w in doc.warnings] == ["bad-date"]
    # a citation of a rule the document lacks, where no rule was lost: a publisher note
    assert [n.message for n in doc.publisher_notes] == [
        "sf:1.1.a cites sf:9.9, which is not in the document"
    ]
    with pytest.raises(Exception, match="no numbered rules found"):
        parse(entry, b"Starfall\nJust a story, no rules.\n")


LUMEN_SCHEME = {
    "prefix": "cr",
    "levels": [
        {"kind": "chapter", "title": "always"},
        {"kind": "section", "title": "always"},
        {"kind": "rule"},
        {"kind": "subrule", "segment": "letter", "join": ""},
    ],
    "brackets": True,
    "keywords": [],
    "title": "Comprehensive Rules",
    "statements": ["Version {version}", "Effective {date}"],
    "ends": ["Glossary"],
}
WORD = f"illumi{SOFT_HYPHEN}nation"


def test_a_pdf_by_a_registry_entry_alone(tmp_path: Path) -> None:
    entry = Source.model_validate(
        source(id="lumen-cr-pdf", game="lumen", document="lumen/cr", rendition="pdf",
               scheme=LUMEN_SCHEME)
    )  # fmt: skip
    long_text = " ".join([f"The {WORD} of a lantern lights every card beside it."] * 4)
    items = [
        ("1", "Game Concepts"),
        ("1.0", "General"),
        ("1.0.1", f"A lantern is a card. {long_text}"),
        ("", "Example: A lit lantern lights its neighbours.[1.0.2]"),
        ("1.0.1a", "A lantern can be lit or unlit."),
        ("1.0.2", "A card beside a lit lantern is lit.[1.0.1a]"),
        ("•", "Cards in a row are beside each other."),
        ("•", "Cards in a column are not."),
        *[(f"1.0.{n}", f"Rule {n} of the lantern rules. {long_text}") for n in range(3, 30)],
        ("heading", "Glossary"),
        ("def", "Lantern: a card that lights."),
    ]
    title = [("Lumen", 22.0), ("Comprehensive Rules", 28.0), ("Version 1.2", 14.0),
             ("Effective 5 May 2026", 12.0)]  # fmt: skip
    pdf = build_pdf(items, title_lines=title)
    assert pdf.pages >= 3
    doc = parse(entry, pdf.pdf)
    assert doc.warnings == []
    assert (doc.title, doc.version, doc.published) == ("Comprehensive Rules", "1.2", "2026-05-05")
    records = {r.id: r for r in doc.records}
    assert len(records) == 32 and records["cr:1.0.1a"].depth == 4
    assert records["cr:1.0.1"].examples == ["A lit lantern lights its neighbours.[1.0.2]"]
    assert records["cr:1.0.1"].references == ["cr:1.0.2"]
    assert records["cr:1.0.2"].bullets == [
        "Cards in a row are beside each other.",
        "Cards in a column are not.",
    ]
    # Wrapped lines rejoined, the typesetter's hyphens dropped, running heads and page
    # numbers gone.
    assert records["cr:1.0.29"].text == f"Rule 29 of the lantern rules. {long_text}".replace(
        SOFT_HYPHEN, ""
    )
    everything = " ".join(r.text for r in doc.records)
    assert "CHAPTER" not in everything and all(r.location.page for r in doc.records)
    assert doc.back_matter[0].title == "Glossary"
    assert extract_pdf_lines(pdf.pdf).notes.keys() <= doc.extraction.keys()


def test_an_unknown_family_is_refused_at_load_with_the_file_and_entry(tmp_path: Path) -> None:
    path = registry_file(tmp_path, [source(family="numberd")])
    with pytest.raises(RegistryError) as caught:
        load_sources(path, NAMES)
    assert str(path) in str(caught.value) and "starfall-cr-txt" in str(caught.value)
    assert "unknown family 'numberd'" in str(caught.value)
    result = CliRunner().invoke(app, ["--sources", str(path), "--corpus", str(tmp_path / "c"),
                                      "--cache", str(tmp_path / "k"), "update"])  # fmt: skip
    assert result.exit_code == EXIT_USAGE == 2
    assert str(path) in result.output + result.stderr
    assert "starfall-cr-txt" in result.output + result.stderr


def test_numbered_without_a_scheme_is_refused(tmp_path: Path) -> None:
    entry = source()
    del entry["scheme"]
    with pytest.raises(RegistryError, match="scheme"):
        load_sources(registry_file(tmp_path, [entry]), NAMES)


def test_the_documented_example_is_this_game(tmp_path: Path) -> None:
    """The worked example of docs/adding-a-game.md loads as it stands and reads the same
    records."""
    page = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
    section = page.read_text(encoding="utf-8").split("## The scheme, key by key", 1)[1]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "sources.toml"
    path.write_text(example, encoding="utf-8")
    (entry,) = load_sources(path, NAMES)
    assert entry.scheme == Source.model_validate(source()).scheme
    assert [r.id for r in parse(entry, STARFALL.encode()).records][:3] == [
        "sf:1",
        "sf:1.1",
        "sf:1.1.a",
    ]


# --------------------------------------------------------------- registry values that would harm


def _refused(tmp_path: Path, entry: dict[str, object], *words: str) -> str:
    path = registry_file(tmp_path, [entry])
    began = time.monotonic()
    with pytest.raises(RegistryError) as caught:
        load_sources(path, NAMES)
    message = str(caught.value)
    assert str(path) in message and "starfall-cr-txt" in message, message
    assert all(w in message for w in words), message
    assert time.monotonic() - began < 15
    return message


def test_a_registry_name_with_dotdot_never_becomes_a_path(tmp_path: Path) -> None:
    """A registry entry whose `document` or `id` held `../` made `update` write files
    outside the corpus folder (exit 10). Every name that becomes a path is checked at load
    (exit 2); the store's layout refuses such a name before any file is named."""
    _refused(tmp_path, source(document="starfall/../../outside"), "document", "..")
    _refused(tmp_path, source(id="starfall-cr-txt/../x"), "source id")
    _refused(tmp_path, source(game="../x"), "game")
    with pytest.raises(UnsafeName):
        layout.version_file("starfall/cr", "../../outside", "0" * 64)
    with pytest.raises(UnsafeName):
        layout.diff_file("starfall/cr", "1.0", "a/b", "json", "0" * 64)
    path = registry_file(tmp_path, [source(document="starfall/../../outside")])
    corpus = tmp_path / "corpus"
    result = CliRunner().invoke(app, ["--sources", str(path), "--corpus", str(corpus),
                                      "--cache", str(tmp_path / "k"), "update"])  # fmt: skip
    assert result.exit_code == EXIT_USAGE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sources.toml"]


def test_a_version_read_through_the_pattern_with_dotdot_is_a_warning_not_a_path(
    tmp_path: Path,
) -> None:
    """A version read through `version_pattern` could hold `../` and become a path. A
    stated version that cannot name a file is a parse warning; the version is not taken."""
    scheme = {**STARFALL_SCHEME, "version_pattern": r"[\w./]+"}
    (entry,) = load_sources(registry_file(tmp_path, [source(scheme=scheme)]), NAMES)
    doc = parse(entry, STARFALL.replace("VERSION 3.1,", "VERSION ../../x,").encode())
    assert doc.version is None
    assert [w.code for w in doc.warnings] == ["no-version", "no-version"]
    assert "../../x" in doc.warnings[0].message and "is not taken" in doc.warnings[0].message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"version_pattern": "(unclosed"}, ["version_pattern", "not a valid regular expression"]),
        ({"version_pattern": "(?P<version>1)"}, ["named groups"]),
        ({"statements": ["Version {version} or {version}."]}, ["{version} more than once"]),
        ({"statements": ["No placeholder here."]}, ["neither"]),
        ({"bullets": ["•", ""]}, ["scheme.bullets", "empty"]),
        ({"example": [" "]}, ["scheme.example", "empty"]),
        ({"prefix": "sf:x"}, ["scheme.prefix"]),
        ({"prefix": "sf/x"}, ["scheme.prefix"]),
        ({"levels": [{"kind": "rule", "width": -1}]}, ["width", "-1"]),
        ({"levels": [{"kind": "rule", "width": 10**9}]}, ["width"]),
        ({"levels": [{"kind": "rule"}] * 2000}, ["at most 12 levels"]),
        ({"ends": ["Credits {version} {version}"]}, ["scheme.ends", "{version} more than once"]),
        ({"version_pattern": r"(\d)\1"}, ["scheme.version_pattern", "back-references"]),
        ({"statement_forms": ["ver", "vers"]}, ["scheme.statement_forms", "'vers'"]),
        # these wait out the probe's time bound
        pytest.param(
            {"version_pattern": "(a+)+$"}, ["backtracks catastrophically"], marks=pytest.mark.slow
        ),
        pytest.param(
            {"version_pattern": r"(\d|\d\d)+x"},
            ["backtracks catastrophically"],
            marks=pytest.mark.slow,
        ),
    ],
)
def test_a_bad_scheme_is_refused_at_load_naming_the_file_and_entry(
    tmp_path: Path, change: dict[str, object], words: list[str]
) -> None:
    """An invalid `version_pattern`, two `{version}` in a statement or an empty bullet gave
    "parser failed unexpectedly (a bug)" with a traceback at parse time (exit 40); `(a+)+`
    ran until the CPU limit; a prefix could hold `:` or `/` (then cite-check misread
    citations); widths could be negative or 10^9, and 2,000 levels took minutes. Each is
    refused at load, exit 2, naming the file and the entry."""
    _refused(tmp_path, source(scheme={**STARFALL_SCHEME, **change}), *words)


@pytest.mark.parametrize("pattern", [r"v(a+)+b", r"x(\d+)+y", r"(?:v|w)(?:a|aa)+b"])
def test_catastrophic_patterns_that_load_time_probing_misses(tmp_path: Path, pattern: str) -> None:
    """A repeated group behind a literal is reached only by input that starts with the
    literal: the probes (runs of one character) never reached it, and the pattern kept
    `parse` busy for over 120 s and `import` for over 150 s. Probes led by each character
    reach it: refused at load, naming the file, the entry and the key."""
    scheme = {**STARFALL_SCHEME, "version_pattern": pattern}
    message = _refused(tmp_path, source(scheme=scheme), "backtracks catastrophically")
    assert "scheme.version_pattern" in message


@pytest.mark.slow  # waits out a time bound
def test_the_command_line_refuses_a_catastrophic_pattern_quickly(tmp_path: Path) -> None:
    path = registry_file(tmp_path, [source(scheme={**STARFALL_SCHEME, "version_pattern": "(a+)+"})])
    began = time.monotonic()
    result = CliRunner().invoke(app, ["--sources", str(path), "--corpus", str(tmp_path / "c"),
                                      "--cache", str(tmp_path / "k"), "update"])  # fmt: skip
    assert result.exit_code == EXIT_USAGE and time.monotonic() - began < 20
    assert "backtracks catastrophically" in result.output + result.stderr
    assert "Traceback" not in result.output + result.stderr


@pytest.mark.slow  # reads the real documents
def test_update_deadline_bounds_the_parse_child() -> None:
    """A slow parse ran to the 600 s CPU limit whatever `update --deadline` said. The parse
    child's wall-clock limit follows the run's deadline."""
    data = (SHARED / MTG_PDF).read_bytes()
    request = ParseRequest(
        family="mtg-cr", document="mtg/cr", rendition="pdf", what=MTG_PDF, version=None
    )
    limits = ParseLimits().until(time.monotonic() + 0.5)
    assert limits.wall_now() <= 0.5 and limits.cpu_now() <= 1
    began = time.monotonic()
    with pytest.raises(ParseError, match="the run's deadline"):
        parse_isolated(data, request, limits)
    assert time.monotonic() - began < 10


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"ends": ["Credits {version} {version}"]}, "scheme.ends"),
        ({"version_pattern": r"(\d+)\.\1"}, "scheme.version_pattern"),
        ({"statement_forms": ["no-such-form"]}, "scheme.statement_forms"),
    ],
)
def test_registry_values_that_pass_load_and_fail_at_parse(
    tmp_path: Path, change: dict[str, object], key: str
) -> None:
    """`ends` with a slot twice, a back-referencing `version_pattern` and an unknown
    `statement_forms` name loaded, then failed inside the parse as an internal error (a
    regex group defined twice or referring to the wrong group, a KeyError). The scheme's
    model checks each at load: the command line says the file, the entry and the key,
    exit 2, and no traceback."""
    path = registry_file(tmp_path, [source(scheme={**STARFALL_SCHEME, **change})])
    story = tmp_path / "starfall.txt"
    story.write_text(STARFALL, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["--sources", str(path), "parse", str(story), "--family", "numbered"]
    )
    out = result.output + result.stderr
    assert result.exit_code == EXIT_USAGE, out
    assert str(path) in out and "starfall-cr-txt" in out and key in out, out
    assert "Traceback" not in out and "internal error" not in out


def test_the_statement_forms_a_registry_may_name_are_the_engine_s() -> None:
    """One table, read by both the registry's load and the engine: every name a registry
    may give compiles into a statement the engine reads."""
    for name in STATEMENT_FORMS:
        assert compile_statement(FORMS[name]).groupindex, name
