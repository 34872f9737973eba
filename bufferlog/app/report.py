"""Batch reports: JSON, CSV and a self-contained HTML page.

* JSON: ``{"summary": {...}, "columns": [{name, type, doc}], "rows": [...]}``.
* CSV: one line per file, the columns of :data:`bufferlog.app.batch.COLUMNS` (plus the
  ``mlir_opt_*`` ones with ``--compare``); null is an empty cell; ``conflicts_by_kind``
  and ``copies_by_cause`` are JSON in their cells.
* HTML: one file, inline CSS/JS/SVG (no network), built in the browser from the embedded
  JSON (``report_template.html`` beside this module): the mlir-opt binary, version and
  command lines compared against, totals beside mlir-opt's with the deltas, labelled
  plots, where the copies come from (bytes by cause and by op pair), and a sortable table
  of key figures that fits a laptop screen, files named relative to their common
  directory, the rows whose figures differ from mlir-opt's marked (and a filter for
  them). Each file links to its page ``<OUT>_files/<name>.html``: the source,
  bufferlog's output and mlir-opt's side by side, every copy marked at its line in each
  and explained, and every figure.
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

from .batch import BatchResult, columns_for, differs_from_mlir_opt, display_name

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
    root = res.summary()["root"]
    rows = [{c.name: r.get(c.name) for c in cols} for r in res.rows]
    for r, full in zip(rows, res.rows, strict=True):
        r.update((links or {}).get(r["file"], {}))
        r["name"] = display_name(r["file"], root)
        if "mlir_opt_status" in full:
            r["differs"] = differs_from_mlir_opt(full)
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
    with ``pages``, its HTML page (:func:`file_page`). Returns file -> {"explain": link,
    "page": link} (links relative to ``out``)."""
    if not res.explains and not pages:
        return {}
    d = out.with_name(out.stem + "_files")
    d.mkdir(parents=True, exist_ok=True)
    links: dict[str, dict[str, str]] = {}
    used: set[str] = set()
    cols = columns_for(res.rows)
    summary = res.summary()
    root = summary["root"]
    for row in res.rows:
        file = row["file"]
        base = _safe_name(display_name(file, root))
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
            page = file_page(row, cols, exp, res.texts.get(file, {}), summary,
                             f"../{out.name}")
            (d / f"{name}.html").write_text(page, encoding="utf-8")
            mine["page"] = f"{d.name}/{name}.html"
        if mine:
            links[file] = mine
    return links


_LOC_POS = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_COPY = re.compile(r"\b(memref\.copy|linalg\.copy)\b")


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s)


def _loc_spans(line: str) -> list[tuple[int, int]]:
    """The [start, end) spans of the `` loc(...)`` groups of a printed line (quotes and
    nested parentheses respected)."""
    spans, i = [], 0
    while True:
        j = line.find("loc(", i)
        if j < 0:
            return spans
        if j > 0 and (line[j - 1].isalnum() or line[j - 1] in "_.%#@"):
            i = j + 4
            continue
        depth, k, quoted = 0, j + 3, False
        while k < len(line):
            ch = line[k]
            if quoted:
                if ch == "\\":
                    k += 1
                elif ch == '"':
                    quoted = False
            elif ch == '"':
                quoted = True
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        start = j - 1 if j > 0 and line[j - 1] == " " else j
        spans.append((start, k + 1))
        i = k + 1


def split_locations(text: str) -> list[tuple[str, str | None, int | None]]:
    """Each line of a module printed with ``--mlir-print-debuginfo`` as (the line without
    its locations, the cause the op's named location gives, the input line it points
    at); block arguments' locations are dropped too."""
    out = []
    for ln in text.splitlines():
        spans = _loc_spans(ln)
        if not spans:
            out.append((ln, None, None))
            continue
        last = ln[spans[-1][0]:spans[-1][1]].strip()
        inner = last[4:-1]
        cause = None
        c = re.match(r'"((?:[^"\\]|\\.)*)"\(', inner)
        if c is not None:
            cause = _unescape(c.group(1))
        pos = _LOC_POS.findall(inner)
        line = int(pos[-1][1]) if pos and ln[spans[-1][1]:].strip() == "" else None
        if ln[spans[-1][1]:].strip():
            cause = None  # the last location is a block argument's, not the op's
        kept, at = [], 0
        for a, b in spans:
            kept.append(ln[at:a])
            at = b
        kept.append(ln[at:])
        out.append(("".join(kept), cause, line))
    return out


