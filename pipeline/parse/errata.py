"""Known defects in the publishers' own documents, reviewed by a person.

Two checks find such defects: a reference that names no rule in the same document
(`REVIEWED`), and the extraction-artefact lint (`ARTEFACTS`, see parse/lint.py): text
that no publisher prints on purpose. Once a maintainer has confirmed from the bytes that
the defect is the publisher's, it is listed here with the reason, and recorded in
`Document.publisher_errata` with it. The tables name the versions each was reviewed in, but
a review holds wherever the same record's field has the very text it was reviewed in
(`REVIEWED_TEXTS`, by `text_digest`), in any later release, and lapses as soon as the
publisher changes that text. An unreviewed finding is a publisher note
or a warning, by its kind (parse/lint.py). Tests check that each entry still occurs (and
that a cited target is really absent).
"""

from __future__ import annotations

from typing import TypeVar

Entries = dict[tuple[str, str], str]  # (record id, cited id) -> reason
# (lint code, record id, field, exact offending text) -> reason
Artefacts = dict[tuple[str, str, str, str], str]
K = TypeVar("K")

_FAB_2_14_CITING_5_5 = """cr:1.6.2c cr:1.8.4 cr:1.9.1 cr:5.4.4c cr:5.4.6
    glossary:trigger-condition glossary:trigger-event glossary:triggered-effect"""
_FAB_2_14 = {
    (record, "cr:5.5"): "2.14.0 has no section 5.5 (triggered effects are 6.6; "
    "2.10.1 cited [6.6] here)"
    for record in _FAB_2_14_CITING_5_5.split()
} | {("glossary:counters", "cr:4.6"): "2.14.0 has no section 4.6 (chapter 4 ends at 4.5)"}

_MTG_MAP = {
    ("glossary:map", "cr:110.10"): "predefined tokens are rule 111.10; the Map entry says "
    "'see rule 110.10' (2024-06-07 onwards)",
}

_NISEI_1_4 = {
    ("cr:4.8.5", "cr:9.1.12a"): "1.4 reorganised section 9; 9.1.12a no longer exists",
    ("cr:6.7.3b", "cr:6.7.5"): "1.4 has no rule 6.7.5",
    ("cr:9.1.6a", "cr:9.5.8"): "1.4 reorganised section 9; 9.5.8 no longer exists",
    ("cr:9.6.13", "cr:9.1.12"): "1.4 reorganised section 9; 9.1.12 no longer exists",
}

# (document, version) -> the defects reviewed in that version
REVIEWED: dict[tuple[str, str], Entries] = {
    ("fab/cr", "2.14.0"): _FAB_2_14,
    **{
        ("mtg/cr", version): _MTG_MAP
        for version in ("2024-06-07", "2025-02-07", "2025-07-25", "2025-11-14")
    },
    ("netrunner/cr", "1.4"): _NISEI_1_4,
}

# --------------------------------------------------------------------------- lint findings

QUOTES, BRACKETS = "lint-unbalanced-quotes", "lint-unbalanced-brackets"
SPACE, OPERAND, MARKUP = "lint-doubled-space", "lint-empty-operand", "lint-markup"
DOUBLED_SPACE = "the publisher's text doubles the space here"


def _spaces(prefix: str, *fields: tuple[str, str]) -> Artefacts:
    """Doubled spaces the publisher's file has, at (record number, field)."""
    return {(SPACE, f"{prefix}:{n}", f, "  "): DOUBLED_SPACE for n, f in fields}


