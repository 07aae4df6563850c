"""One base error; each subclass carries structured fields, builds its own message,
and names the exit-code class `update` reports for it (see DESIGN.md)."""

from __future__ import annotations

import re

EXIT_OK = 0
EXIT_CHANGED = 10
EXIT_VERIFY = 20
EXIT_FETCH = 30
EXIT_PARSE = 40
EXIT_IO = 74
EXIT_LOCKED = 75
EXIT_USAGE = 2
EXIT_BUG = 70  # sysexits EX_SOFTWARE: an internal error, never a traceback (cli.app.main)


# What drives a terminal instead of printing: C0 but tab and line feed, DEL, C1 (CSI, OSC and
# the other 8-bit escapes), the bidirectional marks, embeddings, overrides and isolates that
# reorder what follows them on screen, and the line and paragraph separators. An ANSI sequence
# echoed from a document, a manifest or a file name would otherwise drive the reader's terminal.
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_BREAKS = re.compile("[\t\n]")
MESSAGE_LINE = 1500  # characters of one message line before its middle is left out (two
# long paths and the advice fit; a 120 KB echo does not)
NAME_LENGTH = 200  # a file name, a query, a manifest value: one line of a report


_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shorten(text: str, limit: int | None = MESSAGE_LINE, *, one_line: bool = False) -> str:
    """Text fit to print on a terminal: the one escape of every line that shows content or a
    name a user gave. Control characters become visible escapes (ESC as `\\x1b`, a
    right-to-left override as `\\u202e`); `one_line` escapes line feeds and tabs too, for a
    value inside a line. Each line longer than `limit` is cut in its middle, saying how much
    was left out (None: never cut, for a rule's own text)."""
    text = _CONTROL.sub(_visible, text)
    if one_line:
        text = _BREAKS.sub(_visible, text)
    if limit is None:
        return text
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if len(line) > limit:
            head, tail = line[: limit * 2 // 3], line[-(limit // 4) :]
            lines[n] = f"{head}…[{len(line) - len(head) - len(tail)} characters]…{tail}"
    return "\n".join(lines)


def _rebuild(cls: type[RulesCorpusError], message: str, state: dict[str, object]) -> Exception:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class RulesCorpusError(Exception):
    """Base of every error the pipeline raises on purpose."""

    exit_code = EXIT_USAGE
    line_limit = MESSAGE_LINE  # a message that lists names it bounds itself may say more

    def __init__(self, message: str) -> None:
        # Messages quote what the user gave (paths, citations, registry values): never
        # echo it raw.
        message = shorten(message, self.line_limit)
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        # Subclasses take structured fields, not the message: rebuild from the fields, so an
        # error raised in a parse child process reaches the parent unchanged.
        return (_rebuild, (type(self), self.message, dict(self.__dict__)))


class UsageError(RulesCorpusError):
    """Bad arguments, bad registry, unknown document: the caller must change something."""


class RegistryError(UsageError):
    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"registry {path}: {problem}")


class UnreadableInput(UsageError):
    """A file the tool was given (or an archive lists) that it will not read: not a regular
    file (a FIFO, a device, a socket, a folder), over the size cap for its use, or refused
    by the operating system. Exit 2; callers for whom it means more (an archive's file,
    exit 30) wrap it."""

    def __init__(self, path: str, problem: str, hint: str = "") -> None:
        self.path = path
        self.problem = problem
        self.hint = hint
        super().__init__(f"{path}: {problem}" + (f"; {hint}" if hint else ""))


class MisorderedCorpus(UsageError):
    """A corpus stored by a build that ordered versions by an archive's labels: writing to
    it would build on the wrong current version, so it is refused until rebuilt."""

    def __init__(self, corpus: str, problems: list[str]) -> None:
        self.corpus = corpus
        self.problems = problems
        shown = "; ".join(problems[:3]) + ("; ..." if len(problems) > 3 else "")
        super().__init__(
            f"the corpus at {corpus} orders versions by labels, not by what the documents "
            f"state ({shown}). Rebuild it from its archive into a new folder, "
            f"`rulescorpus --corpus NEW_FOLDER import ARCHIVE_DIR`, then use that folder"
        )


class SchemeError(UsageError):
    """`scheme` cannot infer a numbering from a file (not a numbered rules document): exit 2,
    the caller must bring another file or declare the scheme by hand."""

    def __init__(self, what: str, problem: str) -> None:
        self.what = what
        self.problem = problem
        super().__init__(f"{what}: {problem}")


