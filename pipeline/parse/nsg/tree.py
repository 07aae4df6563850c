"""The entries of Null Signal Games' YAML rules source, numbered as its generator numbers them.

The printed numbers are not in the YAML. The generator
(github.com/rubenpieters/netrunner-comprehensive-rules) reads the chapter files in
its fixed order and `rules_doc_generator/model/analysis/references.py` derives every
number from position:

- chapter `N` (the file's place in the list), section `N.M` (its place in the chapter);
- each element of a section's `rules` list is `N.M.K`, K counting from 1 over *all*
  elements, a `timing_structure` included (it takes a place but gets no number);
- the `rules` of a `subsection` are `N.M.Ka`, `N.M.Kb` ..., letters from `a` over the
  first 14 letters (a subsection with more would stop the generator);
- a reference names the type of its target: a chapter or section is a `section`, a
  subsection a `step` if it has `steps` else a `section`, a rule or subrule a `step`
  if its section or subsection has `steps` else a `rule`.

What the generator's YAML reader does not read is not printed, so it gets no number;
every such field is reported here as a problem (`rules` under a `rule`, a stray key, a
`new:` that holds content), never dropped in silence. Timing structures print as
nested lists labelled `1)`, `a)`, `i)`: they are kept as the section's bullets.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from pipeline.models.content import YamlBundle, YamlFile
from pipeline.parse.nsg.markup import RefInfo

# The generator's chapter list (rules_doc_generator/input/yaml/parser.py).
GENERATOR_CHAPTERS = (
    "01_game_concepts",
    "02_parts_of_a_card",
    "03_card_types",
    "04_game_zones",
    "05_turns",
    "06_runs",
    "07_access_breach",
    "08_card_manipulation",
    "09_abilities",
    "10_additional_rules",
    "11_appendix_timing_structures",
)
LETTERS = string.ascii_lowercase[:14]
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv")

# Fields the generator reads, per kind of entry (the rest it ignores).
FIELDS = {
    "chapter": {"chapter", "text", "sections", "new"},
    "section": {"section", "text", "toc_entry", "steps", "snippet", "rules", "new"},
    "rule": {"rule", "text", "examples", "new"},
    "subsection": {"subsection", "text", "toc", "steps", "snippet", "examples", "rules", "new"},
    "subrule": {"rule", "text", "examples", "new"},
    "example": {"text", "new"},
    "timing_structure": {"timing_structure", "bold", "elements"},
    "timing_element": {"text", "elements", "new"},
}
_KEY_LINE = re.compile(
    r"^[ \t]*(?:-[ \t]+)?(?:chapter|section|subsection|rule):[ \t]*(?P<key>\S+)[ \t]*$", re.M
)


@dataclass
class Problem:
    code: str
    key: str | None  # the entry it concerns
    detail: str
    line: int | None = None


@dataclass
class Entry:
    """One numbered entry with its raw (unrendered) YAML text fields."""

    key: str
    kind: str  # chapter, section, rule or subrule
    number: str
    ref_type: str
    parent: Entry | None
    line: int
    title: str | None = None  # raw markup (a chapter's is plain text)
    text: str | None = None
    snippet: str | None = None
    heading: bool = False  # a subsection with `toc`: printed as a heading
    examples: list[str] = field(default_factory=list)
    bullets: list[tuple[str, str]] = field(default_factory=list)  # (label, raw markup)
    new: bool = False

    @property
    def depth(self) -> int:
        return 1 if self.parent is None else self.parent.depth + 1


@dataclass
class Tree:
    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def ref_map(self) -> dict[str, RefInfo]:
        return {e.key: RefInfo(e.number, e.ref_type) for e in self.entries}


class _Builder:
    def __init__(self) -> None:
        self.tree = Tree()
        self.lines: dict[str, int] = {}
        self.file: YamlFile | None = None
        self.seen: set[str] = set()

    def problem(self, code: str, key: str | None, detail: str) -> None:
        self.tree.problems.append(Problem(code, key, detail, self.lines.get(key or "")))

    def line_of(self, key: str) -> int:
        assert self.file is not None
        return self.lines.get(key, self.file.start)

    def fields(self, node: object, kind: str, key: str | None) -> dict[str, object]:
        if not isinstance(node, dict):
            self.problem("bad-entry", key, f"a {kind} entry that is not a mapping: {node!r}")
            return {}
        unread = [k for k in node if k not in FIELDS[kind]]
        for name in unread:
            value = node[name]
            shown = _shown(value)
            self.problem("unknown-field", key, f"{kind} field {name!r} is not read: {shown}")
        return node

    def text(self, node: dict[str, object], name: str, key: str | None, kind: str) -> str | None:
        if name not in node:
            return None
        value = node[name]
        if not isinstance(value, str):
            self.problem("bad-entry", key, f"{kind} field {name!r} is not text: {value!r}")
            return None
        return value

    def list_of(self, node: dict[str, object], name: str, key: str | None) -> list[object]:
        value = node.get(name)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem("bad-entry", key, f"field {name!r} is not a list: {_shown(value)}")
            return []
        return value

    def new_flag(self, node: dict[str, object], key: str | None) -> bool:
        # The generator only asks whether `new` is present; content under it is lost.
        if "new" not in node:
            return False
        if node["new"] not in (None, True, ""):
            self.problem("unknown-field", key, f"'new' holds content: {_shown(node['new'])}")
        return True

    def key(self, node: dict[str, object], name: str, kind: str) -> str | None:
        value = node.get(name)
        if not isinstance(value, str) or not value.strip():
            self.problem("bad-entry", None, f"a {kind} without a {name!r} key: {_shown(node)}")
            return None
        if value in self.seen:
            self.problem("duplicate-id", value, f"{value} is defined twice")
            return None
        self.seen.add(value)
        return value

    def add(self, entry: Entry) -> Entry:
        self.tree.entries.append(entry)
        return entry

    def examples(self, node: dict[str, object], entry: Entry) -> None:
        """The entry's examples; one marked new marks the entry new."""
        key = entry.key
        for example in self.list_of(node, "examples", key):
            fields = self.fields(example, "example", key)
            entry.new = self.new_flag(fields, key) or entry.new
            text = self.text(fields, "text", key, "example")
            if text is None and fields:
                self.problem("bad-entry", key, "an example without text")
            if text and text.strip():
                entry.examples.append(text)


