"""`update --notify URL`: tell a webhook what a run did, in the run summary's JSON."""

from __future__ import annotations

from pipeline.errors import FetchError
from pipeline.fetch.http import post_json
from pipeline.fetch.policy import FetchPolicy
from pipeline.jobs.outcomes import RunSummary


def send_summary(url: str, summary: RunSummary, policy: FetchPolicy) -> str | None:
    """POST the summary; a failed notification is reported, never fatal to the run."""
    try:
        post_json(url, summary.as_json(), policy)
    except FetchError as exc:
        return f"notification not delivered: {exc}"
    return None
