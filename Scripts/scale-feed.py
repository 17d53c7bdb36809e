#!/usr/bin/env python3
"""Write a large GTFS feed (a folder of .txt files) by replicating the trips of a real one.

    python3 Scripts/scale-feed.py [SRC] OUT_DIR [--stop-times N]

SRC is a GTFS .zip or folder (default: static/hart-2020.zip in the shared data folder, found
through $TRANSIT_SHARED_DATA or ../shared/data beside the project). The trips are copied k times
(k = 1..K, the smallest K giving at least N stop_times rows; default N = 5,000,000) with `_k`
appended to trip_id (and to block_id, so copies do not share vehicles); stop_times.txt and
frequencies.txt follow their trips. Every other file (agency, stops, routes, calendar,
calendar_dates, shapes, fares, ...) is copied byte for byte, service_ids unchanged.

Streaming: stop_times is read from the source once per copy and written straight out, so memory
stays flat whatever N is. When OUT_DIR already holds a complete feed made from the same source
with the same parameters (marker file .scale-feed.json), nothing is done.

Python 3 standard library only.
"""

import argparse
import csv
import hashlib
import io
import json
import math
import os
import shutil
import sys
import time
import zipfile

SCRIPT_VERSION = 1
MARKER = ".scale-feed.json"
PARTIAL = ".scale-feed.partial"
DEFAULT_SOURCE = os.path.join("static", "hart-2020.zip")
REPLICATED = ("trips.txt", "stop_times.txt", "frequencies.txt")
BUFFER = 1 << 20


def project_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_source():
    shared = os.environ.get("TRANSIT_SHARED_DATA")
    if not shared:
        shared = os.path.join(os.path.dirname(project_root()), "shared", "data")
    return os.path.join(shared, DEFAULT_SOURCE)


class Source:
    """A GTFS feed as a zip or a folder: names and binary streams of its .txt files."""

    def __init__(self, path):
        self.path = path
        if os.path.isdir(path):
            self.zip = None
            self.names = {n: os.path.join(path, n) for n in sorted(os.listdir(path)) if n.endswith(".txt")}
        else:
            self.zip = zipfile.ZipFile(path)
            self.names = {}
            for info in self.zip.infolist():
                base = info.filename.rsplit("/", 1)[-1]
                if base.endswith(".txt") and not info.is_dir() and base not in self.names:
                    self.names[base] = info.filename

    def open(self, name):
        if self.zip is None:
            return open(self.names[name], "rb")
        return self.zip.open(self.names[name])

    def reader(self, name):
        """(header, csv.reader over the remaining rows); BOM stripped, any line endings."""
        text = io.TextIOWrapper(self.open(name), encoding="utf-8-sig", newline="")
        rows = csv.reader(text)
        header = [h.strip() for h in next(rows, [])]
        return text, header, rows


def fingerprint(path):
    h = hashlib.sha256()
    if os.path.isdir(path):
        for name in sorted(os.listdir(path)):
            p = os.path.join(path, name)
            if os.path.isfile(p):
                st = os.stat(p)
                h.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        return "dir:" + h.hexdigest()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(BUFFER), b""):
            h.update(block)
    return "sha256:" + h.hexdigest()


def count_rows(src, name):
    text, _, rows = src.reader(name)
    with text:
        return sum(1 for row in rows if row)  # blank lines are not rows


def open_out(out_dir, name):
    f = open(os.path.join(out_dir, name + ".tmp"), "w", encoding="utf-8", newline="", buffering=BUFFER)
    return f, csv.writer(f, lineterminator="\n")


def close_out(out_dir, name, f):
    f.close()
    os.replace(os.path.join(out_dir, name + ".tmp"), os.path.join(out_dir, name))


def replicate(src, out_dir, name, copies, suffix_columns, progress=None):
    """Write `name` with every row repeated per copy, `_k` appended to the given columns.

    Rows are re-read from the source for each copy (never held in memory); the output is
    UTF-8 without BOM, LF line endings, blank lines dropped."""
    f, w = open_out(out_dir, name)
    written = 0
    for k in range(1, copies + 1):
        text, header, rows = src.reader(name)
        if k == 1:
            w.writerow(header)
        idx = [header.index(c) for c in suffix_columns if c in header]
        suffix = f"_{k}"
        with text:
            if len(idx) == 1:
                i = idx[0]
                for row in rows:
                    if not row:
                        continue  # blank line
                    if i < len(row):
                        row[i] += suffix
                    w.writerow(row)
                    written += 1
            else:
                for row in rows:
                    if not row:
                        continue
                    for i in idx:
                        if i < len(row) and row[i]:
                            row[i] += suffix
                    w.writerow(row)
                    written += 1
        if progress:
            progress(k, written)
    close_out(out_dir, name, f)
    return written


def dir_is_ours(out_dir):
    if not os.path.exists(out_dir):
        return True
    entries = [e for e in os.listdir(out_dir)]
    return not entries or MARKER in entries or PARTIAL in entries


def up_to_date(out_dir, params):
    try:
        with open(os.path.join(out_dir, MARKER), encoding="utf-8") as f:
            marker = json.load(f)
    except (OSError, ValueError):
        return None
    if marker.get("params") != params:
        return None
    for name, size in marker.get("files", {}).items():
        p = os.path.join(out_dir, name)
        if not os.path.isfile(p) or os.path.getsize(p) != size:
            return None
    return marker


