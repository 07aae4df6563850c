"""A registry entry is checked by its model: `Source.model_validate` refuses what the
registry's loader refuses, whoever builds the entry (the loader, `scheme`, a test), and the
loader adds the file and the entry to each refusal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomli_w
from pydantic import ValidationError

from pipeline.errors import RegistryError
from pipeline.models.sources import Source
from pipeline.registry.loader import parse_registry


def entry(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "lumen-cr-txt",
        "game": "lumen",
        "document": "lumen/cr",
        "title": "Lumen Comprehensive Rules",
        "family": "mtg-cr",
        "rendition": "txt",
        "url": "https://example.org/lumen-cr.txt",
        "primary": True,
    }
    return {k: v for k, v in {**base, **changes}.items() if v is not None}


def toml_of(fields: dict[str, Any]) -> str:
    return tomli_w.dumps({"source": [fields]})


REFUSED = {
    "an http url elsewhere": (entry(url="http://example.org/cr.txt"), "url: must be https"),
    "no url and no discovery": (entry(url=None), "needs a url or a discovery rule"),
    "a source id with a slash": (entry(id="lumen/cr"), "id: the source id may hold only"),
    "a game named like a corpus file": (entry(game="fetch", document="fetch/cr"), "game:"),
    "a document without its game": (entry(document="cr"), "exactly one `/`"),
    "a link pattern that is no regex": (
        entry(url=None, discovery={"page": "https://example.org/", "link_pattern": "(cr"}),
        "discovery.link_pattern: '(cr': not a valid regular expression",
    ),
    "a citation prefix with a colon": (entry(options={"prefix": "c:r"}), "options: prefix:"),
    "a manifest version that climbs out": (
        entry(
            manifest={
                "game": "lumen",
                "document": "cr",
                "format": "txt",
                "version_map": {"1": "../1"},
            }
        ),
        "manifest.version_map: ['1']: the version contains `..`",
    ),
    "a scheme without family numbered": (
        entry(scheme={"prefix": "cr", "levels": [{"kind": "rule"}]}),
        "family `numbered` and a [source.scheme] go together",
    ),
}


@pytest.mark.parametrize("fields, message", REFUSED.values(), ids=REFUSED.keys())
def test_the_model_refuses_what_the_registry_refuses(
    tmp_path: Path, fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError):
        Source.model_validate(fields)
    with pytest.raises(RegistryError) as caught:
        parse_registry(toml_of(fields), str(tmp_path / "sources.toml"), probe=False)
    shown = str(caught.value)
    assert str(tmp_path / "sources.toml") in shown and "lumen" in shown
    assert message in shown, shown


def test_an_unknown_family_is_named_before_anything_it_would_explain(tmp_path: Path) -> None:
    # A misspelt `numbered` with its scheme: the family is the mistake, not the scheme.
    fields = entry(family="numberd", scheme={"prefix": "cr", "levels": [{"kind": "rule"}]})
    with pytest.raises(RegistryError) as caught:
        parse_registry(toml_of(fields), "sources.toml", {"numbered", "mtg-cr"}, probe=False)
    assert "family: unknown family 'numberd' (known: mtg-cr, numbered)" in str(caught.value)
    assert "go together" not in str(caught.value)


def test_an_archive_source_needs_no_url_and_http_to_this_machine_is_allowed() -> None:
    assert Source.model_validate(entry(url=None, options={"archive_only": "true"})).url is None
    local = "http://127.0.0.1:8000/cr.txt"
    assert Source.model_validate(entry(url=local)).url == local