def _copies_in(lines: list[tuple[str, str | None, int | None]]) -> list[int]:
    """Indices of the copy lines of a printed module, outside the dealloc helpers."""
    from bufferlog.backend.quality import HELPER_PREFIX

    out, helper = [], False
    for i, (text, _, _) in enumerate(lines):
        st = text.strip()
        if st.startswith("func.func"):
            helper = f"@{HELPER_PREFIX}" in st
        if not helper and _COPY.search(st) and "memref<" in st:
            out.append(i)
    return out


def _column(title: str, lines: list[tuple[str, str | None, int | None]],
            marks: dict[int, tuple[str, str]], note: str = "") -> str:
    """One text of a file page: numbered lines, the marked ones highlighted with their
    label and, on hover, their explanation."""
    body = []
    anchor = title_id(title)
    for i, (text, _, _) in enumerate(lines):
        label, why = marks.get(i, ("", ""))
        cls = ' class="mark"' if label else ""
        tag = f'<span class="tag">{html.escape(label)}</span>' if label else ""
        hover = f' title="{html.escape(why)}"' if why else ""
        body.append(f'<div{cls}{hover} id="{anchor}-{i + 1}"><span class="ln">{i + 1}</span>'
                    f'{tag}{html.escape(text)}</div>')
    empty = f'<p class="nodata">{html.escape(note)}</p>' if note else ""
    return (f'<div class="col"><h3>{html.escape(title)}</h3>{empty}'
            f'<div class="code">{"".join(body)}</div></div>')


def title_id(title: str) -> str:
    return re.sub(r"[^a-z]+", "-", title.lower()).strip("-")


