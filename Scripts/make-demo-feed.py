#!/usr/bin/env python3
"""Generate the fictional "Tallaght Demo Transit" GTFS feed into Data/gtfs/.

The network is made up (stop positions follow real Tallaght-area streets only roughly), so
it can be shipped and changed freely. The output is deterministic: no clock, no randomness,
fixed float formatting, so running the script twice gives byte-identical files.

    python3 Scripts/make-demo-feed.py            # writes Data/gtfs/*.txt
    python3 Scripts/make-demo-feed.py --out DIR  # somewhere else

Python 3 standard library only. Data/README.md lists the ids that tests rely on.
"""

import argparse
import csv
import io
import math
import os
import sys

GENERATOR_VERSION = "tdt-demo-1"  # bump when the output changes; written as feed_version

AGENCY_ID = "TDT"
TIMEZONE = "Europe/Dublin"
START_DATE, END_DATE = "20260101", "20271231"

# --------------------------------------------------------------------------------------
# Stops: (stop_id, stop_code, name, lat, lon, wheelchair_boarding)
# wheelchair_boarding: "1" accessible, "2" not accessible, "" unknown.
# --------------------------------------------------------------------------------------
STATION = ("TINT", "", "Tallaght Interchange", 53.28760, -6.37500, "1")
PLATFORMS = [  # (stop_id, code, platform_code, lat, lon)
    ("TINT-A", "4500", "A", 53.28772, -6.37470),
    ("TINT-B", "4501", "B", 53.28748, -6.37462),
    ("TINT-C", "4502", "C", 53.28760, -6.37548),
]

BUS_STOPS = [
    # route 27: Crumlin Hospital -> Tallaght Interchange
    ("TD4521", "4521", "Crumlin Hospital", 53.32620, -6.31780, "1"),
    ("TD4522", "4522", "Crumlin Village", 53.32280, -6.31100, "1"),
    ("TD4523", "4523", "Kimmage Cross Roads", 53.31990, -6.29600, ""),
    ("TD4524", "4524", "Kimmage Road West", 53.31600, -6.30500, "2"),
    ("TD4525", "4525", "Greenhills Road", 53.30850, -6.33000, "1"),
    ("TD4526", "4526", "Tymon Park (Páirc Thíomóin)", 53.30350, -6.34300, ""),
    ("TD4527", "4527", "Kilnamanagh", 53.30000, -6.35400, "1"),
    ("TD4528", "4528", "Tallaght Village", 53.29050, -6.35850, "1"),
    ("TD4529", "4529", "Main Road, Tallaght Village", 53.28850, -6.36400, "2"),
    ("TD4530", "4530", "Tallaght (The Square)", 53.28620, -6.37050, "1"),
    # route 77X: Tallaght Interchange -> Citywest Campus
    ("TD4540", "4540", "Tallaght Hospital", 53.29060, -6.37900, "1"),
    ("TD4541", "4541", "Cookstown Way", 53.29450, -6.38800, ""),
    ("TD4542", "4542", "Fettercairn", 53.29250, -6.39850, "1"),
    ("TD4543", "4543", "Brookfield", 53.28700, -6.39750, "2"),
    ("TD4544", "4544", "Jobstown", 53.28000, -6.40900, "1"),
    ("TD4545", "4545", "Citywest Road", 53.28300, -6.41750, ""),
    ("TD4546", "4546", "Fortunestown Lane", 53.28500, -6.42400, "1"),
    ("TD4547", "4547", "Citywest Campus", 53.29050, -6.42300, "1"),
    # route 49: Tallaght Interchange -> Templeogue Village
    ("TD4550", "4550", "Tamhlacht (Sráid Mhór)", 53.28540, -6.36300, "1"),
    ("TD4551", "4551", "Old Bawn", 53.27850, -6.36900, ""),
    ("TD4552", "4552", "Old Bawn Road", 53.28000, -6.35600, "1"),
    ("TD4553", "4553", "Knocklyon (Cnoc Léin)", 53.28100, -6.33200, "2"),
    ("TD4554", "4554", "Firhouse Road", 53.28450, -6.32800, "1"),
    ("TD4555", "4555", "Spawell", 53.29200, -6.31700, ""),
    ("TD4556", "4556", "Templeogue Village", 53.29500, -6.30630, "1"),
    # route 54A: Killinarden -> Kingswood (Belgard Road has one stop each side of the road)
    ("TD4560", "4560", "Killinarden", 53.27250, -6.38800, "1"),
    ("TD4561", "4561", "Kiltipper Way", 53.27450, -6.37700, ""),
    ("TD4562", "4562", "Ellensborough", 53.27800, -6.38000, "1"),
    ("TD4563", "4563", "Tallaght Stadium", 53.28200, -6.37900, "1"),
    ("TD4564", "4564", "Belgard Road", 53.29500, -6.37180, "1"),
    ("TD4565", "4565", "Belgard Road", 53.29490, -6.37215, "2"),
    ("TD4566", "4566", "Airton Road", 53.29900, -6.36400, ""),
    ("TD4567", "4567", "Kingswood Drive", 53.30300, -6.37000, "1"),
]

