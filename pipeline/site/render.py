"""The Jinja2 environment the site's pages are rendered with: templates and the stylesheet
are package data; autoescaping is on for every page and feed, so no text of a document is
ever read by a browser as markup."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("pipeline.site", "templates"),
        autoescape=select_autoescape(["html", "atom"], default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["thousands"] = lambda n: f"{n:,}"
    return env


def render_page(template: str, context: dict[str, Any]) -> bytes:
    return environment().get_template(template).render(context).encode("utf-8")


def read_asset(name: str) -> bytes:
    """A file of the site's own (its stylesheet, the search page's script) as shipped."""
    return (files("pipeline.site") / "assets" / name).read_bytes()
