#!/usr/bin/env python3
"""Writes a synthetic day of realtime snapshots for Benchmarks/history-import.

  history-day.py GTFS.zip DATE OUT_DIR [--snapshots N] [--start-minute M]

From the timetable GTFS.zip (the NYC subway's, nyct-subway-multi-2023.zip), for each minute of
DATE (YYYYMMDD, the agency's local day): one FeedMessage holding, as NYCT's own captures do, a
trip update for every trip the timetable has running (its stops still to come, each with an
absolute arrival and departure time) and a vehicle position for each (STOPPED_AT its next stop
when due within 30 s, else IN_TRANSIT_TO). Each trip runs late by its own drifting delay (a
deterministic function of the trip and the minute), so stops drop out of the updates as the
trains pass them, as they do in the real feed. Files are named <unix-seconds>-mixed.pb. The
proportions follow the real captures (about 60 % trip updates, 40 % vehicles; some 20 stop time
updates a trip update); the size grows with the trips running (the evening peak is largest).
"""
import csv
import io
import os
import sys
import zipfile
import zlib
from datetime import datetime, timedelta, timezone


def varint(value):
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_bytes(number, payload):
    return varint((number << 3) | 2) + varint(len(payload)) + payload


def field_string(number, text):
    return field_bytes(number, text.encode())


def main():
    args = sys.argv[1:]
    count, first_minute = 1440, 0
    if "--snapshots" in args:
        index = args.index("--snapshots")
        count = int(args[index + 1])
        del args[index:index + 2]
    if "--start-minute" in args:
        index = args.index("--start-minute")
        first_minute = int(args[index + 1])
        del args[index:index + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    zip_path, date, out = args
    os.makedirs(out, exist_ok=True)
    archive = zipfile.ZipFile(zip_path)

    def rows(name):
        with archive.open(name) as handle:
            yield from csv.DictReader(io.TextIOWrapper(handle, encoding="utf-8-sig"))

    services = {r["service_id"] for r in rows("calendar_dates.txt") if r["date"] == date and r["exception_type"] == "1"}
    trips = {}
    for r in rows("trips.txt"):
        if r["service_id"] in services:
            trips[r["trip_id"]] = r["route_id"]
    calls = {}
    for r in rows("stop_times.txt"):
        trip = r["trip_id"]
        if trip not in trips:
            continue
        def seconds(text):
            h, m, s = text.strip().split(":")
            return int(h) * 3600 + int(m) * 60 + int(s)
        arrival = seconds(r["arrival_time"] or r["departure_time"])
        departure = seconds(r["departure_time"] or r["arrival_time"])
        calls.setdefault(trip, []).append((int(r["stop_sequence"]), r["stop_id"], arrival, departure))
    for trip in calls:
        calls[trip].sort()
    # America/New_York in late May: UTC-4; the service day starts at local midnight.
    day = datetime.strptime(date, "%Y%m%d").replace(tzinfo=timezone(timedelta(hours=-4)))
    start = int(day.timestamp())
    ordered = sorted(calls)
    total = 0
    for minute in range(first_minute, first_minute + count):
        now = start + 60 * minute + 6
        tus, vps = [], []
        for trip in ordered:
            stops = calls[trip]
            # The trip's delay: 0 to 5 minutes, drifting a little minute by minute.
            seed = zlib.crc32(trip.encode())
            delay = (seed % 300) + ((minute * 7 + seed) % 61) - 30
            first = start + stops[0][2]
            last = start + stops[-1][3] + delay
            # Running, or due to start within 20 minutes (real feeds list those too).
            if not (first - 1200 <= now <= last):
                continue
            remaining = [(q, s, start + a + delay, start + d + delay) for (q, s, a, d) in stops if start + d + delay > now]
            if not remaining:
                continue
            descriptor = field_string(1, trip) + field_string(5, trips[trip]) + field_string(3, date)
            stus = b"".join(
                field_bytes(2,
                            field_varint(1, q) + field_bytes(2, field_varint(2, a)) + field_bytes(3, field_varint(2, d))
                            + field_string(4, s))
                for (q, s, a, d) in remaining)
            tus.append(field_bytes(2, field_string(1, "tu-" + trip) + field_bytes(3, field_bytes(1, descriptor) + stus)))
            q, s, a, _ = remaining[0]
            status = 1 if a - now <= 30 else 2  # STOPPED_AT, IN_TRANSIT_TO
            vehicle = (field_bytes(1, descriptor) + field_varint(3, q) + field_varint(4, status) + field_varint(5, now)
                       + field_string(7, s))
            vps.append(field_bytes(2, field_string(1, "vp-" + trip) + field_bytes(4, vehicle)))
        header = field_string(1, "1.0") + field_varint(2, 0) + field_varint(3, now)
        message = field_bytes(1, header) + b"".join(tus) + b"".join(vps)
        with open(os.path.join(out, "%d-mixed.pb" % now), "wb") as handle:
            handle.write(message)
        total += len(message)
    print("%d snapshots, %d bytes in all, %d bytes on average" % (count, total, total // max(1, count)))


if __name__ == "__main__":
    main()