def _shown(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= 160 else shown[:157] + "..."


def build_tree(bundle: YamlBundle) -> Tree:
    """Every entry the generator numbers, in document order, and what it would not read."""
    builder = _Builder()
    names = tuple(f.path.rsplit("/", 1)[-1].rsplit(".", 1)[0] for f in bundle.chapters)
    # A chapter file the list does not know yet (a next release's `12_...`) is numbered in
    # file order, as the files' own numbers order them; the known ones must all be there,
    # in the generator's order.
    if tuple(n for n in names if n in GENERATOR_CHAPTERS) != GENERATOR_CHAPTERS:
        message = f"chapter files {', '.join(names)} are not the generator's list "
        message += f"({', '.join(GENERATOR_CHAPTERS)}): chapters are numbered in file order"
        builder.problem("numbering", None, message)
    for index, file in enumerate(bundle.chapters, start=1):
        builder.file = file
        builder.lines = {
            m["key"]: file.start + file.text.count("\n", 0, m.start())
            for m in _KEY_LINE.finditer(file.text)
        }
        _chapter(builder, file.data, str(index))
    return builder.tree


def _chapter(b: _Builder, node: object, number: str) -> None:
    fields = b.fields(node, "chapter", _raw_key(node, "chapter"))
    key = b.key(fields, "chapter", "chapter") if fields else None
    if key is None:
        return
    chapter = b.add(Entry(key, "chapter", number, "section", None, b.line_of(key)))
    chapter.title = b.text(fields, "text", key, "chapter")
    chapter.new = b.new_flag(fields, key)
    for s_index, section in enumerate(b.list_of(fields, "sections", key), start=1):
        _section(b, section, chapter, f"{number}.{s_index}")


def _section(b: _Builder, node: object, chapter: Entry, number: str) -> None:
    fields = b.fields(node, "section", _raw_key(node, "section"))
    key = b.key(fields, "section", "section") if fields else None
    if key is None:
        return
    section = b.add(Entry(key, "section", number, "section", chapter, b.line_of(key)))
    section.title = b.text(fields, "text", key, "section")
    section.snippet = b.text(fields, "snippet", key, "section")
    section.new = b.new_flag(fields, key)
    child_type = "step" if "steps" in fields else "rule"
    for k, element in enumerate(b.list_of(fields, "rules", key), start=1):
        if isinstance(element, dict) and "rule" in element:
            _rule(b, element, section, f"{number}.{k}", child_type)
        elif isinstance(element, dict) and "timing_structure" in element:
            _timing(b, element, section)
        elif isinstance(element, dict) and "subsection" in element:
            _subsection(b, element, section, f"{number}.{k}")
        else:
            message = f"a section element the generator cannot read: {_shown(element)}"
            b.problem("bad-entry", key, message)


def _raw_key(node: object, name: str) -> str | None:
    value = node.get(name) if isinstance(node, dict) else None
    return value if isinstance(value, str) else None


def _rule(b: _Builder, node: dict[str, object], section: Entry, number: str, kind: str) -> None:
    fields = b.fields(node, "rule", _raw_key(node, "rule"))
    key = b.key(fields, "rule", "rule")
    if key is None:
        return
    rule = b.add(Entry(key, "rule", number, kind, section, b.line_of(key)))
    rule.text = b.text(fields, "text", key, "rule")
    rule.new = b.new_flag(fields, key)
    b.examples(fields, rule)


def _subsection(b: _Builder, node: dict[str, object], section: Entry, number: str) -> None:
    fields = b.fields(node, "subsection", _raw_key(node, "subsection"))
    key = b.key(fields, "subsection", "subsection")
    if key is None:
        return
    steps = "steps" in fields
    entry = b.add(
        Entry(key, "rule", number, "step" if steps else "section", section, b.line_of(key))
    )
    entry.heading = "toc" in fields
    entry.text = b.text(fields, "text", key, "subsection")
    entry.snippet = b.text(fields, "snippet", key, "subsection")
    entry.new = b.new_flag(fields, key)
    b.examples(fields, entry)
    rules = b.list_of(fields, "rules", key)
    if not rules and (entry.snippet or entry.examples):
        # The HTML prints a subsection's snippet and examples only inside its rule list.
        message = "a subsection without rules: its snippet and examples are not printed on the "
        b.problem("unprinted-text", key, message + "web page")
    for j, sub in enumerate(rules):
        if j >= len(LETTERS):
            message = f"{key} has more than {len(LETTERS)} rules; the generator has no letter "
            b.problem("numbering", key, message + "for the rest")
            break
        _subrule(b, sub, entry, number + LETTERS[j], "step" if steps else "rule")


def _subrule(b: _Builder, node: object, parent: Entry, number: str, kind: str) -> None:
    fields = b.fields(node, "subrule", _raw_key(node, "rule") or parent.key)
    key = b.key(fields, "rule", "subrule") if fields else None
    if key is None:
        return
    entry = b.add(Entry(key, "subrule", number, kind, parent, b.line_of(key)))
    entry.text = b.text(fields, "text", key, "subrule")
    entry.new = b.new_flag(fields, key)
    b.examples(fields, entry)


def _timing(b: _Builder, node: dict[str, object], section: Entry) -> None:
    fields = b.fields(node, "timing_structure", section.key)

    def walk(items: list[object], level: int) -> None:
        for i, item in enumerate(items):
            element = b.fields(item, "timing_element", section.key)
            section.new = b.new_flag(element, section.key) or section.new
            # LaTeX's enumerate labels: \arabic*), \alph*), \roman*).
            label = (str(i + 1), string.ascii_lowercase[i % 26], ROMAN[i % len(ROMAN)])[
                min(level, 2)
            ]
            text = b.text(element, "text", section.key, "timing structure element")
            if text is None:
                b.problem("bad-entry", section.key, "a timing structure element without text")
            else:
                section.bullets.append((f"{label})", text))
            walk(b.list_of(element, "elements", section.key), level + 1)

    walk(b.list_of(fields, "elements", section.key), 0)
