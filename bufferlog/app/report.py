"""Batch reports: JSON, CSV and a self-contained HTML page.

* JSON: ``{"summary": {...}, "columns": [{name, type, doc}], "rows": [...]}``.
* CSV: one line per file, the columns of :data:`bufferlog.app.batch.COLUMNS` (plus the
  ``mlir_opt_*`` ones with ``--compare``); null is an empty cell; ``conflicts_by_kind`` is
  a JSON object in its cell.
* HTML: one file, inline CSS/JS/SVG (no network): totals, a sortable table and plots,
  built in the browser from the embedded JSON (``report_template.html`` beside this module). Per-file
  explain output goes to ``<OUT>_files/<name>.explain.txt`` (or ``.json``); the table
  links each file to it.
"""

from __future__ import annotations

import csv
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


def to_json_obj(res: BatchResult, explain_links: dict[str, str] | None = None) -> dict[str, Any]:
    cols = columns_for(res.rows)
    rows = [{c.name: r.get(c.name) for c in cols} for r in res.rows]
    if explain_links:
        for r in rows:
            if r["file"] in explain_links:
                r["explain"] = explain_links[r["file"]]
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
            elif c.type == "dict":
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


def write_explains(res: BatchResult, out: Path) -> dict[str, str]:
    """Write per-file explain output into ``<out stem>_files/``; return file -> relative
    link. Nothing is written for files without explain output."""
    if not res.explains:
        return {}
    d = out.with_name(out.stem + "_files")
    d.mkdir(parents=True, exist_ok=True)
    links: dict[str, str] = {}
    used: set[str] = set()
    for file, exp in res.explains.items():
        base = _safe_name(file)
        n, name = 1, base
        while name in used:
            n += 1
            name = f"{base}.{n}"
        used.add(name)
        if isinstance(exp, str):
            p = d / f"{name}.explain.txt"
            p.write_text(exp, encoding="utf-8")
        else:
            p = d / f"{name}.explain.json"
            p.write_text(json.dumps(exp, indent=2) + "\n", encoding="utf-8")
        links[file] = f"{d.name}/{p.name}"
    return links


def to_html(res: BatchResult, explain_links: dict[str, str] | None = None) -> str:
    data = json.dumps(to_json_obj(res, explain_links))
    # Safe inside <script>: no "</" sequences, no HTML comment openers.
    data = data.replace("</", "<\\/").replace("<!--", "<\\!--")
    return TEMPLATE.read_text(encoding="utf-8").replace("/*__BATCH_DATA__*/null", data)


def write_report(res: BatchResult, path: str | Path) -> Path:
    out = Path(path)
    fmt = report_format(out)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    links = write_explains(res, out)
    if fmt == "json":
        text = json.dumps(to_json_obj(res, links), indent=2) + "\n"
    elif fmt == "csv":
        text = to_csv(res)
    else:
        text = to_html(res, links)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out
