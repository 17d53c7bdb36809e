#!/usr/bin/env python3
"""Write a large GTFS feed (a folder of .txt files) from a real one.

    python3 Scripts/scale-feed.py [SRC] OUT_DIR [--stop-times N] [--mode networks|trips] [--split]

SRC is a GTFS .zip or folder (default: static/hart-2020.zip in the shared data folder, found
through $TRANSIT_SHARED_DATA or ../shared/data beside the project). K is the smallest number of
copies giving at least N stop_times rows (default N = 15,000,000: HART x 35, 82,215 stops).

--mode networks (the default) makes K separate networks, as a national feed holds many
agencies: in copy k every id is prefixed `ck_` (agency, stop, parent station, zone, level,
route, trip, service, block, shape, fare, pathway, transfer ends), and every stop and shape
point is moved by a whole number of degrees, copies laid out on a near-square grid with at
least 0.1 degree (> 10 km) between copies, so no two copies' stops are within walking distance
(HART: 1-degree steps, 35 copies on a 6 x 6 degree grid). Stops, routes, patterns,
services and shapes all grow with K, as they do in real national feeds. When the source's
agency.txt has no agency_id (one agency), one is added (`ck_agency`, name "NAME k") and
routes.txt gets the column too. feed_info.txt is copied once; files this script does not know
are left out (their ids could not be kept consistent).

--mode trips is the old, flattering mode: only the trips are copied (`_k` appended to trip_id
and block_id), with the source's stops, routes, shapes and calendars unchanged, so the stop
count and the stop patterns stay those of the source.

--split (networks mode) writes each copy as a feed folder of its own, OUT_DIR/c01 ... OUT_DIR/cK,
with the same ids as the single-feed layout: the "many feeds held at once" case.

Streaming: every file is read from the source once per copy and written straight out, so memory
stays flat whatever N is. When OUT_DIR already holds a complete feed made from the same source
with the same parameters (marker file .scale-feed.json), nothing is done.

Python 3 standard library only.
"""

import argparse
import csv
import decimal
import hashlib
import io
import json
import math
import os
import shutil
import sys
import time
import zipfile

SCRIPT_VERSION = 2
MARKER = ".scale-feed.json"
PARTIAL = ".scale-feed.partial"
DEFAULT_SOURCE = os.path.join("static", "hart-2020.zip")
DEFAULT_STOP_TIMES = 15_000_000
REPLICATED = ("trips.txt", "stop_times.txt", "frequencies.txt")
BUFFER = 1 << 20

# networks mode: the id columns of each file (prefixed per copy), and the coordinates (moved).
ID_COLUMNS = {
    "agency.txt": ("agency_id",),
    "stops.txt": ("stop_id", "parent_station", "zone_id", "level_id"),
    "routes.txt": ("route_id", "agency_id"),
    "trips.txt": ("route_id", "service_id", "trip_id", "block_id", "shape_id"),
    "stop_times.txt": ("trip_id", "stop_id"),
    "calendar.txt": ("service_id",),
    "calendar_dates.txt": ("service_id",),
    "shapes.txt": ("shape_id",),
    "frequencies.txt": ("trip_id",),
    "transfers.txt": ("from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id"),
    "fare_attributes.txt": ("fare_id", "agency_id"),
    "fare_rules.txt": ("fare_id", "route_id", "origin_id", "destination_id", "contains_id"),
    "pathways.txt": ("pathway_id", "from_stop_id", "to_stop_id"),
    "levels.txt": ("level_id",),
    "attributions.txt": ("attribution_id", "agency_id", "route_id", "trip_id"),
}
COORDINATES = {"stops.txt": ("stop_lat", "stop_lon"), "shapes.txt": ("shape_pt_lat", "shape_pt_lon")}
ONCE = ("feed_info.txt",)
# Copies sit this far apart at least (degrees) beyond the source's own extent: > 10 km, far
# beyond any walk.
MARGIN_DEGREES = 0.1


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

    def has_quotes(self, name):
        """Whether the file holds a double quote anywhere (else every line is one row whose
        fields split on commas)."""
        if not hasattr(self, "_quoted"):
            self._quoted = {}
        if name not in self._quoted:
            with self.open(name) as f:
                self._quoted[name] = any(b'"' in block for block in iter(lambda: f.read(BUFFER), b""))
        return self._quoted[name]

    def fast_reader(self, name):
        """As `reader`, for a file without quotes: each line split on commas (several times
        faster than the csv module; the rows are the same)."""
        text = io.TextIOWrapper(self.open(name), encoding="utf-8-sig", newline="")
        lines = (line.rstrip("\r\n") for line in text)
        header = [h.strip() for h in next(lines, "").split(",")]
        return text, header, (line.split(",") for line in lines if line)


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


