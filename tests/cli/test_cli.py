"""The command line over the real documents: parse, show, exit codes, schema."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from pipeline.cli.commands import app
from pipeline.errors import EXIT_PARSE
from pipeline.models.records import Document
from pipeline.models.schemas import render_schemas
from pipeline.runner.collector import THRESHOLDS
from pipeline.store.canonical import canonical_json
from pipeline.verify.checks import sha256_bytes
from tests.support.helpers import ROOT, SHARED

FAB = SHARED / "fab/comprehensive-rules/2.14.0/en-fab-cr.txt"
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_parse_fab_text_gives_the_documented_counts() -> None:
    code, out, err = invoke("parse", str(FAB), "--family", "fab-cr", "--version", "2.14.0")
    doc = json.loads(out)
    assert (doc["game"], doc["document"], doc["version"]) == ("fab", "fab/cr", "2.14.0")
    kinds = [r["kind"] for r in doc["records"]]
    assert len(kinds) == 1278
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "chapter": 9,
        "section": 87,
        "rule": 548,
        "subrule": 634,
    }
    assert len(doc["glossary"]) == 295
    grep = {m for m in re.findall(r"^(\d+\.\d+\.\d+[a-z]?) ", FAB.read_text(), re.M)}
    assert len(grep) == 1182 and grep <= {r["number"] for r in doc["records"]}
    # Zero warnings; the publisher's own dangling references (sections 5.5 and 4.6 do not
    # exist in 2.14.0) are reviewed errata, recorded on the document and noted on stderr.
    assert doc["warnings"] == [] and code == 0
    dangling = {e["cites"] for e in doc["publisher_errata"] if e["code"] is None}
    assert dangling == {"cr:5.5", "cr:4.6"}
    # and so are the lint's findings reviewed in 2.14.0 (parse/errata.py ARTEFACTS)
    assert {e["code"] for e in doc["publisher_errata"]} - {None} == {
        "lint-doubled-space",
        "lint-unbalanced-quotes",
        "lint-empty-operand",
        "lint-unbalanced-brackets",
    }
    assert "note: reviewed publisher defect: cr:4.1.7a [lint-empty-operand] text has" in err
    assert "note: reviewed publisher defect: cr:1.6.2c cites cr:5.5" in err
    assert doc["source"] == {
        "url": None,
        "sha256": doc["source"]["sha256"],
        "bytes": FAB.stat().st_size,
        "rendition": "txt",
    }


def test_parse_output_is_byte_identical_across_runs() -> None:
    first = invoke("parse", str(FAB), "--family", "fab-cr", "--version", "2.14.0")[1]
    second = invoke("parse", str(FAB), "--family", "fab-cr", "--version", "2.14.0")[1]
    assert first == second and first.endswith("}\n")


def test_parse_prints_the_json_the_corpus_would_store() -> None:
    # The sandbox's child writes it (runner.local_file.as_file); read back and written out
    # again, as the corpus writes a Document, it must be the very same bytes.
    code, out, _err = invoke("parse", str(FAB), "--family", "fab-cr", "--version", "2.14.0")
    doc = Document.model_validate_json(out)
    assert code == 0 and canonical_json(doc) == out.encode("utf-8")
    assert doc.source is not None and doc.source.sha256 == sha256_bytes(FAB.read_bytes())
    assert doc.renditions == [doc.source] and doc.source.url is None


def test_parse_without_a_version_warns_and_leaves_it_null() -> None:
    code, out, err = invoke("parse", str(FAB), "--family", "fab-cr")
    doc = json.loads(out)
    assert doc["version"] is None and code == EXIT_PARSE
    assert "no-version" in {w["code"] for w in doc["warnings"]}
    assert "no-version" in err


def test_unknown_family_is_a_clear_usage_error() -> None:
    code, _out, err = invoke("parse", str(FAB), "--family", "nope")
    assert code == 2 and "unknown family 'nope'" in err and "fab-cr" in err


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "absent.txt"
    code, _out, err = invoke("parse", str(missing), "--family", "fab-cr")
    assert code == 2 and str(missing) in err


def test_sources_lists_the_registry() -> None:
    code, out, _err = invoke("sources", "--json")
    ids = {s["id"] for s in json.loads(out)}
    assert code == 0
    assert {
        "fab-cr-txt",
        "fab-cr-pdf",
        "fab-trp-txt",
        "fab-ppg-txt",
        "mtg-cr-txt",
        "mtg-cr-pdf",
        "netrunner-cr-pdf",
        "netrunner-rulings",
        "riftbound-cr-pdf",
    } <= ids


def test_a_broken_registry_names_the_file_and_entry(tmp_path: Path) -> None:
    bad = tmp_path / "sources.toml"
    bad.write_text('[[source]]\nid = "x"\ngame = "fab"\n')
    code, _out, err = invoke("--sources", str(bad), "sources")
    assert code == 2 and str(bad) in err and "source x" in err


def test_show_without_a_corpus_says_what_is_missing(tmp_path: Path) -> None:
    code, _out, err = invoke("--corpus", str(tmp_path), "show", "cr:1.0.1", "--doc", "fab/cr")
    assert code == 2 and str(tmp_path) in err and "holds no document" in err


def test_schemas_in_the_repository_match_the_models() -> None:
    folder = ROOT / "schemas"
    for name, data in render_schemas().items():
        assert (folder / name).read_bytes() == data, f"run `rulescorpus schema` ({name} drifted)"


@pytest.mark.parametrize("name", sorted(render_schemas()))
def test_schemas_are_valid_json_schema(name: str) -> None:
    schema = json.loads(render_schemas()[name])
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_diff_and_map_format_choices_are_the_jobs_formats() -> None:
    # The commands' enums are written out so `--help` loads no diff engine; the jobs that
    # render refuse any other format, so the two lists must be the same.
    from pipeline.cli.read_commands import DiffFormat
    from pipeline.cli.renumbering_commands import MapFormat
    from pipeline.report.output import DIFF_FORMATS, MAP_FORMATS

    assert {f.value for f in DiffFormat} == set(DIFF_FORMATS)
    assert {f.value for f in MapFormat} == set(MAP_FORMATS)


def test_the_command_line_runs_with_the_collectors_thresholds() -> None:
    # An import holds whole Documents; at CPython's defaults the collector's full passes
    # over them were a quarter of its serial phase (pipeline/runner/collector.py).
    code = (
        "import gc, sys\n"
        "from pipeline.cli.app import main\n"
        "sys.argv = ['rulescorpus', 'sources', '--help']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(gc.get_threshold(), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stderr.strip().splitlines()[-1] == str(THRESHOLDS)
    assert THRESHOLDS[0] > 700  # above CPython's default, or the module does nothing
