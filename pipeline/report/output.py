"""What `diff` and `renumbering` print: a diff as Markdown, HTML or canonical JSON, and a
renumbering map as Markdown, CSV or canonical JSON. The read side answers with the models;
the command line renders them here."""

from __future__ import annotations

from pipeline.errors import UsageError
from pipeline.models.diffs import DocumentDiff, RenumberingMap
from pipeline.models.records import Document
from pipeline.report.html import render_html
from pipeline.report.markdown import render_markdown
from pipeline.report.renumbering import render_map_csv, render_map_markdown
from pipeline.store.canonical import canonical_json

DIFF_FORMATS = ("md", "html", "json")  # the diff command's --format choices
MAP_FORMATS = ("md", "csv", "json")  # the renumbering command's --format choices


def render_diff(
    diff: DocumentDiff,
    old: Document,
    new: Document,
    *,
    format: str = "md",
    hide_renumbering: bool = False,
    hide_reference_only: bool = False,
) -> bytes:
    """A diff of two versions as Markdown, HTML or canonical JSON (DIFF_FORMATS)."""
    if format not in DIFF_FORMATS:
        raise UsageError(f"unknown diff format {format!r}; known: {', '.join(DIFF_FORMATS)}")
    if format == "json":
        return canonical_json(diff)
    render = render_html if format == "html" else render_markdown
    shown = render(
        diff, old, new, hide_renumbering=hide_renumbering, hide_reference_only=hide_reference_only
    )
    return shown.encode("utf-8")


def render_renumbering(rmap: RenumberingMap, *, format: str = "md") -> bytes:
    """A renumbering map as Markdown, CSV or canonical JSON (MAP_FORMATS)."""
    if format not in MAP_FORMATS:
        raise UsageError(f"unknown map format {format!r}; known: {', '.join(MAP_FORMATS)}")
    if format == "json":
        return canonical_json(rmap)
    if format == "csv":
        return render_map_csv(rmap).encode("utf-8")
    return render_map_markdown(rmap).encode("utf-8")