# ---------------------------------------------------------------------------- trips mode

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
            for row in rows:
                if not row:
                    continue  # blank line
                for i in idx:
                    if i < len(row) and (row[i] or len(idx) == 1):
                        row[i] += suffix
                w.writerow(row)
                written += 1
        if progress:
            progress(k, written)
    close_out(out_dir, name, f)
    return written


def write_trips_mode(src, out_dir, copies, say, started):
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
    return rows, {name: os.path.getsize(os.path.join(out_dir, name)) for name in sorted(rows)}


# ---------------------------------------------------------------------------- networks mode

def extent(src):
    """(min_lat, max_lat, min_lon, max_lon) over stops and shape points."""
    lo_lat = lo_lon = math.inf
    hi_lat = hi_lon = -math.inf
    for name, (lat_col, lon_col) in COORDINATES.items():
        if name not in src.names:
            continue
        text, header, rows = src.reader(name)
        if lat_col not in header or lon_col not in header:
            continue
        a, b = header.index(lat_col), header.index(lon_col)
        with text:
            for row in rows:
                if len(row) <= max(a, b) or not row[a] or not row[b]:
                    continue
                lat, lon = float(row[a]), float(row[b])
                lo_lat, hi_lat = min(lo_lat, lat), max(hi_lat, lat)
                lo_lon, hi_lon = min(lo_lon, lon), max(hi_lon, lon)
    if lo_lat == math.inf:
        raise ValueError("stops.txt has no coordinates")
    return lo_lat, hi_lat, lo_lon, hi_lon


