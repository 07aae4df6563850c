"""When each stored version of a document came out, as the site's pages and feeds say."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from pipeline.corpus import CorpusReader
from pipeline.corpus.site_queries import version_retrieval

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def version_times(reader: CorpusReader, document: str, versions: list[str]) -> dict[str, str]:
    """When each version (oldest first) came out, as an RFC 3339 timestamp: the date it
    states (published, else effective), else when the corpus first stored its bytes;
    never later than a later version's time, so a version stored long after it came out
    still sorts below the versions that followed it. Read from the corpus, so the same
    corpus gives the same times however often the site is rebuilt."""
    stated = {v.version: (v.published, v.effective) for v in reader.versions(document)}
    times: dict[str, str] = {}
    later: datetime | None = None
    for version in reversed(versions):
        own = next((d for d in stated.get(version, ()) if d and _DATE.match(d)), None)
        if own is not None:
            when = datetime.fromisoformat(f"{own}T00:00:00+00:00")
        else:
            retrieved = version_retrieval(reader, document, version).retrieved
            when = datetime.fromisoformat(retrieved.replace("Z", "+00:00")) if retrieved else EPOCH
            if later is not None and when >= later:
                when = later - timedelta(seconds=1)
        later = when if later is None else min(when, later)
        times[version] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    return times