TRAM_STOPS = [  # Red line, Tallaght -> Suir Road; every tram stop is step-free
    ("RED02", "5002", "Hospital", 53.28960, -6.37890, "1"),
    ("RED03", "5003", "Cookstown", 53.29340, -6.38440, "1"),
    ("RED04", "5004", "Belgard", 53.29910, -6.37470, "1"),
    ("RED05", "5005", "Kingswood", 53.30360, -6.36520, "1"),
    ("RED06", "5006", "Red Cow", 53.31680, -6.36970, "1"),
    ("RED07", "5007", "Kylemore", 53.32670, -6.34380, "1"),
    ("RED08", "5008", "Bluebell", 53.32930, -6.33390, "1"),
    ("RED09", "5009", "Blackhorse", 53.33420, -6.32740, "1"),
    ("RED10", "5010", "Drimnagh", 53.33540, -6.31790, "1"),
    ("RED11", "5011", "Suir Road", 53.33650, -6.30710, "1"),
]

# --------------------------------------------------------------------------------------
# Routes. Each has the direction-0 stop list; direction 1 is the reverse unless
# `dir1_stops` is given. `timepoint_every` > 0 leaves intermediate stops untimed except
# every n-th one (timepoint=0, empty times) so ingest has to interpolate.
# --------------------------------------------------------------------------------------
ROUTES = [
    dict(route_id="R27", short="27", long="Crumlin Hospital - Tallaght Interchange", type=3,
         color="F6A800", text="000000", speed_kmh=19.0, timepoint_every=0,
         headsigns=("Tallaght Interchange", "Crumlin Hospital"),
         stops=["TD4521", "TD4522", "TD4523", "TD4524", "TD4525", "TD4526", "TD4527",
                "TD4528", "TD4529", "TD4530", "TINT-A"]),
    dict(route_id="R49", short="49", long="Tallaght Interchange - Templeogue Village", type=3,
         color="00843D", text="FFFFFF", speed_kmh=20.0, timepoint_every=3,
         headsigns=("Templeogue Village", "Tallaght Interchange"),
         stops=["TINT-B", "TD4530", "TD4550", "TD4551", "TD4552", "TD4553", "TD4554",
                "TD4555", "TD4556"]),
    dict(route_id="R54A", short="54A", long="Killinarden - Kingswood", type=3,
         color="0072CE", text="FFFFFF", speed_kmh=18.0, timepoint_every=3,
         headsigns=("Kingswood", "Killinarden"), layover=("TINT-B",),
         stops=["TD4560", "TD4561", "TD4562", "TD4563", "TINT-B", "TD4540", "TD4564",
                "TD4566", "TD4567"],
         dir1_stops=["TD4567", "TD4566", "TD4565", "TD4540", "TINT-B", "TD4563", "TD4562",
                     "TD4561", "TD4560"]),
    dict(route_id="R77X", short="77X", long="Tallaght Interchange - Citywest Campus (Express)",
         type=3, color="8E2C90", text="FFFFFF", speed_kmh=24.0, timepoint_every=0,
         headsigns=("Citywest Campus", "Tallaght Interchange"),
         stops=["TINT-A", "TD4540", "TD4541", "TD4542", "TD4543", "TD4544", "TD4545",
                "TD4546", "TD4547"]),
    dict(route_id="RED", short="Red", long="Tallaght - Suir Road", type=0,
         color="E4002B", text="FFFFFF", speed_kmh=24.0, timepoint_every=0,
         headsigns=("Suir Road", "Tallaght"),
         stops=["TINT-C"] + [s[0] for s in TRAM_STOPS]),
]