def main():
    ap = argparse.ArgumentParser(
        description="Write a scaled GTFS feed (folder of .txt) by replicating a real feed's trips.",
        usage="%(prog)s [SRC] OUT_DIR [--stop-times N] [--force]")
    ap.add_argument("paths", nargs="+", metavar="[SRC] OUT_DIR")
    ap.add_argument("--stop-times", type=int, default=5_000_000, metavar="N",
                    help="at least this many stop_times rows (default 5,000,000)")
    ap.add_argument("--force", action="store_true",
                    help="regenerate even when OUT_DIR is up to date, and write into a folder "
                         "this script did not create")
    ap.add_argument("--quiet", "-q", action="store_true")
    args = ap.parse_args()
    if len(args.paths) > 2:
        ap.error("expected [SRC] OUT_DIR")
    src_path = args.paths[0] if len(args.paths) == 2 else default_source()
    out_dir = os.path.abspath(args.paths[-1])
    if args.stop_times < 1:
        ap.error("--stop-times must be positive")
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))

    if not os.path.exists(src_path):
        print(f"scale-feed: source feed not found: {src_path}\n"
              f"  (pass SRC, or set TRANSIT_SHARED_DATA to the folder holding {DEFAULT_SOURCE})",
              file=sys.stderr)
        return 1
    src_path = os.path.abspath(src_path)
    params = dict(script_version=SCRIPT_VERSION, source=src_path, source_fingerprint=fingerprint(src_path),
                  stop_times=args.stop_times)
    if not args.force:
        marker = up_to_date(out_dir, params)
        if marker:
            say(f"scale-feed: {out_dir} is up to date ({marker['rows']['stop_times.txt']:,} stop_times, "
                f"{marker['copies']} copies of {os.path.basename(src_path)})")
            print(out_dir)
            return 0
        if not dir_is_ours(out_dir):
            print(f"scale-feed: {out_dir} is not empty and was not written by this script; "
                  f"use --force or another folder", file=sys.stderr)
            return 1

    started = time.monotonic()
    try:
        src = Source(src_path)
    except (OSError, zipfile.BadZipFile) as e:
        print(f"scale-feed: cannot read {src_path}: {e}", file=sys.stderr)
        return 1
    for required in ("trips.txt", "stop_times.txt"):
        if required not in src.names:
            print(f"scale-feed: {src_path} has no {required}", file=sys.stderr)
            return 1

    os.makedirs(out_dir, exist_ok=True)
    for stale in (MARKER,):
        if os.path.exists(os.path.join(out_dir, stale)):
            os.remove(os.path.join(out_dir, stale))
    with open(os.path.join(out_dir, PARTIAL), "w") as f:
        f.write("generation in progress or interrupted\n")
    # a previous output may hold files this source lacks
    for name in os.listdir(out_dir):
        if (name.endswith(".txt") or name.endswith(".txt.tmp")) and name not in src.names:
            os.remove(os.path.join(out_dir, name))

    per_copy = count_rows(src, "stop_times.txt")
    if per_copy == 0:
        print(f"scale-feed: {src_path}: stop_times.txt has no rows", file=sys.stderr)
        return 1
    copies = math.ceil(args.stop_times / per_copy)
    say(f"scale-feed: {os.path.basename(src_path)} has {per_copy:,} stop_times; writing {copies} {'copy' if copies == 1 else 'copies'} "
        f"(>= {args.stop_times:,} rows) to {out_dir}")

    rows = {}
    for name in sorted(src.names):
        if name in REPLICATED:
            continue
        with src.open(name) as fin, open(os.path.join(out_dir, name + ".tmp"), "wb") as fout:
            shutil.copyfileobj(fin, fout, BUFFER)
        os.replace(os.path.join(out_dir, name + ".tmp"), os.path.join(out_dir, name))
        rows[name] = count_rows(src, name)
    rows["trips.txt"] = replicate(src, out_dir, "trips.txt", copies, ("trip_id", "block_id"))
    if "frequencies.txt" in src.names:
        rows["frequencies.txt"] = replicate(src, out_dir, "frequencies.txt", copies, ("trip_id",))

    def progress(k, written):
        say(f"  stop_times copy {k}/{copies}: {written:,} rows, {time.monotonic() - started:.1f} s")

    rows["stop_times.txt"] = replicate(src, out_dir, "stop_times.txt", copies, ("trip_id",), progress)

    files = {name: os.path.getsize(os.path.join(out_dir, name)) for name in sorted(rows)}
    marker = dict(params=params, copies=copies, rows=dict(sorted(rows.items())), files=files,
                  seconds=round(time.monotonic() - started, 1))
    with open(os.path.join(out_dir, MARKER + ".tmp"), "w", encoding="utf-8") as f:
        json.dump(marker, f, indent=2)
        f.write("\n")
    os.replace(os.path.join(out_dir, MARKER + ".tmp"), os.path.join(out_dir, MARKER))
    os.remove(os.path.join(out_dir, PARTIAL))
    say(f"scale-feed: wrote {rows['stop_times.txt']:,} stop_times, {rows['trips.txt']:,} trips "
        f"({sum(files.values()) / 1e6:.0f} MB) in {marker['seconds']} s")
    print(out_dir)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
