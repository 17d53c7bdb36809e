#!/usr/bin/env python3
"""Writes the small ZIP and gzip fixtures that Tests/ZIPTests reads.

Run from anywhere: `python3 Tests/ZIPTests/Fixtures/make-fixtures.py`. Uses only the standard
library (zipfile, zlib, gzip, struct), and every output is deterministic for a given zlib, so
re-running it should leave `git status` clean. Well-formed archives come from `zipfile`; the
malformed ones are written byte by byte by `build_zip` below, following PKWARE's APPNOTE.TXT
(6.3.x): 4.3.7 local file header, 4.3.12 central directory header, 4.3.14-4.3.16 ZIP64 end of
central directory record and locator, end of central directory record, 4.5.3 ZIP64 extra field.
"""

import gzip
import io
import os
import struct
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATE_TIME = (2024, 1, 2, 3, 4, 6)
DOS_TIME = (3 << 11) | (4 << 5) | (6 // 2)
DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 2

# Text that compresses well but not absurdly (a GTFS-like CSV).
STOP_TIMES = b"trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + b"".join(
    b"T%d,%02d:%02d:00,%02d:%02d:30,S%d,%d\n" % (t, 6 + s // 60, s % 60, 6 + s // 60, s % 60, s, s)
    for t in range(1, 4)
    for s in range(1, 41)
)
AGENCY = b"agency_id,agency_name,agency_url,agency_timezone\nDTA,Demo Transit,http://example.com,America/Los_Angeles\n"


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def raw_deflate(data, level=9):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def info(name, method):
    zi = zipfile.ZipInfo(name, DATE_TIME)
    zi.compress_type = method
    zi.external_attr = (0o40755 << 16) | 0x10 if name.endswith("/") else 0o100644 << 16
    return zi


# MARK: - Hand-written archives


class Entry:
    """One entry as `build_zip` writes it; every field can lie, which is the point."""

    def __init__(self, name, payload, *, method=8, crc=None, usize=None, csize=None, flags=0,
                 zip64=False, local_name=None, local_extra=b""):
        self.name = name if isinstance(name, bytes) else name.encode()
        self.payload = payload  # the bytes written after the local header
        self.method = method
        self.crc = crc
        self.usize = usize
        self.csize = len(payload) if csize is None else csize
        self.flags = flags
        self.zip64 = zip64
        self.local_name = self.name if local_name is None else local_name
        self.local_extra = local_extra


def build_zip(entries, *, zip64_end=False, comment=b""):
    out = bytearray()
    central = bytearray()
    for e in entries:
        offset = len(out)
        crc, usize, csize = e.crc, e.usize, e.csize
        if e.zip64:
            local_extra = struct.pack("<HHQQ", 1, 16, usize, csize) + e.local_extra
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, e.flags, e.method, DOS_TIME, DOS_DATE,
                               crc, 0xFFFFFFFF, 0xFFFFFFFF, len(e.local_name), len(local_extra))
        else:
            local_extra = e.local_extra
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, e.flags, e.method, DOS_TIME, DOS_DATE,
                               crc, csize, usize, len(e.local_name), len(local_extra))
        out += e.local_name + local_extra + e.payload
        if e.zip64:
            # 4.5.3: the ZIP64 field holds, in this order, only the values whose header field is 0xFFFFFFFF.
            extra = struct.pack("<HHQQQ", 1, 24, usize, csize, offset)
            sizes = (0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
        else:
            extra = b""
            sizes = (csize, usize, offset)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 45 if e.zip64 else 20, e.flags,
                               e.method, DOS_TIME, DOS_DATE, crc, sizes[0], sizes[1], len(e.name),
                               len(extra), 0, 0, 0, 0o100644 << 16, sizes[2])
        central += e.name + extra
    cd_offset = len(out)
    out += central
    count = len(entries)
    if zip64_end:
        zip64_end_offset = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, len(central), cd_offset)
        out += struct.pack("<IIQI", 0x07064B50, 0, zip64_end_offset, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF,
                           len(comment))
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(central), cd_offset, len(comment))
    out += comment
    return bytes(out)


def deflated_entry(name, data, **kw):
    kw.setdefault("crc", zlib.crc32(data))
    kw.setdefault("usize", len(data))
    return Entry(name, raw_deflate(data), method=8, **kw)


def stored_entry(name, data, **kw):
    kw.setdefault("crc", zlib.crc32(data))
    kw.setdefault("usize", len(data))
    return Entry(name, data, method=0, **kw)


# MARK: - Fixtures