SERVICES = ["WK", "SA", "SU"]  # Mon-Fri, Saturday, Sunday

# Start times at the first stop: {route: {service: [(from, to, headway_min), ...]}}.
# `to` is exclusive. Late extra departures (past midnight) are in LATE_STARTS.
SCHEDULES = {
    "R27": {"WK": [("06:00", "07:00", 30), ("07:00", "09:30", 20), ("09:30", "16:00", 40),
                   ("16:00", "19:00", 20), ("19:00", "23:01", 60)],
            "SA": [("07:00", "23:01", 60)],
            "SU": [("08:00", "23:01", 90)]},
    "R49": {"WK": [("06:30", "09:30", 30), ("09:30", "16:00", 45), ("16:00", "19:00", 30),
                   ("19:00", "23:01", 60)],
            "SA": [("07:30", "23:01", 60)],
            "SU": [("09:00", "22:01", 90)]},
    "R54A": {"WK": [("06:15", "20:00", 45), ("20:00", "23:01", 60)],
             "SA": [("07:15", "22:01", 75)],
             "SU": [("09:15", "21:01", 120)]},
    "R77X": {"WK": [("07:05", "09:36", 30), ("16:05", "19:06", 30)],
             "SA": [("10:05", "18:06", 120)],
             "SU": []},
}
LATE_STARTS = {  # after-midnight departures (service day of the evening before)
    "R27": {"WK": ["23:40", "24:15", "25:05"], "SA": ["24:15", "25:05"]},
    "R77X": {"WK": ["23:50", "24:30"], "SA": ["24:30"]},
}

# Tram: one template trip per direction and service, run by frequencies.txt.
TRAM_WINDOWS = {  # service: [(start, end, headway_secs)]
    "WK": [("05:30:00", "19:00:00", 600), ("19:00:00", "24:30:00", 900)],
    "SA": [("06:30:00", "19:00:00", 600), ("19:00:00", "24:30:00", 900)],
    "SU": [("07:00:00", "19:00:00", 600), ("19:00:00", "24:00:00", 900)],
}

HOLIDAYS = [  # (date, service removed, service added)
    ("20261225", "WK", "SU"),  # Christmas Day (a Friday)
    ("20261226", "WK", "SU"),  # St Stephen's Day (a Saturday: WK is not running anyway ...
    ("20261226", "SA", "SU"),  # ... so the Saturday service is removed too)
    ("20270317", "WK", "SU"),  # St Patrick's Day (a Wednesday)
]

BLOCK_ID = "B1"  # weekday vehicle: 27 -> 77X -> 77X -> 27, changing route at Tallaght Interchange
BLOCK_AROUND = "08:00"  # the first 27 trip of the block arrives at TINT-A nearest this time


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------
def hms(seconds):
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{s:02d}"


def parse_hm(text):
    parts = [int(p) for p in text.split(":")]
    while len(parts) < 3:
        parts.append(0)
    return parts[0] * 3600 + parts[1] * 60 + parts[2]


