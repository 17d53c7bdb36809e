#!/usr/bin/env python3
"""Times Google's C decoder, upb (Python protobuf's FeedMessage.ParseFromString), on captures.

Called by `Benchmarks/rt-decode --against-upb` with the folder holding the generated
gtfs_realtime_pb2 / nyct_subway_pb2 modules, then the capture paths. For each capture: best of 5
rounds of at least 10 MB of parsing each, process CPU time; prints `name microseconds` lines.
NYCT's extension module is imported so upb decodes field 1001 too, as our decoder does.
"""
import os
import sys
import time

sys.path.insert(0, sys.argv[1])
import gtfs_realtime_pb2  # noqa: E402
import nyct_subway_pb2  # noqa: E402,F401  (registers the extension)
from google.protobuf.internal import api_implementation  # noqa: E402

print(f"# protobuf implementation: {api_implementation.Type()}", flush=True)
for path in sys.argv[2:]:
    data = open(path, "rb").read()
    repetitions = max(1, -(-10_000_000 // max(len(data), 1)))
    message = gtfs_realtime_pb2.FeedMessage()
    for _ in range(min(repetitions, 1000)):
        message.ParseFromString(data)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(repetitions):
            message = gtfs_realtime_pb2.FeedMessage()
            message.ParseFromString(data)
        best = min(best, time.process_time() - start)
    print(f"{os.path.basename(path)} {best / repetitions * 1e6:.3f}", flush=True)