_FAB_BOTH: Artefacts = {
    (QUOTES, "cr:1.4.3a", "examples[2]", '"'): "a quotation opened with ' and closed with \" "
    "(`'When this attacks, create a Runechant token.\"`)",
    (BRACKETS, "cr:6.6.4", "text", ")"): 'a ) that closes nothing (`"At / The [ORDINAL] time)."`)',
}
_FAB_2_10_SPACES = (
    ("1.7.5c", "examples[0]"), ("1.8.7", "examples[1]"), ("6.6.1", "notes[0]"), ("6.6.4", "text"),
    ("6.6.5f", "examples[0]"), ("8.3.14", "text"), ("8.5.3f", "text"),
)  # fmt: skip
_FAB_2_14_SPACES = (  # 2.14.0 keeps those of 2.10.1 and adds these
    *_FAB_2_10_SPACES, ("1.2.3a", "examples[0]"), ("1.7.4j", "text"), ("1.8.4d", "text"),
    ("7.2.2c", "examples[0]"), ("8.4.15", "text"),
)  # fmt: skip
_FAB_2_14_LINT: Artefacts = {
    **_FAB_BOTH,
    **_spaces("cr", *_FAB_2_14_SPACES),
    (OPERAND, "cr:4.1.7a", "text", "in ."): "the section the publisher meant to name is "
    "missing (`… cards they have chosen in .[4.1.4][4.1.5]`)",
    (OPERAND, "cr:8.5.2a", "text", "in ."): "the section the publisher meant to name is "
    "missing (`… are defined in .[8.6]`)",
}
_FAB_2_10_LINT: Artefacts = {
    **_FAB_BOTH,
    **_spaces("cr", *_FAB_2_10_SPACES),
    (BRACKETS, "cr:7.2.4a", "text", ")"): "a ) that closes nothing "
    "(`… a living object [2.5.1]), it becomes attacking`; both renditions)",
    (BRACKETS, "glossary:shielding-prevention-effect", "definition", "("): "the rules "
    "site's page opens `(See [6.4.10j]` and never closes it",
}
_FAB_POLICY: dict[tuple[str, str], Artefacts] = {
    ("fab/ppg", "2026-06-10"): {
        (MARKUP, f"ppg:{n}", "text", tag): "the text export keeps the rules site's "
        "superscript tags around a cross-reference (`<sup>[[6.2]](https://…)</sup>`)"
        for n in ("3.4", "3.7", "3.8")
        for tag in ("<sup>", "</sup>")
    },
    ("fab/trp", "2026-06-10"): _spaces("trp", ("5.14", "text"), ("A.6", "text")),
}

_MTG_QUOTES: Artefacts = {
    (QUOTES, "cr:603.6a", "text", "“"): "an opening “ where the closing ” belongs "
    "(`enters . . . “ or`)",
    (QUOTES, "cr:606.5", "examples[0]", "“"): "a quotation never closed "
    "(`“Planeswalkers’ loyalty abilities …`)",
    (QUOTES, "cr:614.1c", "text", "“"): "an opening “ where the closing ” belongs "
    "(`. . . ,” or “[This permanent] enters …`)",
    (QUOTES, "glossary:decayed", "definition", "“"): "a quotation never closed "
    "(`“When this creature attacks, sacrifice it …`)",
}
_MTG_JUNK = {
    (QUOTES, "glossary:junk-token", "definition", "”"): "a closing ” with no opening one "
    "(`… activate only as a sorcery.”`)",
}
_MTG_LINT: dict[str, Artefacts] = {
    "2022-10-07": _MTG_QUOTES
    | {
        ("lint-lost-character", "cr:606.5", "examples[0]", "?"): "the file is cp1252, which "
        "has no minus sign: `[?4]` where the other versions print `[−4]`"
    },
    **dict.fromkeys(("2022-11-18", "2023-04-14"), _MTG_QUOTES),
    **dict.fromkeys(("2024-06-07", "2025-02-07", "2025-11-14"), _MTG_QUOTES | _MTG_JUNK),
    "2025-07-25": _MTG_QUOTES
    | _MTG_JUNK
    | {(SPACE, "legal", "text", "  "): "the TXT doubles the space in `l’Cie;  and Ragnarok`"},
}

