"""A renumbering map -> CSV or a Markdown table. Pure.

Both list every old id that did not stay the same at the same number, in id order,
with where it lives in the newer version, the change class, how the pairing was made
and whether it is a weak one (a reader should check it).
"""

from __future__ import annotations

import csv
import io

from pipeline.models.diffs import MapEntry, RenumberingMap

CSV_COLUMNS = (
    "old_id",
    "new_id",
    "class",
    "text_change",
    "method",
    "similarity",
    "weak",
    "new_ids",
    "old_ids",
    "evidence",
)


def _new(entry: MapEntry) -> str:
    if entry.new_id is None:
        return ""
    return " + ".join(entry.new_ids) if len(entry.new_ids) > 1 else entry.new_id


def _similarity(entry: MapEntry) -> str:
    return "" if entry.similarity is None else f"{entry.similarity:.4g}"


def render_map_csv(rmap: RenumberingMap) -> str:
    """One row per entry; a removed id has an empty new_id; a split joins its ids with ' + '
    in new_id and lists them in new_ids, a merge lists every old id gathered in old_ids
    (both space-separated), so no part of a split or merge is lost."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in rmap.entries:
        writer.writerow(
            [
                e.old_id,
                _new(e),
                e.cls,
                e.text_change or "",
                e.method or "",
                _similarity(e),
                "yes" if e.weak else "",
                " ".join(e.new_ids),
                " ".join(e.old_ids),
                e.evidence or "",
            ]
        )
    return buffer.getvalue()


def map_heading(rmap: RenumberingMap) -> str:
    via = f" (via {', '.join(rmap.via[1:-1])})" if len(rmap.via) > 2 else ""
    return f"{rmap.document}: {rmap.old_version} → {rmap.new_version}{via}"


def map_rows(rmap: RenumberingMap) -> list[str]:
    """The Markdown table rows of a map (header included); weak pairings marked."""
    rows = [
        "| old | new | change | text | method | similarity |",
        "|---|---|---|---|---|---:|",
    ]
    for e in rmap.entries:
        new = f"`{_new(e)}`" if e.new_id else "—"
        method = (e.method or "") + (" ⚠ weak" if e.weak else "")
        rows.append(
            f"| `{e.old_id}` | {new} | {e.cls} | {e.text_change or ''} | {method} "
            f"| {_similarity(e)} |"
        )
    return rows


def render_map_markdown(rmap: RenumberingMap) -> str:
    moved = sum(1 for e in rmap.entries if e.new_id is not None and e.new_id != e.old_id)
    removed = sum(1 for e in rmap.entries if e.new_id is None)
    weak = sum(1 for e in rmap.entries if e.weak)
    out = [
        f"# Renumbering map, {map_heading(rmap)}",
        "",
        f"{len(rmap.entries)} old ids changed: {moved} live at a new number, {removed} were "
        f"removed, the rest changed at the same number. {weak} pairings are weak "
        "(⚠: made on similarity, subrules or position with under 0.85 of the words in "
        "common; check them). An old id not listed is unchanged.",
        "",
        *map_rows(rmap),
    ]
    if rmap.added:
        out += ["", f"New in {rmap.new_version}: " + ", ".join(f"`{a}`" for a in rmap.added)]
    return "\n".join(out) + "\n"
