"""A few cases of `make faults`, so `make test` exercises the campaign's machinery (the
fault server, the real command line in its own session, the crash hook, the judge).

The full campaign (`make faults`) runs every case, every kill point of three
workloads, 200 random kills and concurrent runs; this runs in seconds.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.faults import (
    cases_disk,
    cases_network,
    cases_user_files,
    corpus_state,
    crash_campaign,
    procs,
)
from tests.faults.lab import Lab, Outcome, judge
from tests.support.helpers import ROOT


def explain(outcome: Outcome) -> str:
    return f"{outcome.name}: {outcome.problems}\n{outcome.output}"


@pytest.mark.parametrize(
    "case",
    [
        cases_network.html_error_page,
        cases_network.body_longer,
        cases_network.not_modified_corrupt_blob,
        cases_disk.manifest_climbs_out,
        cases_disk.version_json_truncated,
        cases_disk.cache_file_limit,
    ],
    ids=lambda c: c.__name__,
)
def test_fault_case_is_handled(lab: Lab, case: cases_network.Case) -> None:
    outcome = case(lab)
    assert outcome.handled, explain(outcome)
    assert outcome.got in outcome.expected


def test_regression_full_disk_during_a_commit_leaves_the_corpus_byte_identical(
    lab: Lab,
) -> None:
    # A fault-campaign finding: the commit wrote the new fetch record before the version file
    # that the full disk refused, and left it behind as an unreferenced file.
    outcome = cases_disk.corpus_file_limit(lab)
    assert outcome.got == 74, explain(outcome)
    assert not outcome.corrupt and not outcome.leftovers, explain(outcome)
    assert outcome.handled, explain(outcome)


def test_regression_a_deleted_index_does_not_delete_the_stored_versions(lab: Lab) -> None:
    # Found by the fault campaign: without index.json every stored file looked
    # unreferenced, and the next run's recovery deleted the whole history (exit 10).
    outcome = cases_disk.index_deleted(lab)
    assert outcome.got == 20 and not outcome.corrupt, explain(outcome)
    assert outcome.handled, explain(outcome)


def test_regression_a_kill_while_a_parse_is_cached_leaves_no_temporary_file(lab: Lab) -> None:
    # Found by the crash campaign: a kill inside the parse cache's write left
    # cache/parsed/<aa>/.tmp-*.json, which the cache's recovery (tmp/ only) never removed.
    outcome = cases_disk.stale_temporaries(lab)
    assert outcome.got == 0 and not outcome.leftovers, explain(outcome)


def test_the_judge_sees_a_failed_run_that_changed_the_corpus(lab: Lab, tmp_path: Path) -> None:
    # The machinery must be able to fail: a run that leaves a stray file is caught.
    dirs = lab.dirs("judge", "old")
    before = corpus_state.Snapshot.of(dirs.corpus)
    (dirs.corpus / "mtg" / "cr" / ".tmp-stray.json").write_bytes(b"{")
    result = procs.run([*dirs.args(lab.mirror_registry), "verify", "nope/doc"])
    outcome = judge("judge", "stray file", result, expected=[2], dirs=dirs, before=before)
    assert result.returncode == 2
    assert outcome.corrupt and outcome.leftovers and not outcome.handled


def test_killed_at_durable_steps_the_next_run_ends_in_the_uninterrupted_corpus(
    lab: Lab,
) -> None:
    (workload,) = [w for w in crash_campaign.workloads(lab) if w.start == "old"]
    crash_campaign.prepare(lab, workload)
    tally = crash_campaign.Tally(workload.name)
    # The first rename or fsync (the blob), one inside the commit, and past the last one.
    crash_campaign.sweep(lab, workload, tally, [1, 12, 500])
    assert tally.sweep_runs == 3
    assert tally.kill_points >= 12, "the update makes at least a dozen durable steps"
    assert not tally.corrupt, tally.corrupt
    assert not tally.leftovers, tally.leftovers
    assert not tally.crashes, tally.crashes
    assert tally.orphans == 0 and tally.hangs == 0


# --------------------------------------------------------------------------- make fuzz

WIKI_ANSWERS_OF_THE_WRONG_SHAPE = [
    b'{"query": "pages"}',
    b'{"query": {"pages": [{"title": "T", "revisions": [7]}]}}',
    b'{"query": {"pages": [{"title": "T", "pageid": "", "revisions": '
    b'[{"revid": 1, "sha1": "a", "content": "x"}]}]}}',
    b'{"parse": {"text": "<p>x</p>", "revid": {"n": 1}}}',
    b'{"format": "mediawiki-revision/1", "sha1": "a"}',
    b'{"error": "rate limited"}',
    b'{"parse": {"text": "<p>x</p>", "revid": 1e999}}',
]


@pytest.mark.parametrize("answer", WIKI_ANSWERS_OF_THE_WRONG_SHAPE)
def test_regression_fuzz_mediawiki_answer_of_the_wrong_shape_is_a_parse_error(
    answer: bytes,
) -> None:
    # make fuzz (wiki-answers) found 11 ways a malformed API answer escaped the readers
    # as KeyError, AttributeError, TypeError or ValueError: a run-ending traceback.
    from pipeline.errors import RulesCorpusError
    from pipeline.fetch import mediawiki

    for read in (
        mediawiki.read_revision_response,
        mediawiki.read_parse_response,
        mediawiki.read_bundle,
    ):
        with pytest.raises(RulesCorpusError):
            read(answer, what="wiki answer")


@pytest.mark.slow  # runs every fuzz harness
def test_every_cheap_fuzz_harness_runs_its_seeds_cleanly() -> None:
    # The harnesses without atheris: each target on each seed ends normally or in the
    # project's own error (PDF harnesses and the ones whose seeds need a PDF extraction
    # are left to make fuzz).
    from pipeline.errors import RulesCorpusError
    from tests.faults.fuzz.harnesses import HARNESSES

    cheap = [h for h in HARNESSES.values() if not h.name.endswith("-lines")]
    cheap = [h for h in cheap if not h.name.startswith("pdf-")]
    assert len(cheap) >= 14
    for harness in cheap:
        for seed in harness.seeds(Path("/nonexistent")):
            with contextlib.suppress(RulesCorpusError):
                harness.target(seed[: harness.max_len])


def test_regression_fuzz_reports_only_this_runs_findings(tmp_path: Path) -> None:
    # A finding of an earlier `make fuzz`, long fixed, was reported again by every later
    # run (the work folder persists), so `make fuzz` failed for good; and the recorder
    # skipped an old signature, so a finding that came back would not have been shown.
    # Now an earlier finding's input is replayed and reported only if it still fails.
    import importlib

    runner = importlib.import_module("tests.faults.fuzz.__main__")
    findings = tmp_path / "findings"
    findings.mkdir()
    old = '{"signature": "exception: ValueError at x.py:1", "input": "input-ab12"}\n'
    (findings / "findings.jsonl").write_text(old, encoding="utf-8")
    (findings / "input-ab12").write_bytes(b"%PDF-1.4 the input")
    runner._set_aside_earlier(findings)
    assert not (findings / "findings.jsonl").exists()
    assert (findings / "earlier.jsonl").read_text(encoding="utf-8") == old
    # its input is replayed first by the next run: found again if it still fails
    assert (tmp_path / "corpus" / "input-ab12").read_bytes() == b"%PDF-1.4 the input"
    runner._set_aside_earlier(findings)  # nothing new: nothing moves
    assert (findings / "earlier.jsonl").read_text(encoding="utf-8") == old


@pytest.mark.parametrize("seconds", ["4", "0", "ten"])
def test_regression_fuzz_too_few_seconds_is_an_error_not_a_clean_run(seconds: str) -> None:
    # `make fuzz FUZZ_SECONDS=4` started no harness (one is started only with 5 s left)
    # and printed 0 executions and 0 findings a harness, exit 0: a pass that fuzzed nothing.
    done = subprocess.run(
        [sys.executable, "-m", "tests.faults.fuzz", "manifest"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "FUZZ_SECONDS": seconds},
        timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"FUZZ_SECONDS='{seconds}'" in done.stdout and "at least 5" in done.stdout
    assert "Traceback" not in done.stderr


def test_kills_during_fix_and_export_touch_nothing_outside_what_they_may_write(
    lab: Lab,
) -> None:
    """Killed during `cite-check --fix --yes` or `export sqlite`, each file is either as it
    was or whole, nothing outside the files each may write changes, and the next complete
    run leaves no temporary file (`make faults` kills each ten times)."""
    lab.user_kills = 2
    for case in (
        cases_user_files.kills_during_cite_check_fix,
        cases_user_files.kills_during_export,
        cases_user_files.cite_check_fix_from_the_project_root,
    ):
        outcome = case(lab)
        assert outcome.handled and outcome.touched == [], explain(outcome)