_NISEI_MIXED = "the PDF pairs its quotation marks wrongly (a straight or a second opening "
_NISEI_MIXED += "mark closes a “, or a ” opens)"
_NISEI_LINT: dict[str, dict[str, str]] = {  # version -> record -> the one offending mark
    "1.1": {"cr:9.8.5e": "”", "cr:11.2.11b": "“"},
    "1.2": {
        "cr:11.2.4a": "”", "cr:11.2.11a": "”", "cr:11.2.20b": "“", "cr:11.2.47a": "“",
        "cr:11.2.47b": "“",
    },
    "1.4": {
        "cr:11.2.9a": "”", "cr:11.2.21a": "”", "cr:11.2.38b": "“", "cr:11.2.42a": "“",
        "cr:11.2.53a": "“", "cr:11.2.82a": "“", "cr:11.2.82b": "“", "summary-of-changes": "“",
    },
}  # fmt: skip

_NSG_DOUBLED = {
    (QUOTES, "cr:3.9.5b", "examples[0]", '"'): "the YAML doubles a closing quote "
    '(`"1[c]: +1 strength.""`)'
}
_NSG_LINT: dict[str, Artefacts] = {
    "22.12": _NSG_DOUBLED
    | {
        (BRACKETS, "cr:9.8.10", "examples[0]", "]"): 'the YAML writes `"sub] Do 1 net '
        'damage."` (a ] that closes nothing)'
    },
    **dict.fromkeys(("25.04", "26.03"), _NSG_DOUBLED),
}

_RULINGS_LINT: Artefacts = {
    (QUOTES, "ruling:01bfb3813f362b58", "answer", "“"): "a quotation never closed "
    "(`“Host icebreaker gains AI …`)",
    (QUOTES, "ruling:4ff59ceec2053655", "answer", "“"): "a second opening mark closes "
    "the quotation (`“Access →“`)",
    (QUOTES, "ruling:3b752d1f47ebfc81", "question", "”"): "a straight quote opened, a curly "
    'one closed (`"each unique connection”`)',
}

_ZERO_WIDTH = "lint-zero-width"
_RIFTBOUND_ZWSP = "the text extraction of the PDF carries U+200B zero-width spaces here"
_RIFTBOUND_ZWSP_AT = (
    ("cr:359.3.f.2", "text"), ("cr:359.3.f.2.a", "text"), ("cr:369.2", "examples[0]"),
    ("cr:477.1.b.1.a", "text"), ("cr:727.1.a.1", "examples[0]"),
)  # fmt: skip
_RIFTBOUND_LINT: Artefacts = {
    **{(_ZERO_WIDTH, rec, where, "\u200b"): _RIFTBOUND_ZWSP for rec, where in _RIFTBOUND_ZWSP_AT},
    (QUOTES, "cr:817.1.b", "text", "”"): "a straight quote opened, a curly one closed "
    '(`"When this is played, predict.”`)',
    (BRACKETS, "cr:824.1.a", "text", "["): 'a [ never closed (`"[Level [N][>] [Text]"`)',
}

_SWU_LINT: Artefacts = {
    (QUOTES, "cr:7.5.16.a", "text", "“"): "a quotation never closed "
    "(`“While playing this card, …`)",
    (QUOTES, "cr:7.6.13.c", "text", "“"): "a quotation never closed "
    "(`(e.g. “When played using Smuggle …`)",
    (QUOTES, "cr:7.6.15.a", "text", "“"): "a second opening mark closes the quotation "
    "(`“On Attack“ abilities`)",
    (QUOTES, "cr:7.6.15.b", "text", "“"): "a second opening mark closes the quotation "
    "(`If an “On Attack“ or …`)",
    (MARKUP, "cr:7.7.5.e", "examples[0]", "<Y>"): "the PDF prints `a <Y> card`, a "
    "placeholder where an aspect icon belongs",
}

