"""The gutter search tries bands only where the rows crossing the middle of the page change
(`crossing_segments`). It must find the band a search of every band, bin by bin, finds:
the same gutter and the same rows beside it, on any page."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.extract.pdfcolumns import GUTTER_SIZES, MIDDLE, MIN_ROWS, body_of, find_gutter

Span = tuple[float, float]


def gutter_bin_by_bin(
    rows: list[list[Span]], width: float, size: float
) -> tuple[float, float, int, int] | None:
    """Every band of whole bins from every start bin, each bin's crossing rows found from
    the spans directly: the widest band the most rows leave free, the first found of equals."""
    step = max(size / 8, 0.5)
    lo = MIDDLE[0] * width
    bins = max(1, int((MIDDLE[1] - MIDDLE[0]) * width / step))

    def reaches(spans: list[Span], k: int) -> bool:
        return any(
            max(0, math.floor((x0 - lo) / step)) <= k <= min(bins - 1, math.floor((x1 - lo) / step))
            for x0, x1 in spans
        )

    crossing = [
        sum(1 << i for i, spans in enumerate(rows) if reaches(spans, k)) for k in range(bins)
    ]
    text = sum(1 << i for i, spans in enumerate(rows) if spans)
    wide = math.ceil(GUTTER_SIZES * size / step)
    best: tuple[int, int, int, int] | None = None
    for start in range(bins):
        mask = 0
        for end in range(start, bins):
            mask |= crossing[end]
            body = body_of(mask, text)
            if body is None or body[1] - body[0] + 1 < 2 * MIN_ROWS:
                break
            key = (body[1] - body[0], end + 1 - start)
            if end + 1 - start >= wide and (
                best is None or key > (best[3] - best[2], best[1] - best[0])
            ):
                best = (start, end + 1, *body)
    return None if best is None else (lo + best[0] * step, lo + best[1] * step, best[2], best[3])


WIDTH = 300.0
# Spans mostly left or right of a gutter somewhere in the middle, some across it, some
# beside the middle band, so that gutters are found on many pages and missed on others.
edges = st.floats(min_value=-20, max_value=WIDTH + 20, allow_nan=False).map(lambda x: round(x, 1))
spans = st.tuples(edges, edges).map(lambda s: (min(s), max(s)))
row = st.lists(spans, max_size=4).map(sorted)


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(row, min_size=2 * MIN_ROWS, max_size=24),
    gap=st.floats(min_value=0.3, max_value=0.7),
    size=st.sampled_from([4.0, 9.5, 12.0]),
)
def test_the_gutter_is_the_one_a_search_bin_by_bin_finds(
    rows: list[list[Span]], gap: float, size: float
) -> None:
    middle = gap * WIDTH
    # most rows keep clear of a band around `middle`, as two columns do
    page = [
        [s for s in spans if s[1] < middle - 8 or s[0] > middle + 8] if i % 4 else spans
        for i, spans in enumerate(rows)
    ]
    assert find_gutter(page, WIDTH, size) == gutter_bin_by_bin(page, WIDTH, size)


def test_a_page_of_two_columns_has_its_gutter_found() -> None:
    # the property above must see gutters found, not only gutters missed
    page = [[(20.0, 130.0), (170.0, 280.0)] for _ in range(8)]
    found = find_gutter(page, WIDTH, 10.0)
    assert found is not None and found == gutter_bin_by_bin(page, WIDTH, 10.0)
    assert 130.0 <= found[0] < found[1] <= 170.0
