import Glibc

/// Everything that can go wrong while opening a ZIP archive, reading one of its entries, or
/// decompressing gzip data.
///
/// Each case names the archive (as the caller spelled its path) and, where there is one, the
/// entry, so that ``description`` can stand alone in a terminal:
/// `feed.zip: stop_times.txt: CRC-32 mismatch (expected 1a2b3c4d, got 00ff00ff)`.
public enum ZipError: Error, Equatable, CustomStringConvertible {
  // MARK: - The archive as a whole

  /// The file could not be opened (or is a directory); `errno` says why.
  case cannotOpen(archive: String, errno: Int32)
  /// Reading the file failed; `errno` says why.
  case readFailed(archive: String, errno: Int32)
  /// No end of central directory record: the file is not a ZIP archive (or is empty).
  case notAZip(archive: String)
  /// The archive ends before something it needs (its central directory, an end record).
  case truncatedArchive(archive: String, detail: String)
  /// The archive's own records contradict each other or the ZIP format.
  case corruptArchive(archive: String, detail: String)
  /// The archive lists more entries than ``ZipLimits/maxEntries``.
  case tooManyEntries(archive: String, count: UInt64, limit: Int)
  /// An entry name contains a NUL byte.
  case invalidEntryName(archive: String, name: String)

  // MARK: - One entry

  /// The central directory declares more than ``ZipLimits/maxEntryUncompressedSize``.
  case entryTooLarge(archive: String, entry: String, declaredSize: UInt64, limit: UInt64)
  /// The declared sizes imply more than ``ZipLimits/maxCompressionRatio`` to 1.
  case compressionRatioTooHigh(archive: String, entry: String, ratio: UInt64, limit: UInt64)
  /// The entry is encrypted (general purpose flag bit 0 or 6).
  case encryptedEntry(archive: String, entry: String)
  /// The entry uses a compression method other than 0 (stored) or 8 (deflate).
  case unsupportedCompression(archive: String, entry: String, method: UInt16)
  /// The entry's compressed data ends before its deflate stream does, or runs past the file.
  case truncatedEntry(archive: String, entry: String)
  /// The entry's header or compressed data is malformed; `detail` says how (zlib's message).
  case corruptEntry(archive: String, entry: String, detail: String)
  /// Inflating the entry produced more bytes than the central directory declares.
  case inflatesPastDeclaredSize(archive: String, entry: String, declaredSize: UInt64)
  /// The entry's stream ended after `actualSize` bytes, short of the declared size.
  case sizeMismatch(archive: String, entry: String, declaredSize: UInt64, actualSize: UInt64)
  /// The entry's content does not match the CRC-32 the central directory declares.
  case crcMismatch(archive: String, entry: String, expected: UInt32, actual: UInt32)
  /// Inflating the entry took more than `limitSeconds` of CPU time (`ZipLimits.maxInflateSeconds`).
  case inflateTooSlow(archive: String, entry: String, limitSeconds: Double)

  // MARK: - Gzip

  /// The gzip data ends before its stream does.
  case truncatedGzip
  /// The gzip data is malformed; `detail` says how (zlib's message).
  case corruptGzip(detail: String)
  /// The gzip data decompresses to more than `limit` bytes.
  case gzipTooLarge(limit: Int)

  /// The archive path the error is about, if any.
  public var archivePath: String? {
    switch self {
    case .cannotOpen(let archive, _), .readFailed(let archive, _), .notAZip(let archive),
      .truncatedArchive(let archive, _), .corruptArchive(let archive, _),
      .tooManyEntries(let archive, _, _), .invalidEntryName(let archive, _),
      .entryTooLarge(let archive, _, _, _), .compressionRatioTooHigh(let archive, _, _, _),
      .encryptedEntry(let archive, _), .unsupportedCompression(let archive, _, _),
      .truncatedEntry(let archive, _), .corruptEntry(let archive, _, _),
      .inflatesPastDeclaredSize(let archive, _, _), .sizeMismatch(let archive, _, _, _),
      .crcMismatch(let archive, _, _, _), .inflateTooSlow(let archive, _, _):
      return archive
    case .truncatedGzip, .corruptGzip, .gzipTooLarge:
      return nil
    }
  }

  /// The entry name the error is about, if any.
  public var entryName: String? {
    switch self {
    case .entryTooLarge(_, let entry, _, _), .compressionRatioTooHigh(_, let entry, _, _),
      .encryptedEntry(_, let entry), .unsupportedCompression(_, let entry, _),
      .truncatedEntry(_, let entry), .corruptEntry(_, let entry, _),
      .inflatesPastDeclaredSize(_, let entry, _), .sizeMismatch(_, let entry, _, _),
      .crcMismatch(_, let entry, _, _), .inflateTooSlow(_, let entry, _):
      return entry
    case .invalidEntryName(_, let name):
      return name
    default:
      return nil
    }
  }