def main():
    # basic.zip: stored, deflated, a folder, an entry in it, empty stored and deflated entries, a UTF-8 name.
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(info("agency.txt", zipfile.ZIP_STORED), AGENCY)
        z.writestr(info("stop_times.txt", zipfile.ZIP_DEFLATED), STOP_TIMES)
        z.writestr(info("feed/", zipfile.ZIP_STORED), b"")
        z.writestr(info("feed/stops.txt", zipfile.ZIP_DEFLATED), b"stop_id,stop_name\nS1,Gare Centrale\n")
        z.writestr(info("empty.txt", zipfile.ZIP_STORED), b"")
        z.writestr(info("empty-deflated.txt", zipfile.ZIP_DEFLATED), b"")
        z.writestr(info("caf\u00e9/arr\u00eat.txt", zipfile.ZIP_DEFLATED), "Arr\u00eat Saint-\u00c9loi\n".encode())
    basic = buf.getvalue()
    write("basic.zip", basic)

    # with-comment.zip: a 2000-byte archive comment, so the end record is not in the last 22 bytes.
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(info("agency.txt", zipfile.ZIP_DEFLATED), AGENCY)
        z.comment = b"Exported by the feed publisher. " + b"-" * 1968
    write("with-comment.zip", buf.getvalue())

    # zip64-local.zip: zipfile's force_zip64 writes ZIP64 extra fields in the local headers only.
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        with z.open(info("stop_times.txt", zipfile.ZIP_DEFLATED), "w", force_zip64=True) as f:
            f.write(STOP_TIMES)
        with z.open(info("agency.txt", zipfile.ZIP_STORED), "w", force_zip64=True) as f:
            f.write(AGENCY)
    write("zip64-local.zip", buf.getvalue())

    # zip64.zip: ZIP64 everywhere: 0xFFFFFFFF sizes and offsets in the central directory with the
    # 0x0001 extra field, a ZIP64 end of central directory record and its locator.
    write("zip64.zip", build_zip([
        deflated_entry("stop_times.txt", STOP_TIMES, zip64=True),
        stored_entry("agency.txt", AGENCY, zip64=True),
    ], zip64_end=True))

    # data-descriptor.zip: written to an unseekable stream, so zipfile sets flag bit 3, leaves the
    # local header's CRC and sizes zero and writes them after the data.
    class Unseekable(io.RawIOBase):
        def __init__(self):
            self.data = bytearray()

        def writable(self):
            return True

        def write(self, b):
            self.data += b
            return len(b)

    sink = Unseekable()
    with zipfile.ZipFile(sink, "w") as z:
        z.writestr(info("stop_times.txt", zipfile.ZIP_DEFLATED), STOP_TIMES)
        z.writestr(info("agency.txt", zipfile.ZIP_DEFLATED), AGENCY)
    write("data-descriptor.zip", bytes(sink.data))

    # cp437-name.zip: a name without flag bit 11 that is not valid UTF-8 (CP437 0x82 is 'é').
    write("cp437-name.zip", build_zip([stored_entry(b"caf\x82.txt", b"hello\n")]))

    # nul-name.zip: a name with a NUL byte in it.
    write("nul-name.zip", build_zip([stored_entry(b"stops.txt\x00.exe", b"hello\n")]))

    # empty-archive.zip: only an end of central directory record.
    write("empty-archive.zip", build_zip([]))

    # truncated.zip: the first half of basic.zip, as an interrupted download leaves it.
    write("truncated.zip", basic[: len(basic) // 2])

    # truncated-deflate.zip: the deflate stream is cut short, and the central directory agrees.
    cut = raw_deflate(STOP_TIMES)
    cut = cut[: len(cut) // 2]
    write("truncated-deflate.zip", build_zip([
        Entry("stop_times.txt", cut, method=8, crc=zlib.crc32(STOP_TIMES), usize=len(STOP_TIMES)),
    ]))

    # past-end.zip: the central directory says the compressed data runs past the end of the file.
    write("past-end.zip", build_zip([
        Entry("stop_times.txt", raw_deflate(STOP_TIMES), method=8, crc=zlib.crc32(STOP_TIMES),
              usize=len(STOP_TIMES), csize=1_000_000),
    ]))

    # corrupt-deflate.zip: bytes that are not a deflate stream (block type 3 is reserved).
    junk = b"\xff" * 64
    write("corrupt-deflate.zip", build_zip([
        Entry("stop_times.txt", junk, method=8, crc=0, usize=1000),
    ]))

    # crc-mismatch.zip: one byte of a stored entry flipped after its CRC was computed.
    flipped = bytearray(AGENCY)
    flipped[10] ^= 0x20
    write("crc-mismatch.zip", build_zip([
        stored_entry("agency.txt", bytes(flipped), crc=zlib.crc32(AGENCY)),
    ]))

    # inflates-past.zip: the stream holds more than the central directory declares.
    write("inflates-past.zip", build_zip([
        deflated_entry("stop_times.txt", STOP_TIMES, usize=100, crc=zlib.crc32(STOP_TIMES[:100])),
    ]))

    # inflates-short.zip: the stream ends before the declared size.
    write("inflates-short.zip", build_zip([
        deflated_entry("stop_times.txt", STOP_TIMES, usize=len(STOP_TIMES) + 10),
    ]))

    # bomb-size.zip: the central directory declares 10 GB uncompressed (through ZIP64).
    write("bomb-size.zip", build_zip([
        deflated_entry("stop_times.txt", STOP_TIMES, usize=10_000_000_000, zip64=True),
    ], zip64_end=True))

    # bomb-ratio.zip: 4 MiB of zeros deflate to about 4 KB, a ratio of about 1028:1.
    zeros = bytes(4 << 20)
    write("bomb-ratio.zip", build_zip([deflated_entry("zeros.txt", zeros)]))

    # unsupported-method.zip: method 12 (bzip2).
    write("unsupported-method.zip", build_zip([
        Entry("stop_times.txt", b"BZh91AY&SY" + bytes(20), method=12, crc=0, usize=100),
        stored_entry("agency.txt", AGENCY),
    ]))

    # encrypted.zip: flag bit 0 (traditional PKWARE encryption) on one entry.
    write("encrypted.zip", build_zip([
        Entry("stop_times.txt", bytes(12) + raw_deflate(STOP_TIMES), method=8, crc=zlib.crc32(STOP_TIMES),
              usize=len(STOP_TIMES), flags=1),
        stored_entry("agency.txt", AGENCY),
    ]))

    # not-a-zip.zip and empty.zip.
    write("not-a-zip.zip", b"stop_id,stop_name\nS1,Not a ZIP archive\n")
    write("empty.zip", b"")

    # stop_times.txt.gz: gzip with a fixed mtime, for Gzip.decompress.
    write("stop_times.txt.gz", gzip.compress(STOP_TIMES, compresslevel=9, mtime=0))
    write("stop_times.txt", STOP_TIMES)


if __name__ == "__main__":
    main()