def haversine(a, b):
    r = 6371008.8
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * r * math.asin(math.sqrt(h))


def coord(x):
    return f"{x:.6f}"


def write_csv(out_dir, name, header, rows):
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    data = buf.getvalue().encode("utf-8")
    path = os.path.join(out_dir, name)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return len(rows), len(data)


def all_stops():
    stops = {}
    sid, code, name, lat, lon, wc = STATION
    stops[sid] = dict(code=code, name=name, lat=lat, lon=lon, wc=wc, type="1", parent="", platform="")
    for sid, code, plat, lat, lon in PLATFORMS:
        stops[sid] = dict(code=code, name=STATION[2], lat=lat, lon=lon, wc="1", type="0",
                          parent=STATION[0], platform=plat)
    for sid, code, name, lat, lon, wc in BUS_STOPS + TRAM_STOPS:
        stops[sid] = dict(code=code, name=name, lat=lat, lon=lon, wc=wc, type="0", parent="", platform="")
    return stops


def shape_points(stop_ids, stops):
    """Polyline through the stops with two bend points between each pair.

    The bends depend only on the unordered stop pair, so both directions follow the same road.
    Returns (points, index of each stop in points)."""
    pts, stop_idx = [], []
    for i, sid in enumerate(stop_ids):
        a = (stops[sid]["lat"], stops[sid]["lon"])
        stop_idx.append(len(pts))
        pts.append(a)
        if i + 1 == len(stop_ids):
            break
        b = (stops[stop_ids[i + 1]]["lat"], stops[stop_ids[i + 1]]["lon"])
        lo, hi = (a, b) if sid < stop_ids[i + 1] else (b, a)
        # perpendicular unit-ish vector in degrees (lon scaled by cos(lat))
        k = math.cos(math.radians(lo[0]))
        dy, dx = hi[0] - lo[0], (hi[1] - lo[1]) * k
        length = math.hypot(dx, dy) or 1.0
        px, py = -dy / length, dx / length
        seed = sum(ord(c) for c in sid + stop_ids[i + 1])
        amp = 0.00015 + 0.00005 * (seed % 4)  # 17-39 m off the straight line
        sign = 1 if seed % 2 else -1
        for frac, f in ((1 / 3, 1.0), (2 / 3, -0.6)):
            lat = lo[0] + (hi[0] - lo[0]) * frac + sign * f * amp * py
            lon = lo[1] + (hi[1] - lo[1]) * frac + sign * f * amp * px / k
            pts.append((lat, lon))
        if lo is not a:  # the bends were computed from the other end: restore travel order
            pts[-2], pts[-1] = pts[-1], pts[-2]
    # round once so that stored coordinates and distances agree
    pts = [(round(p[0], 6), round(p[1], 6)) for p in pts]
    return pts, stop_idx