class FetchError(RulesCorpusError):
    """A source could not be downloaded (exit 30)."""

    exit_code = EXIT_FETCH

    def __init__(self, source: str, url: str, problem: str, hint: str = "") -> None:
        self.source = source
        self.url = url
        self.problem = problem
        self.hint = hint
        msg = f"{source}: cannot fetch {url}: {problem}"
        if hint:
            msg += f" ({hint})"
        super().__init__(msg)


class DiscoveryError(FetchError):
    """The landing page did not give exactly one link for a rendition."""

    def __init__(self, source: str, page: str, pattern: str, found: list[str]) -> None:
        self.page = page
        self.pattern = pattern
        self.found = found
        what = "no link" if not found else f"{len(found)} links: " + ", ".join(found)
        super().__init__(
            source,
            page,
            f"expected exactly one link matching {pattern!r}, found {what}",
            "check the page by hand and update the discovery rule in the registry",
        )


class HashMismatch(RulesCorpusError):
    """Bytes differ from what a pin or a published checksum says (exit 20)."""

    exit_code = EXIT_VERIFY

    def __init__(self, what: str, expected: str, got: str, context: str = "") -> None:
        self.what = what
        self.expected = expected
        self.got = got
        self.context = context
        msg = f"{what}: SHA-256 mismatch\n  Expected {expected}\n       Got {got}"
        if context:
            msg += f"\n  {context}"
        super().__init__(msg)


class VerificationError(RulesCorpusError):
    """A verification rule failed for a reason other than a plain hash mismatch (exit 20)."""

    exit_code = EXIT_VERIFY

    def __init__(self, what: str, problems: list[str]) -> None:
        self.what = what
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(f"{what}: verification failed\n{lines}{more}")


class ParseError(RulesCorpusError):
    """A document could not be parsed cleanly (exit 40)."""

    exit_code = EXIT_PARSE

    def __init__(self, what: str, problem: str, line: int | None = None) -> None:
        self.what = what
        self.problem = problem
        self.line = line
        where = f" (line {line})" if line is not None else ""
        super().__init__(f"{what}{where}: {problem}")


class ExtractError(ParseError):
    """Bytes could not be turned into text (wrong encoding, not a PDF, unsafe archive)."""


class StoreError(RulesCorpusError):
    """The corpus on disk is not what the index says."""

    exit_code = EXIT_VERIFY


class StorageIOError(RulesCorpusError):
    """The operating system refused a write or read (disk full, permissions): exit 74.

    Raised before the commit point, so the corpus and its fetch records are untouched."""

    exit_code = EXIT_IO

    CORPUS_ADVICE = (
        "the corpus was left as it was. Free space or fix the permissions of that folder, "
        "then run the command again"
    )

    def __init__(self, path: str, problem: str, advice: str = CORPUS_ADVICE) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}; {advice}")


class LockHeld(RulesCorpusError):
    exit_code = EXIT_LOCKED

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(
            f"another rulescorpus run holds the lock {path}; wait for it to finish "
            "or remove the lock file if no run is alive"
        )


class UnsafeName(UsageError):
    """A name from the registry, a document or the command line that cannot be part of a
    corpus path (`../`, a separator, a control character)."""

    def __init__(self, what: str, value: str, problem: str) -> None:
        self.what = what
        self.value = value
        self.problem = problem
        super().__init__(f"{what} {value!r} cannot name a corpus file: {problem}")


class NotFound(UsageError):
    def __init__(self, what: str, hint: str = "") -> None:
        self.what = what
        super().__init__(f"{what} not found" + (f"; {hint}" if hint else ""))


class NothingMatched(UsageError):
    """An archive or mirror none of whose files any registry source takes: a run that would
    store nothing and exit 0 while the user expects their documents stored."""

    line_limit = 3 * MESSAGE_LINE  # a bounded list: each name cut, at most two of each

    def __init__(self, where: str, files: list[str], tried: list[str]) -> None:
        self.where = where
        self.files = files
        self.tried = tried
        where = shorten(where, NAME_LENGTH, one_line=True)
        files = [shorten(f, NAME_LENGTH, one_line=True) for f in files]
        super().__init__(
            f"{where}: no registry source takes any of its {len(files)} files "
            f"({_some(files, 2)}); tried {_some(tried, 2)}. Pass with --sources an entry whose "
            "manifest key is the files' game, document and format (`rulescorpus scheme FILE`; "
            "docs/adding-a-game.md)"
        )


def _some(items: list[str], shown: int = 4) -> str:
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more if items else "none"
