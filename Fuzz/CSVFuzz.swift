// libFuzzer target for the GTFS CSV reader (quoting, byte-order marks, line ends, ragged rows,
// the field and record limits); built by Fuzz/run with TRANSIT_FUZZING, which shrinks the
// reader's buffers so that refills and the record limit are reached by small inputs.
//
// Any input must read to its end or throw a GTFSError naming the file; nothing may trap. Every
// record has at most the field limit, every field is within the input, and line numbers grow.

/// The input, handed out in pieces whose sizes the input's first byte chooses.
final class PieceSource: ByteSource {
  let bytes: [UInt8]
  var offset: Int
  let piece: Int

  init(_ bytes: [UInt8]) {
    piece = 1 + Int(bytes.first ?? 0) % 97
    self.bytes = bytes
    offset = bytes.isEmpty ? 0 : 1
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = min(buffer.count, piece, bytes.count - offset)
    guard count > 0 else { return 0 }
    bytes.withUnsafeBytes { source in
      buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
    }
    offset += count
    return count
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  do {
    let reader = try CSVReader(source: PieceSource(bytes), file: "fuzz.txt")
    _ = reader.column("stop_id")
    var lastLine = 1
    var total = 0
    while try reader.next() {
      precondition(reader.fieldCount >= 1 && reader.fieldCount <= 4096)
      precondition(reader.line > lastLine, "line numbers must grow")
      lastLine = reader.line
      for index in 0..<reader.fieldCount {
        total += reader.field(index).count
        _ = reader.string(index)
      }
      _ = reader.optionalString(reader.fieldCount)  // past the end: nil, not a trap
    }
    precondition(total <= bytes.count, "fields hold more bytes than the input")
  } catch {
    precondition(error.file == "fuzz.txt")
    precondition(!error.description.isEmpty)
  }
  return 0
}