# --------------------------------------------------------------------------------------
# Build
# --------------------------------------------------------------------------------------
def build(out_dir):
    stops = all_stops()
    routes_rows, trips_rows, st_rows, shapes_rows, freq_rows = [], [], [], [], []
    trip_meta = {}  # trip_id -> dict(route, service, dir, first, last, start, end, stops)

    for r in ROUTES:
        routes_rows.append([r["route_id"], AGENCY_ID, r["short"], r["long"], r["type"],
                            r["color"], r["text"]])
        for direction in (0, 1):
            seq = r["stops"] if direction == 0 else r.get("dir1_stops", list(reversed(r["stops"])))
            shape_id = f"{r['route_id']}_{direction}"
            pts, stop_idx = shape_points(seq, stops)
            dist = [0.0]
            for p, q in zip(pts, pts[1:]):
                dist.append(dist[-1] + haversine(p, q))
            dist = [round(d, 1) for d in dist]
            for i, (p, d) in enumerate(zip(pts, dist)):
                shapes_rows.append([shape_id, coord(p[0]), coord(p[1]), i + 1, f"{d:.1f}"])
            stop_dist = [dist[i] for i in stop_idx]

            # running-time offsets from the first stop, whole minutes, strictly increasing
            speed = r["speed_kmh"] / 3.6
            dwell = 20 if r["type"] == 3 else 25
            # (arrival, departure) pairs; a layover stop departs one minute after arriving
            offsets, t = [(0, 0)], 0.0
            for i in range(1, len(seq)):
                t += (stop_dist[i] - stop_dist[i - 1]) / speed + dwell
                arr = max(offsets[-1][1] + 60, int(round(t / 60.0)) * 60)
                dep = arr
                if seq[i] in r.get("layover", ()) and 0 < i < len(seq) - 1:
                    dep = arr + 60
                    t += 60
                offsets.append((arr, dep))

            if r["type"] == 0:
                for service in SERVICES:
                    windows = TRAM_WINDOWS[service]
                    start = parse_hm(windows[0][0])
                    trip_id = f"{r['short']}-{service}-{direction}-template"
                    trips_rows.append([r["route_id"], service, trip_id, r["headsigns"][direction],
                                       direction, "", shape_id, "1"])
                    emit_stop_times(st_rows, trip_id, r, seq, stops, start, offsets, stop_dist)
                    for ws, we, hw in windows:
                        freq_rows.append([trip_id, ws, we, hw, 0])
                continue

            for service in SERVICES:
                starts = []
                for a, b, hw in SCHEDULES[r["route_id"]][service]:
                    s = parse_hm(a)
                    while s < parse_hm(b):
                        starts.append(s)
                        s += hw * 60
                starts += [parse_hm(x) for x in LATE_STARTS.get(r["route_id"], {}).get(service, [])]
                # direction 1 runs 10 minutes later (vehicles need to get to the other end)
                starts = sorted(s + (600 if direction == 1 else 0) for s in starts)
                for start in starts:
                    hhmm = f"{start // 3600:02d}{start % 3600 // 60:02d}"
                    trip_id = f"{r['short']}-{service}-{direction}-{hhmm}"
                    trip_meta[trip_id] = dict(route=r["route_id"], service=service, dir=direction,
                                              first=seq[0], last=seq[-1], start=start,
                                              end=start + offsets[-1][0])
                    trips_rows.append([r["route_id"], service, trip_id, r["headsigns"][direction],
                                       direction, None, shape_id, "1" if r["short"] != "77X" else "2"])
                    emit_stop_times(st_rows, trip_id, r, seq, stops, start, offsets, stop_dist,
                                    direction=direction)

    # block B1 on weekdays: 27 (into TINT-A) -> 77X out -> 77X back -> 27 out again
    block = choose_block(trip_meta)
    for row in trips_rows:
        if row[5] is None:
            row[5] = BLOCK_ID if row[2] in block else ""

    calendar_rows = [
        ["WK", 1, 1, 1, 1, 1, 0, 0, START_DATE, END_DATE],
        ["SA", 0, 0, 0, 0, 0, 1, 0, START_DATE, END_DATE],
        ["SU", 0, 0, 0, 0, 0, 0, 1, START_DATE, END_DATE],
    ]
    cd_rows = []
    for date, removed, added in HOLIDAYS:
        cd_rows.append([removed, date, 2])
        if [added, date, 1] not in cd_rows:
            cd_rows.append([added, date, 1])

    stops_rows = []
    for sid, s in stops.items():
        stops_rows.append([sid, s["code"], s["name"], coord(s["lat"]), coord(s["lon"]),
                           s["type"], s["parent"], s["platform"], s["wc"]])

    os.makedirs(out_dir, exist_ok=True)
    files = [
        ("agency.txt", ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang"],
         [[AGENCY_ID, "Tallaght Demo Transit", "https://example.org/tallaght-demo-transit",
           TIMEZONE, "en"]]),
        ("stops.txt", ["stop_id", "stop_code", "stop_name", "stop_lat", "stop_lon", "location_type",
                       "parent_station", "platform_code", "wheelchair_boarding"], stops_rows),
        ("routes.txt", ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type",
                        "route_color", "route_text_color"], routes_rows),
        ("trips.txt", ["route_id", "service_id", "trip_id", "trip_headsign", "direction_id",
                       "block_id", "shape_id", "wheelchair_accessible"], trips_rows),
        ("stop_times.txt", ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence",
                            "stop_headsign", "pickup_type", "drop_off_type", "shape_dist_traveled",
                            "timepoint"], st_rows),
        ("calendar.txt", ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday",
                          "saturday", "sunday", "start_date", "end_date"], calendar_rows),
        ("calendar_dates.txt", ["service_id", "date", "exception_type"], cd_rows),
        ("frequencies.txt", ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"],
         freq_rows),
        ("shapes.txt", ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence",
                        "shape_dist_traveled"], shapes_rows),
        ("feed_info.txt", ["feed_publisher_name", "feed_publisher_url", "feed_lang",
                           "feed_start_date", "feed_end_date", "feed_version"],
         [["transit project", "https://example.org/transit", "en", START_DATE, END_DATE,
           GENERATOR_VERSION]]),
    ]
    total = 0
    for name, header, rows in files:
        n, size = write_csv(out_dir, name, header, rows)
        total += size
        print(f"{name:20s} {n:6d} rows {size:8d} bytes")
    print(f"{'total':20s} {'':6s}      {total:8d} bytes -> {out_dir}")
    print(f"block {BLOCK_ID}: " + " -> ".join(block))


