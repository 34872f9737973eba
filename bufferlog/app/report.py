"""Batch reports: JSON, CSV and a self-contained HTML page.

* JSON: ``{"summary": {...}, "columns": [{name, type, doc}], "rows": [...]}``.
* CSV: one line per file, the columns of :data:`bufferlog.app.batch.COLUMNS` (plus the
  ``mlir_opt_*`` ones with ``--compare``); null is an empty cell; ``conflicts_by_kind``
  and ``copies_by_cause`` are JSON in their cells.
* HTML: one file, inline CSS/JS/SVG (no network), built in the browser from the embedded
  JSON (``report_template.html`` beside this module): totals beside mlir-opt's with the
  deltas, labelled plots, where the copies come from (bytes by cause and by op pair), and
  a sortable table of key figures that fits a laptop screen. Each file links to its page
  ``<OUT>_files/<name>.html`` (every figure, every copy with its cause).
* Every format: ``<OUT>_files/<name>.explain.txt``, the explanation of every copy of a
  file (the rows link to it).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path
from typing import Any

from bufferlog.core import UserError

from .batch import BatchResult, columns_for

TEMPLATE = Path(__file__).with_name("report_template.html")
FORMATS = ("json", "csv", "html")


def report_format(path: str | Path) -> str:
    ext = Path(path).suffix.lower().lstrip(".")
    if ext == "htm":
        ext = "html"
    if ext not in FORMATS:
        raise UserError(f"--report: unknown format '{Path(path).suffix}' (use .json, .csv or .html)")
    return ext


def to_json_obj(res: BatchResult, links: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    cols = columns_for(res.rows)
    rows = [{c.name: r.get(c.name) for c in cols} for r in res.rows]
    for r in rows:
        r.update((links or {}).get(r["file"], {}))
    return {
        "summary": res.summary(),
        "columns": [{"name": c.name, "type": c.type, "doc": c.doc} for c in cols],
        "rows": rows,
    }


def to_json(res: BatchResult) -> str:
    return json.dumps(to_json_obj(res), indent=2) + "\n"


def to_csv(res: BatchResult) -> str:
    cols = columns_for(res.rows)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([c.name for c in cols])
    for r in res.rows:
        out = []
        for c in cols:
            v = r.get(c.name)
            if v is None:
                out.append("")
            elif c.type in ("dict", "list"):
                out.append(json.dumps(v, sort_keys=True))
            elif c.type == "bool":
                out.append("true" if v else "false")
            else:
                out.append(v)
        w.writerow(out)
    return buf.getvalue()


def _safe_name(file: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", file.lstrip("./"))
    return s[-150:] or "file"


def write_file_pages(res: BatchResult, out: Path, pages: bool) -> dict[str, dict[str, str]]:
    """Into ``<out stem>_files/``: each file's copy explanation (``.explain.txt``) and,
    with ``pages``, its HTML page (every figure of its row and every copy with its
    cause). Returns file -> {"explain": link, "page": link} (links relative to ``out``)."""
    if not res.explains and not pages:
        return {}
    d = out.with_name(out.stem + "_files")
    d.mkdir(parents=True, exist_ok=True)
    links: dict[str, dict[str, str]] = {}
    used: set[str] = set()
    cols = columns_for(res.rows)
    for row in res.rows:
        file = row["file"]
        base = _safe_name(file)
        n, name = 1, base
        while name in used:
            n += 1
            name = f"{base}.{n}"
        used.add(name)
        mine: dict[str, str] = {}
        exp = res.explains.get(file)
        if exp is not None:
            (d / f"{name}.explain.txt").write_text(exp, encoding="utf-8")
            mine["explain"] = f"{d.name}/{name}.explain.txt"
        if pages:
            (d / f"{name}.html").write_text(file_page(row, cols, exp), encoding="utf-8")
            mine["page"] = f"{d.name}/{name}.html"
        if mine:
            links[file] = mine
    return links


def file_page(row: dict, cols: list, explanation: str | None) -> str:
    """One file's HTML page: its row (every column, with its doc) and its copies."""
    def cell(v: Any) -> str:
        return "" if v is None else html.escape(json.dumps(v) if isinstance(v, dict | list) else str(v))

    causes = row.get("copies_by_cause") or []
    cause_rows = "".join(
        f"<tr><td>{cell(g['kind'])}</td><td>{cell(g['writer'])}</td><td>{cell(g['reader'])}</td>"
        f"<td>{g['copies']}</td><td>{g['bytes']}{' + dynamic' if g['dynamic'] else ''}</td></tr>"
        for g in causes)
    fields = "".join(f"<tr title=\"{html.escape(c.doc)}\"><th>{c.name}</th><td>{cell(row.get(c.name))}</td></tr>"
                     for c in cols if c.name != "copies_by_cause")
    body = (f"<pre>{html.escape(explanation)}</pre>" if explanation is not None else
            "<p>No copy explanation: the file did not reach the bufferized output.</p>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(row['file'])} - bufferlog</title>
<style>body{{font:14px/1.4 system-ui,sans-serif;margin:1.2em;color:#222}}
table{{border-collapse:collapse;font-size:12px}}th,td{{border:1px solid #ddd;padding:3px 6px;text-align:left}}
th{{background:#f3f3f3}}pre{{background:#f8f8f8;padding:.6em;overflow-x:auto}}</style></head>
<body><h1>{html.escape(row['file'])}</h1>
<h2>Copies by cause</h2>
<table><tr><th>cause</th><th>writer</th><th>reader</th><th>copies</th><th>bytes</th></tr>{cause_rows}</table>
<h2>Every copy</h2>{body}
<h2>All figures</h2><table>{fields}</table>
</body></html>
"""


def to_html(res: BatchResult, links: dict[str, dict[str, str]] | None = None) -> str:
    data = json.dumps(to_json_obj(res, links))
    # Safe inside <script>: no "</" sequences, no HTML comment openers.
    data = data.replace("</", "<\\/").replace("<!--", "<\\!--")
    return TEMPLATE.read_text(encoding="utf-8").replace("/*__BATCH_DATA__*/null", data)


def write_report(res: BatchResult, path: str | Path) -> Path:
    out = Path(path)
    fmt = report_format(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        links = write_file_pages(res, out, pages=fmt == "html")
        if fmt == "json":
            text = json.dumps(to_json_obj(res, links), indent=2) + "\n"
        elif fmt == "csv":
            text = to_csv(res)
        else:
            text = to_html(res, links)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)
    except OSError as e:
        raise UserError(f"cannot write report {out}: {e.strerror or e}") from None
    return out