  /// A lower-case message fragment with no trailing period, led by the archive and entry.
  public var description: String {
    switch self {
    case .cannotOpen(let archive, let code):
      return "\(archive): cannot open (\(errorText(code)))"
    case .readFailed(let archive, let code):
      return "\(archive): read failed (\(errorText(code)))"
    case .notAZip(let archive):
      return "\(archive): not a ZIP archive (no end of central directory record)"
    case .truncatedArchive(let archive, let detail):
      return "\(archive): truncated (\(detail))"
    case .corruptArchive(let archive, let detail):
      return "\(archive): corrupt ZIP archive (\(detail))"
    case .tooManyEntries(let archive, let count, let limit):
      return "\(archive): \(count) entries, over the limit of \(limit) (zip bomb?)"
    case .invalidEntryName(let archive, let name):
      let shown = name.replacing("\u{0}", with: "\\0")
      return "\(archive): entry name '\(shown)' contains a NUL byte"
    case .entryTooLarge(let archive, let entry, let declaredSize, let limit):
      return "\(archive): \(entry): declared \(formatByteCount(declaredSize)) uncompressed, "
        + "over the \(formatByteCount(limit)) limit (zip bomb?)"
    case .compressionRatioTooHigh(let archive, let entry, let ratio, let limit):
      return
        "\(archive): \(entry): compression ratio \(ratio):1 is over the \(limit):1 limit (zip bomb?)"
    case .encryptedEntry(let archive, let entry):
      return "\(archive): \(entry): encrypted entries are not supported"
    case .unsupportedCompression(let archive, let entry, let method):
      return
        "\(archive): \(entry): unsupported compression method \(method) (only stored and deflate)"
    case .truncatedEntry(let archive, let entry):
      return "\(archive): \(entry): truncated"
    case .corruptEntry(let archive, let entry, let detail):
      return "\(archive): \(entry): corrupt (\(detail))"
    case .inflatesPastDeclaredSize(let archive, let entry, let declaredSize):
      return
        "\(archive): \(entry): inflates past its declared size of \(declaredSize) bytes (corrupt or zip bomb?)"
    case .sizeMismatch(let archive, let entry, let declaredSize, let actualSize):
      return
        "\(archive): \(entry): ends after \(actualSize) bytes, short of the declared \(declaredSize) (corrupt)"
    case .crcMismatch(let archive, let entry, let expected, let actual):
      return
        "\(archive): \(entry): CRC-32 mismatch (expected \(hex8(expected)), got \(hex8(actual)))"
    case .inflateTooSlow(let archive, let entry, let limit):
      let seconds = limit == limit.rounded() && limit < 1e9 ? "\(Int(limit))" : "\(limit)"
      return "\(archive): \(entry): inflating took more than \(seconds) s of cpu time (zip bomb?)"
    case .truncatedGzip:
      return "gzip data: truncated"
    case .corruptGzip(let detail):
      return "gzip data: corrupt (\(detail))"
    case .gzipTooLarge(let limit):
      return
        "gzip data: decompresses to more than \(formatByteCount(UInt64(max(limit, 0)))) (gzip bomb?)"
    }
  }
}

// MARK: - Formatting

/// `strerror`'s text with a lower-case first letter, to fit inside a message fragment.
private func errorText(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "errno \(code)" }
  let message = String(cString: text)
  guard let first = message.first else { return "errno \(code)" }
  return first.lowercased() + message.dropFirst()
}

private func hex8(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: 8 - digits.count) + digits
}

/// Exact amounts in their own unit ("4 GiB" for limits set in binary units, "10 GB"), else
/// decimal units to one decimal place ("9.3 GB"), or bytes below 1 kB.
func formatByteCount(_ count: UInt64) -> String {
  let units: [(UInt64, String)] = [
    (1 << 40, "TiB"), (1_000_000_000_000, "TB"), (1 << 30, "GiB"), (1_000_000_000, "GB"),
    (1 << 20, "MiB"), (1_000_000, "MB"), (1 << 10, "KiB"), (1_000, "kB"),
  ]
  for (scale, unit) in units where count >= scale && count % scale == 0 && count / scale < 1000 {
    return "\(count / scale) \(unit)"
  }
  for (scale, unit) in units where unit.count == 2 && count >= scale {
    let tenths = count / (scale / 10)
    return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
  }
  return count == 1 ? "1 byte" : "\(count) bytes"
}