def emit_stop_times(rows, trip_id, r, seq, stops, start, offsets, stop_dist, direction=0):
    n = len(seq)
    every = r["timepoint_every"]
    for i, sid in enumerate(seq):
        timed = (every == 0 or i == 0 or i == n - 1 or i % every == 0
                 or sid in r.get("layover", ()))
        arr, dep = start + offsets[i][0], start + offsets[i][1]
        headsign = ""
        if r["short"] == "49" and direction == 0:
            # the 49 shows "via Old Bawn" until it gets there
            headsign = "Templeogue Village via Old Bawn" if i < seq.index("TD4551") else ""
        pickup = "1" if i == n - 1 else "0"    # nobody boards at the terminus
        dropoff = "1" if i == 0 else "0"       # nobody alights at the first stop
        rows.append([trip_id, hms(arr) if timed else "", hms(dep) if timed else "", sid, (i + 1) * 10,
                     headsign, pickup, dropoff, f"{stop_dist[i]:.1f}", "1" if timed else "0"])


def choose_block(meta):
    def wk(route, direction):
        return sorted((m["start"], t) for t, m in meta.items()
                      if m["route"] == route and m["service"] == "WK" and m["dir"] == direction)

    target = parse_hm(BLOCK_AROUND)
    first = min(wk("R27", 0), key=lambda x: (abs(meta[x[1]]["end"] - target), x[0]))[1]
    chain = [first]
    for route, direction in (("R77X", 0), ("R77X", 1), ("R27", 1)):
        prev = meta[chain[-1]]
        nxt = next(t for s, t in wk(route, direction)
                   if s >= prev["end"] + 300 and meta[t]["first"] == prev["last"])
        chain.append(nxt)
    return chain