# (document, version) -> the lint findings reviewed in that version (README, "Extraction-
# artefact lint", lists them by record); a review holds in any version with the same text
ARTEFACTS: dict[tuple[str, str], Artefacts] = {
    ("fab/cr", "2.14.0"): _FAB_2_14_LINT,
    ("fab/cr", "2.10.1"): _FAB_2_10_LINT,
    **_FAB_POLICY,
    **{("mtg/cr", version): entries for version, entries in _MTG_LINT.items()},
    **{
        ("netrunner/cr", version): {
            (QUOTES, record, "text", mark): _NISEI_MIXED for record, mark in marks.items()
        }
        for version, marks in _NISEI_LINT.items()
    },
    **{("netrunner/cr", version): entries for version, entries in _NSG_LINT.items()},
    **{("netrunner/rulings", v): _RULINGS_LINT for v in ("2023-03-12", "2024-01-15")},
    ("riftbound/cr", "2026-06-18"): _RIFTBOUND_LINT,
    ("swu/cr", "7.0"): _SWU_LINT,
}


def known_dangling(document: str, record: str, field: str, cited: str, digest: str) -> str | None:
    """The reviewed reason, when this dangling reference is a known defect of the document,
    found in a text (by its digest) it was reviewed in."""
    if digest not in REVIEWED_TEXTS.get((document, record, field), frozenset()):
        return None
    return _DANGLING_BY_DOCUMENT.get(document, {}).get((record, cited))


def _by_document(table: dict[tuple[str, str], dict[K, str]]) -> dict[str, dict[K, str]]:
    """The findings reviewed in any version of each document (one reason per finding)."""
    merged: dict[str, dict[K, str]] = {}
    for (document, _), entries in table.items():
        for key, reason in entries.items():
            assert merged.setdefault(document, {}).setdefault(key, reason) == reason, key
    return merged