def layout(src, copies):
    """Whole-degree offsets (dlat, dlon) per copy: a near-square grid whose steps exceed the
    source's extent by MARGIN_DEGREES, growing away from the pole and the antimeridian."""
    lo_lat, hi_lat, lo_lon, hi_lon = extent(src)
    step_lat = math.ceil(hi_lat - lo_lat + MARGIN_DEGREES)
    step_lon = math.ceil(hi_lon - lo_lon + MARGIN_DEGREES)
    columns = math.ceil(math.sqrt(copies))
    grid_rows = math.ceil(copies / columns)
    lat_sign = 1 if hi_lat + (grid_rows - 1) * step_lat <= 80 else -1
    lon_sign = 1 if hi_lon + (columns - 1) * step_lon <= 180 else -1
    if lo_lat + lat_sign * (grid_rows - 1) * step_lat < -80 or lo_lon + lon_sign * (columns - 1) * step_lon < -180:
        raise ValueError(f"{copies} copies of a feed spanning {hi_lat - lo_lat:.2f} x {hi_lon - lo_lon:.2f} degrees "
                         "do not fit on the globe")
    return [(lat_sign * (i // columns) * step_lat, lon_sign * (i % columns) * step_lon) for i in range(copies)]


def shift(value, degrees):
    """`value` moved by whole `degrees`, keeping its decimals (Decimal: no binary noise)."""
    if not value or degrees == 0:
        return value
    try:
        return str(decimal.Decimal(value.strip()) + degrees)
    except decimal.InvalidOperation:
        return value  # left for ingest to refuse, as it would the source's


class CopyWriter:
    """Writes one file for one copy: ids prefixed, coordinates moved, agency_id added where the
    source's single agency has none."""

    def __init__(self, name, header, add_agency_id):
        self.name = name
        self.header = list(header)
        self.add_agency = add_agency_id and name in ("agency.txt", "routes.txt") and "agency_id" not in header
        if self.add_agency:
            self.header.append("agency_id")
        self.ids = [header.index(c) for c in ID_COLUMNS.get(name, ()) if c in header]
        lat_lon = COORDINATES.get(name)
        self.coords = [header.index(c) for c in lat_lon if c in header] if lat_lon else []
        self.agency_name = header.index("agency_name") if name == "agency.txt" and "agency_name" in header else None

    def rows(self, rows, k, offset):
        prefix = f"c{k}_"
        ids, width = self.ids, len(self.header) - (1 if self.add_agency else 0)
        lat_i = self.coords[0] if len(self.coords) == 2 else None
        lon_i = self.coords[1] if len(self.coords) == 2 else None
        dlat, dlon = offset
        for row in rows:
            if not row:
                continue
            for i in ids:
                if i < len(row) and row[i]:
                    row[i] = prefix + row[i]
            if lat_i is not None:
                if lat_i < len(row):
                    row[lat_i] = shift(row[lat_i], dlat)
                if lon_i < len(row):
                    row[lon_i] = shift(row[lon_i], dlon)
            if self.agency_name is not None and self.agency_name < len(row):
                row[self.agency_name] = f"{row[self.agency_name]} {k}"
            if self.add_agency:
                row = (row + [""] * (width - len(row)))[:width] + [prefix + "agency"]
            yield row


def write_networks_mode(src, out_dir, copies, split, say, started):
    offsets = layout(src, copies)
    agency_ids = []
    if "agency.txt" in src.names:
        text, header, rows = src.reader("agency.txt")
        with text:
            agencies = [row for row in rows if row]
        add_agency_id = "agency_id" not in header and len(agencies) == 1
    else:
        add_agency_id = False
    names = [n for n in sorted(src.names) if n in ID_COLUMNS or n in ONCE]
    skipped = sorted(n for n in src.names if n not in names)
    if skipped:
        say(f"scale-feed: left out (ids unknown to this script): {', '.join(skipped)}")
    # stop_times last: the biggest, reported copy by copy
    names.sort(key=lambda n: n == "stop_times.txt")
    folders = [os.path.join(out_dir, f"c{k:02d}") for k in range(1, copies + 1)] if split else [out_dir] * copies
    for folder in set(folders):
        os.makedirs(folder, exist_ok=True)
    rows_written = {}
    for name in names:
        count = 0
        out = None  # (folder, file, writer) of the file being written
        for k in range(1, copies + 1):
            folder = folders[k - 1]
            if name in ONCE and k > 1 and not split:
                break
            plain = not src.has_quotes(name)
            text, header, rows = src.fast_reader(name) if plain else src.reader(name)
            writer = CopyWriter(name, header, add_agency_id)
            if out is None or out[0] != folder:
                if out is not None:
                    close_out(out[0], name, out[1])
                f, w = open_out(folder, name)
                w.writerow(writer.header)
                out = (folder, f, w)
            with text:
                source_rows = (row for row in rows if row) if name in ONCE else writer.rows(rows, k, offsets[k - 1])
                if plain:  # no field needs quoting: nothing added holds a comma, quote or newline
                    write = out[1].write
                    for row in source_rows:
                        write(",".join(row))
                        write("\n")
                        count += 1
                else:
                    for row in source_rows:
                        out[2].writerow(row)
                        count += 1
            if name == "stop_times.txt" and (k % 5 == 0 or k == copies):
                say(f"  stop_times copy {k}/{copies}: {count:,} rows, {time.monotonic() - started:.1f} s")
        if out is not None:
            close_out(out[0], name, out[1])
        rows_written[name] = count
    files = {}
    for folder in sorted(set(folders)):
        for name in rows_written:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                files[os.path.relpath(path, out_dir)] = os.path.getsize(path)
    return rows_written, files, offsets


# ---------------------------------------------------------------------------- main

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


def clear(out_dir):
    """Removes what an earlier run wrote (feed files and copy folders), nothing else."""
    for name in os.listdir(out_dir):
        path = os.path.join(out_dir, name)
        if name.endswith(".txt") or name.endswith(".txt.tmp"):
            os.remove(path)
        elif os.path.isdir(path) and len(name) >= 3 and name[0] == "c" and name[1:].isdigit():
            shutil.rmtree(path)


def main():
    ap = argparse.ArgumentParser(
        description="Write a scaled GTFS feed (folder of .txt) from a real feed.",
        usage="%(prog)s [SRC] OUT_DIR [--stop-times N] [--mode networks|trips] [--split] [--force]")
    ap.add_argument("paths", nargs="+", metavar="[SRC] OUT_DIR")
    ap.add_argument("--stop-times", type=int, default=DEFAULT_STOP_TIMES, metavar="N",
                    help=f"at least this many stop_times rows (default {DEFAULT_STOP_TIMES:,})")
    ap.add_argument("--mode", choices=("networks", "trips"), default="networks",
                    help="networks: K separate networks, every id and coordinate per copy (default); "
                         "trips: copy only the trips of the one network")
    ap.add_argument("--split", action="store_true",
                    help="networks mode: each copy in a feed folder of its own (OUT_DIR/c01, ...)")
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
    if args.split and args.mode != "networks":
        ap.error("--split needs --mode networks")
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))

    if not os.path.exists(src_path):
        print(f"scale-feed: source feed not found: {src_path}\n"
              f"  (pass SRC, or set TRANSIT_SHARED_DATA to the folder holding {DEFAULT_SOURCE})",
              file=sys.stderr)
        return 1
    src_path = os.path.abspath(src_path)
    params = dict(script_version=SCRIPT_VERSION, source=src_path, source_fingerprint=fingerprint(src_path),
                  stop_times=args.stop_times, mode=args.mode, split=args.split)
    if not args.force:
        marker = up_to_date(out_dir, params)
        if marker:
            say(f"scale-feed: {out_dir} is up to date ({marker['rows']['stop_times.txt']:,} stop_times, "
                f"{marker['copies']} copies of {os.path.basename(src_path)}, {args.mode} mode)")
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
    for required in ("trips.txt", "stop_times.txt") + (("stops.txt",) if args.mode == "networks" else ()):
        if required not in src.names:
            print(f"scale-feed: {src_path} has no {required}", file=sys.stderr)
            return 1

    os.makedirs(out_dir, exist_ok=True)
    if os.path.exists(os.path.join(out_dir, MARKER)):
        os.remove(os.path.join(out_dir, MARKER))
    with open(os.path.join(out_dir, PARTIAL), "w") as f:
        f.write("generation in progress or interrupted\n")
    clear(out_dir)

    per_copy = count_rows(src, "stop_times.txt")
    if per_copy == 0:
        print(f"scale-feed: {src_path}: stop_times.txt has no rows", file=sys.stderr)
        return 1
    copies = math.ceil(args.stop_times / per_copy)
    say(f"scale-feed: {os.path.basename(src_path)} has {per_copy:,} stop_times; writing {copies} "
        f"{'copy' if copies == 1 else 'copies'} (>= {args.stop_times:,} rows, {args.mode} mode"
        f"{', one feed per copy' if args.split else ''}) to {out_dir}")

    offsets = None
    if args.mode == "trips":
        rows, files = write_trips_mode(src, out_dir, copies, say, started)
    else:
        try:
            rows, files, offsets = write_networks_mode(src, out_dir, copies, args.split, say, started)
        except ValueError as e:
            print(f"scale-feed: {e}", file=sys.stderr)
            return 1

    marker = dict(params=params, copies=copies, rows=dict(sorted(rows.items())), files=files,
                  seconds=round(time.monotonic() - started, 1))
    if offsets is not None:
        marker["offsets_degrees"] = offsets
        marker["feeds"] = [f"c{k:02d}" for k in range(1, copies + 1)] if args.split else ["."]
    with open(os.path.join(out_dir, MARKER + ".tmp"), "w", encoding="utf-8") as f:
        json.dump(marker, f, indent=2)
        f.write("\n")
    os.replace(os.path.join(out_dir, MARKER + ".tmp"), os.path.join(out_dir, MARKER))
    os.remove(os.path.join(out_dir, PARTIAL))
    say(f"scale-feed: wrote {rows['stop_times.txt']:,} stop_times, {rows['trips.txt']:,} trips, "
        f"{rows.get('stops.txt', 0):,} stops ({sum(files.values()) / 1e6:.0f} MB) in {marker['seconds']} s")
    print(out_dir)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
