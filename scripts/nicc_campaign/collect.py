"""collect.py — every finished point's summary.json in one table.

    rows, columns, failed = gather(plan, out)
    write_csv(path, columns, rows); write_sqlite(path, plan, columns, rows, failed)

Columns: point (index in the plan), id, the axes (named as their keys, values
as in the campaign file), then every number of summary.json named by its
path ("fct_slowdown.p99", "pfc.pause_frames"; booleans as 0/1). Left out:
`config` (the axes and [set] say what was set), lists (fct_hpcc buckets,
collective step times) and text fields.
"""
import csv
import os
import sqlite3
import sys

from . import points

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import nicc_results  # noqa: E402  (scripts/nicc_results.py)

SKIP = {"config"}


def flatten_summary(obj, prefix="", out=None):
    out = {} if out is None else out
    for k, v in obj.items():
        name = prefix + k
        if not prefix and k in SKIP:
            continue
        if isinstance(v, dict):
            flatten_summary(v, name + ".", out)
        elif isinstance(v, bool):
            out[name] = int(v)
        elif isinstance(v, (int, float)):
            out[name] = v
    return out


def gather(plan, out):
    axes = plan["axes"]
    rows, failed, metric_cols = [], [], []
    seen = set()
    for pt in plan["points"]:
        st = points.state(out, pt)
        if st != "done":
            if st == "failed":
                failed.append((pt, points.error_of(out, pt)))
            continue
        try:
            summary = nicc_results.load(os.path.join(points.point_dir(out, pt["id"]), "summary.json"))
        except nicc_results.SummaryError as e:
            # Unreadable (the OSError / ValueError itself) or refused by the schema (its reasons).
            failed.append((pt, "summary.json unreadable: %s" % (e.__cause__ or e)))
            continue
        m = flatten_summary(summary.data)  # every field: the whole object, by its paths
        for k in m:
            if k not in seen:
                seen.add(k)
                metric_cols.append(k)
        row = {"point": pt["index"], "id": pt["id"]}
        row.update({a: pt["values"].get(a, "") for a in axes})
        for k, v in m.items():
            row[k if k not in axes and k not in ("point", "id") else "summary." + k] = v
        rows.append(row)
    metric_cols = [k if k not in axes and k not in ("point", "id") else "summary." + k for k in metric_cols]
    columns = ["point", "id"] + list(axes) + metric_cols
    return rows, columns, failed


def write_csv(path, columns, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, restval="")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("true" if v is True else "false" if v is False else v) for k, v in r.items()})
    os.replace(tmp, path)


def sql_type(values):
    vals = [v for v in values if v != "" and v is not None]
    if vals and all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return "INTEGER"
    if vals and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return "REAL"
    return "TEXT"


def q(name):
    return '"' + name.replace('"', '""') + '"'


def write_sqlite(path, plan, columns, rows, failed):
    """Tables: runs (the merged table), axes (name, position), failed (point, id, error)."""
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    db = sqlite3.connect(tmp)
    types = {c: sql_type([r.get(c, "") for r in rows]) for c in columns}
    db.execute("CREATE TABLE runs (%s)" % ", ".join("%s %s" % (q(c), types[c]) for c in columns))
    db.executemany("INSERT INTO runs VALUES (%s)" % ", ".join("?" * len(columns)),
                   [[(None if r.get(c, "") == "" and types[c] != "TEXT" else
                      ("true" if r.get(c) is True else "false" if r.get(c) is False else r.get(c)))
                     for c in columns] for r in rows])
    db.execute("CREATE TABLE axes (name TEXT, position INTEGER)")
    db.executemany("INSERT INTO axes VALUES (?, ?)", [(a, i) for i, a in enumerate(plan["axes"])])
    db.execute("CREATE TABLE failed (point INTEGER, id TEXT, %s error TEXT)"
               % "".join("%s TEXT, " % q(a) for a in plan["axes"]))
    db.executemany("INSERT INTO failed VALUES (%s)" % ", ".join("?" * (3 + len(plan["axes"]))),
                   [[pt["index"], pt["id"]] + [str(pt["values"].get(a, "")) for a in plan["axes"]] + [err]
                    for pt, err in failed])
    db.commit()
    db.close()
    os.replace(tmp, path)