# Where each reviewed finding (a lint finding or a dangling reference) was seen: (document,
# record id, field) -> the text_digest of every text of that field it was reviewed in.
REVIEWED_TEXTS: dict[tuple[str, str, str], frozenset[str]] = {
    ("fab/cr", "cr:1.2.3a", "examples[0]"): frozenset({"7299718869bb78ee"}),
    ("fab/cr", "cr:1.4.3a", "examples[2]"): frozenset({"abbdc39956dc9905"}),
    ("fab/cr", "cr:1.6.2c", "text"): frozenset({"c0a6b746c734027b"}),
    ("fab/cr", "cr:1.7.4j", "text"): frozenset({"f66d54a382d8272a"}),
    ("fab/cr", "cr:1.7.5c", "examples[0]"): frozenset({"5efa9ac62f7c6fab", "ae13ae6b93c3eb64"}),
    ("fab/cr", "cr:1.8.4", "text"): frozenset({"6621ddec43b93307"}),
    ("fab/cr", "cr:1.8.4d", "text"): frozenset({"c5dc0b57781beee7"}),
    ("fab/cr", "cr:1.8.7", "examples[1]"): frozenset({"0678b9c4300facb6", "f877fd6af30a17ff"}),
    ("fab/cr", "cr:1.9.1", "text"): frozenset({"628e11c8e1d735ca"}),
    ("fab/cr", "cr:4.1.7a", "text"): frozenset({"5bb11bde9843e69a"}),
    ("fab/cr", "cr:5.4.4c", "text"): frozenset({"207d1bc422fb04db"}),
    ("fab/cr", "cr:5.4.6", "text"): frozenset({"770b52b6e63ba143"}),
    ("fab/cr", "cr:6.6.1", "notes[0]"): frozenset({"f43801df94a6e572"}),
    ("fab/cr", "cr:6.6.4", "text"): frozenset({"2a63c45a4ede21bc", "85da457018f54671"}),
    ("fab/cr", "cr:6.6.5f", "examples[0]"): frozenset({"18b2503b7d6f12fa", "cee91fdb86b63664"}),
    ("fab/cr", "cr:7.2.2c", "examples[0]"): frozenset({"d2e316e5e5181b0a"}),
    ("fab/cr", "cr:7.2.4a", "text"): frozenset({"a96de4423587863f"}),
    ("fab/cr", "cr:8.3.14", "text"): frozenset({"29820ba1b29af677", "d32ec7a0eda6d977"}),
    ("fab/cr", "cr:8.4.15", "text"): frozenset({"f0df0e115da1cfbd"}),
    ("fab/cr", "cr:8.5.2a", "text"): frozenset({"2ad7e973af42a4d5"}),
    ("fab/cr", "cr:8.5.3f", "text"): frozenset({"3a09a737e2f4320f"}),
    ("fab/cr", "glossary:counters", "definition"): frozenset({"fa5d3980ccb0bbc9"}),
    ("fab/cr", "glossary:shielding-prevention-effect", "definition"): frozenset(
        {"1a6e665c842e8bb5"}
    ),
    ("fab/cr", "glossary:trigger-condition", "definition"): frozenset({"890e5d18b1006c24"}),
    ("fab/cr", "glossary:trigger-event", "definition"): frozenset({"c612752a017131d3"}),
    ("fab/cr", "glossary:triggered-effect", "definition"): frozenset({"10e71700996961df"}),
    ("fab/ppg", "ppg:3.4", "text"): frozenset({"9c24001dcd88d88c"}),
    ("fab/ppg", "ppg:3.7", "text"): frozenset({"36e6978821ae381d"}),
    ("fab/ppg", "ppg:3.8", "text"): frozenset({"f001dd1434bd6829"}),
    ("fab/trp", "trp:5.14", "text"): frozenset({"7ef7570143423081"}),
    ("fab/trp", "trp:A.6", "text"): frozenset({"3d2dd1abb3f37719"}),
    ("mtg/cr", "cr:603.6a", "text"): frozenset({"01bc8719f86d870b", "f35af5f055e77354"}),
    ("mtg/cr", "cr:606.5", "examples[0]"): frozenset({"af6c3e2dad2730aa", "f4ff0049f2f1caee"}),
    ("mtg/cr", "cr:614.1c", "text"): frozenset({"0fba0b53e80ad4a7", "1cbc84330fe129b8"}),
    ("mtg/cr", "glossary:decayed", "definition"): frozenset({"d7775583ff0d8df0"}),
    ("mtg/cr", "glossary:junk-token", "definition"): frozenset(
        {"6c473c88218c63b2", "9d0af7aeb7f629ee"}
    ),
    ("mtg/cr", "glossary:map", "definition"): frozenset({"cc9451431e413776", "f2c79653c4909e41"}),
    ("mtg/cr", "legal", "text"): frozenset({"5447f369020434b8"}),
    ("netrunner/cr", "cr:11.2.11a", "text"): frozenset({"1444ea4086f66f0f"}),
    ("netrunner/cr", "cr:11.2.11b", "text"): frozenset({"e6a122a0095369fa"}),
    ("netrunner/cr", "cr:11.2.20b", "text"): frozenset({"e6a122a0095369fa"}),
    ("netrunner/cr", "cr:11.2.21a", "text"): frozenset({"1444ea4086f66f0f"}),
    ("netrunner/cr", "cr:11.2.38b", "text"): frozenset({"e6a122a0095369fa"}),
    ("netrunner/cr", "cr:11.2.42a", "text"): frozenset({"24f081512e9ffe1d"}),
    ("netrunner/cr", "cr:11.2.47a", "text"): frozenset({"d8c015ecd5883c51"}),
    ("netrunner/cr", "cr:11.2.47b", "text"): frozenset({"8dd32592eb54c1db"}),
    ("netrunner/cr", "cr:11.2.4a", "text"): frozenset({"15acce77a5aaab34"}),
    ("netrunner/cr", "cr:11.2.53a", "text"): frozenset({"486cedabb29f0abb"}),
    ("netrunner/cr", "cr:11.2.82a", "text"): frozenset({"d8c015ecd5883c51"}),
    ("netrunner/cr", "cr:11.2.82b", "text"): frozenset({"8dd32592eb54c1db"}),
    ("netrunner/cr", "cr:11.2.9a", "text"): frozenset({"15acce77a5aaab34"}),
    ("netrunner/cr", "cr:3.9.5b", "examples[0]"): frozenset({"3c557910cdc3ce6f"}),
    ("netrunner/cr", "cr:4.8.5", "text"): frozenset({"84572f933c8f3049"}),
    ("netrunner/cr", "cr:6.7.3b", "text"): frozenset({"76fdadc30fbb2d2e"}),
    ("netrunner/cr", "cr:9.1.6a", "text"): frozenset({"437842e75ffe9838"}),
    ("netrunner/cr", "cr:9.6.13", "text"): frozenset({"5dcf0d080b62ba39"}),
    ("netrunner/cr", "cr:9.8.10", "examples[0]"): frozenset({"f42d9dc9949c2013"}),
    ("netrunner/cr", "cr:9.8.5e", "text"): frozenset({"3168d7798cb99dd9"}),
    ("netrunner/cr", "summary-of-changes", "text"): frozenset({"ec099c23ccfe8a84"}),
    ("netrunner/rulings", "ruling:01bfb3813f362b58", "answer"): frozenset({"93d7138aec7c9f52"}),
    ("netrunner/rulings", "ruling:3b752d1f47ebfc81", "question"): frozenset({"ac876c282a40f061"}),
    ("netrunner/rulings", "ruling:4ff59ceec2053655", "answer"): frozenset({"084440801befcb2a"}),
    ("riftbound/cr", "cr:359.3.f.2", "text"): frozenset({"31581814d257cb0c"}),
    ("riftbound/cr", "cr:359.3.f.2.a", "text"): frozenset({"94698d184b22f645"}),
    ("riftbound/cr", "cr:369.2", "examples[0]"): frozenset({"85e75ae67858c0d0"}),
    ("riftbound/cr", "cr:477.1.b.1.a", "text"): frozenset({"add6f4f5a57ed560"}),
    ("riftbound/cr", "cr:727.1.a.1", "examples[0]"): frozenset({"8d121fe7213011d5"}),
    ("riftbound/cr", "cr:817.1.b", "text"): frozenset({"e9e5d4d68a9a6b01"}),
    ("riftbound/cr", "cr:824.1.a", "text"): frozenset({"e99e4f82c2fb0701"}),
    ("swu/cr", "cr:7.5.16.a", "text"): frozenset({"e5603a7a94bcfa00"}),
    ("swu/cr", "cr:7.6.13.c", "text"): frozenset({"b04c24af692de058"}),
    ("swu/cr", "cr:7.6.15.a", "text"): frozenset({"20be3c8bcbb70e74"}),
    ("swu/cr", "cr:7.6.15.b", "text"): frozenset({"404c5318765b7db6"}),
    ("swu/cr", "cr:7.7.5.e", "examples[0]"): frozenset({"4e9ad7f095ac130d"}),
}

_ARTEFACTS_BY_DOCUMENT = _by_document(ARTEFACTS)
_DANGLING_BY_DOCUMENT = _by_document(REVIEWED)


def known_artefact(
    document: str, code: str, record: str, field: str, text: str, digest: str
) -> str | None:
    """The reviewed reason, when this lint finding is the publisher's own: listed for the
    document, in a text (by its digest) it was reviewed in."""
    if digest not in REVIEWED_TEXTS.get((document, record, field), frozenset()):
        return None
    return _ARTEFACTS_BY_DOCUMENT.get(document, {}).get((str(code), record, field, text))
