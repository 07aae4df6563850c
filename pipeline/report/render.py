"""A DocumentDiff -> a Markdown changelog or a self-contained HTML page (the two live in
`report.markdown` and `report.html`; this module keeps the one import path callers use)."""

from __future__ import annotations

from pipeline.report.common import group_changes, primary_id
from pipeline.report.html import anchor_ids, render_html
from pipeline.report.markdown import markdown_words, render_markdown

__all__ = [
    "anchor_ids",
    "group_changes",
    "markdown_words",
    "primary_id",
    "render_html",
    "render_markdown",
]