def file_page(row: dict, cols: list, explanation: str | None, texts: dict | None = None,
              summary: dict | None = None, back: str = "") -> str:
    """One file's HTML page: the source, bufferlog's output and mlir-opt's side by side,
    every copy marked at its line in each (the source line it comes from, bufferlog's
    copy with its cause, mlir-opt's copies at their lines), the explanation of every
    copy, its row (every column, with its doc)."""
    def cell(v: Any) -> str:
        return "" if v is None else html.escape(json.dumps(v) if isinstance(v, dict | list) else str(v))

    texts = texts or {}
    summary = summary or {}
    name = display_name(row["file"], summary.get("root", ""))
    try:
        source = Path(row["file"]).read_text(encoding="utf-8", errors="replace")
    except OSError:
        source = None
    src_lines = [(ln, None, None) for ln in (source or "").splitlines()]
    ours = split_locations(texts.get("output") or "")
    theirs = split_locations(texts.get("mlir_opt_output") or "")
    src_marks: dict[int, tuple[str, str]] = {}
    our_marks: dict[int, tuple[str, str]] = {}
    their_marks: dict[int, tuple[str, str]] = {}
    items = []
    for k, i in enumerate(_copies_in(ours), 1):
        _, cause, line = ours[i]
        why = cause or "the input wrote this copy"
        our_marks[i] = (f"copy {k}", why)
        if line and 0 < line <= len(src_lines):
            old = src_marks.get(line - 1, ("", ""))
            src_marks[line - 1] = (", ".join(x for x in (old[0], f"copy {k}") if x),
                                   "; ".join(x for x in (old[1], f"copy {k}: {why}") if x))
        items.append(f'<li><a href="#bufferlog-output-{i + 1}">copy {k}</a> (output line {i + 1}'
                     + (f', from source line <a href="#source-{line}">{line}</a>' if line else "")
                     + f"): {html.escape(why)}</li>")
    for k, i in enumerate(_copies_in(theirs), 1):
        line = theirs[i][2]
        their_marks[i] = (f"copy {k}", f"mlir-opt's copy {k}" + (f", from source line {line}" if line else ""))
    mo = summary.get("mlir_opt") or {}
    cmp = "mlir_opt_status" in row
    their_note = ("" if theirs else
                  ("no --compare run" if not cmp else
                   f"mlir-opt: {row.get('mlir_opt_status')}" + (f": {row.get('mlir_opt_error')}"
                                                                if row.get("mlir_opt_error") else "")))
    our_note = "" if ours else (row.get("bufferize_error") or row.get("error") or
                                "no bufferized output kept for this file")
    figures = ""
    if cmp:
        diff = differs_from_mlir_opt(row)
        figures = ("<p class='diff'>differs from mlir-opt in: " + html.escape(", ".join(diff)) + "</p>"
                   if diff else "<p>same figures as mlir-opt</p>")
    pipeline = ""
    if mo:
        pipeline = (f"<p class='meta'>mlir-opt: {html.escape(str(mo.get('binary')))} "
                    f"({html.escape(str(mo.get('version') or 'version unknown'))}); its output below: "
                    f"<code>{html.escape(mo.get('pipelines', {}).get('bufferize', ''))}</code></p>")
    key = [("copies", "mlir_opt_copies"), ("bytes_copied", "mlir_opt_bytes_copied"),
           ("allocs", "mlir_opt_allocs"), ("deallocs", "mlir_opt_deallocs"),
           ("clones", "mlir_opt_clones"), ("inplace_pct", "mlir_opt_inplace_pct")]
    key_rows = "".join(f"<tr><th>{a}</th><td>{cell(row.get(a))}</td>"
                       + (f"<td>{cell(row.get(b))}</td>" if cmp else "") + "</tr>" for a, b in key)
    fields = "".join(f"<tr title=\"{html.escape(c.doc)}\"><th>{c.name}</th><td>{cell(row.get(c.name))}</td></tr>"
                     for c in cols if c.name != "copies_by_cause")
    expl = (f"<ol class='copies'>{''.join(items)}</ol>" if items else
            "<p>No copy in bufferlog's output.</p>" if ours else "")
    text_expl = (f"<details><summary>the copy explanation as text</summary><pre>"
                 f"{html.escape(explanation)}</pre></details>" if explanation else "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(name)} - bufferlog</title>
<style>body{{font:14px/1.4 system-ui,sans-serif;margin:1em;color:#222}}
h1{{font-size:1.25em;margin:.2em 0;word-break:break-all}} h2{{font-size:1.05em;margin:1em 0 .3em}}
.meta{{color:#555;font-size:12px}} .diff{{color:#a40;font-weight:bold}}
table{{border-collapse:collapse;font-size:12px}}th,td{{border:1px solid #ddd;padding:2px 6px;text-align:left}}
th{{background:#f3f3f3}} pre{{background:#f8f8f8;padding:.6em;overflow-x:auto}}
.cols{{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:8px}}
.col h3{{font-size:13px;margin:0 0 3px}} .code{{font:11px/1.35 ui-monospace,monospace;background:#fafafa;
border:1px solid #ddd;overflow:auto;max-height:80vh;white-space:pre}}
.code div{{padding-right:6px}} .ln{{display:inline-block;width:3.2em;color:#aaa;text-align:right;margin-right:6px;user-select:none}}
.mark{{background:#ffe08a}} .tag{{background:#c33;color:#fff;border-radius:3px;padding:0 3px;margin-right:4px;font-size:10px}}
.nodata{{color:#999;font-style:italic}} ol.copies li{{margin:.2em 0}}</style></head>
<body><p class="meta"><a href="{html.escape(back)}">&larr; report</a> &middot; {html.escape(row['file'])}</p>
<h1>{html.escape(name)}</h1>
<p>status <b>{html.escape(str(row.get('status')))}</b></p>{figures}{pipeline}
<table><tr><th></th><th>bufferlog</th>{'<th>mlir-opt</th>' if cmp else ''}</tr>{key_rows}</table>
<h2>Every copy of bufferlog's output, and why</h2>{expl}{text_expl}
<h2>Source, bufferlog's output, mlir-opt's output</h2>
<div class="cols">{_column("source", src_lines, src_marks, "" if source is not None else "the file cannot be read")}{_column("bufferlog output", ours, our_marks, our_note)}{_column("mlir-opt output", theirs, their_marks, their_note)}</div>
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