def check(out_dir):
    """Referential and ordering checks on the written feed; returns a list of problems."""
    problems = []

    def read(name):
        with open(os.path.join(out_dir, name), "rb") as f:
            raw = f.read()
        if raw.startswith(b"\xef\xbb\xbf"):
            problems.append(f"{name}: has a BOM")
        if b"\r" in raw:
            problems.append(f"{name}: has CR line endings")
        return list(csv.DictReader(io.StringIO(raw.decode("utf-8"), newline="")))

    stops = {r["stop_id"]: r for r in read("stops.txt")}
    routes = {r["route_id"]: r for r in read("routes.txt")}
    services = {r["service_id"] for r in read("calendar.txt")}
    trips = {r["trip_id"]: r for r in read("trips.txt")}
    shapes = {}
    for r in read("shapes.txt"):
        shapes.setdefault(r["shape_id"], []).append((int(r["shape_pt_sequence"]), float(r["shape_dist_traveled"])))
    for sid, pts in shapes.items():
        if [p[0] for p in pts] != sorted(p[0] for p in pts) or [p[1] for p in pts] != sorted(p[1] for p in pts):
            problems.append(f"shape {sid}: sequence or distance not increasing")
    centre = (53.2875, -6.3664)
    for sid, s in stops.items():
        if haversine(centre, (float(s["stop_lat"]), float(s["stop_lon"]))) > 10000:
            problems.append(f"stop {sid}: more than 10 km from the centre")
        if s["parent_station"] and stops.get(s["parent_station"], {}).get("location_type") != "1":
            problems.append(f"stop {sid}: parent_station is not a station")
    for r in read("calendar_dates.txt"):
        if r["service_id"] not in services:
            problems.append(f"calendar_dates: unknown service {r['service_id']}")
    directions = {}
    for t in trips.values():
        if t["route_id"] not in routes:
            problems.append(f"trip {t['trip_id']}: unknown route")
        if t["service_id"] not in services:
            problems.append(f"trip {t['trip_id']}: unknown service")
        if t["shape_id"] not in shapes:
            problems.append(f"trip {t['trip_id']}: unknown shape")
        directions.setdefault(t["route_id"], set()).add(t["direction_id"])
    for rid in routes:
        if directions.get(rid) != {"0", "1"}:
            problems.append(f"route {rid}: not served in both directions")
    for r in read("frequencies.txt"):
        if r["trip_id"] not in trips:
            problems.append(f"frequencies: unknown trip {r['trip_id']}")
    by_trip = {}
    for r in read("stop_times.txt"):
        if r["trip_id"] not in trips:
            problems.append(f"stop_times: unknown trip {r['trip_id']}")
        if r["stop_id"] not in stops or stops[r["stop_id"]]["location_type"] != "0":
            problems.append(f"stop_times: {r['trip_id']} uses unknown or non-stop {r['stop_id']}")
        by_trip.setdefault(r["trip_id"], []).append(r)
    for tid, rows in by_trip.items():
        seqs = [int(r["stop_sequence"]) for r in rows]
        if any(b <= a for a, b in zip(seqs, seqs[1:])):
            problems.append(f"trip {tid}: stop_sequence not increasing")
        if not rows[0]["departure_time"] or not rows[-1]["arrival_time"]:
            problems.append(f"trip {tid}: first or last stop untimed")
        last = -1
        for r in rows:
            if not r["arrival_time"]:
                if r["departure_time"] or r["timepoint"] != "0":
                    problems.append(f"trip {tid}: half-timed or untimed timepoint at {r['stop_sequence']}")
                continue
            a, d = parse_hm(r["arrival_time"]), parse_hm(r["departure_time"])
            if not (last < a <= d):
                problems.append(f"trip {tid}: times do not increase at {r['stop_sequence']}")
            last = d
        dists = [float(r["shape_dist_traveled"]) for r in rows]
        top = max(p[1] for p in shapes.get(trips.get(tid, {}).get("shape_id"), [(0, 0.0)]))
        if dists != sorted(dists) or dists[-1] > top + 0.05:
            problems.append(f"trip {tid}: shape_dist_traveled out of order or beyond the shape")
    missing = set(trips) - set(by_trip)
    if missing:
        problems.append(f"{len(missing)} trips without stop_times")
    return problems


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--out", default=os.path.join(root, "Data", "gtfs"), help="output folder")
    args = ap.parse_args()
    build(args.out)
    problems = check(args.out)
    for p in problems:
        print("problem:", p, file=sys.stderr)
    if problems:
        return 1
    print("checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
