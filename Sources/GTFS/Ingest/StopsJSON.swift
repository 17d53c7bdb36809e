import FoundationEssentials

/// A Dublin-style stop list: `[{"stop_id": …, "stop_code": …, "stop_name": …, "stop_lat": …,
/// "stop_lon": …}]`, ids and codes as strings or numbers. Parsed apart from the database so that
/// it can be fuzzed on its own.
public enum StopsJSON {
  /// One stop of the list.
  public struct Stop: Equatable, Sendable {
    public var id: String
    public var code: String?
    public var name: String?
    public var lat: Double
    public var lon: Double
  }

  /// The largest stops.json read (the biggest real lists are a few MiB).
  public static let maxFileBytes = 256 << 20
  /// The largest one item of the list may be.
  public static let maxItemBytes = 64 << 10

  /// The stops in `data`, the content of the file `name`, in order.
  /// - Throws: `GTFSError` naming the file and item of the first problem: not JSON, not a list,
  ///   an item that is not an object, a missing id, a position out of range, an id twice.
  public static func parse(_ data: Data, name: String) throws(GTFSError) -> [Stop] {
    var reader = Reader(name: name)
    let stops = try [UInt8](data).withUnsafeBufferPointer { (bytes) throws(GTFSError) in try reader.feed(bytes) }
    try reader.finish()
    return stops
  }

  /// Reads a stops.json list as it arrives, chunk by chunk, in memory that does not grow with
  /// the list: each item is decoded on its own once its closing brace is seen (only the ids
  /// seen are kept, to refuse one twice).
  public struct Reader {
    let name: String
    private var state = State.start
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var item: [UInt8] = []
    private var index = 0
    private var seen = Set<String>()
    private var total = 0

    private enum State { case start, beforeItem, inItem, afterItem, end }

    /// A reader for the file `name`.
    public init(name: String) { self.name = name }

    /// Reads `bytes`, the next part of the file; returns the stops whose items ended in it.
    /// - Throws: `GTFSError` as `parse` does, or when the file passes `maxFileBytes`.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws(GTFSError) -> [Stop] {
      var stops: [Stop] = []
      try feed(bytes) { stops.append($0) }
      return stops
    }

    private mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Stop) -> Void) throws(GTFSError) {
      total += bytes.count
      if total > StopsJSON.maxFileBytes {
        throw GTFSError(file: name, .limitExceeded("larger than the \(StopsJSON.maxFileBytes >> 20) MiB a stops.json may be"))
      }
      for byte in bytes {
        switch state {
        case .start:
          if isSpace(byte) || (byte == 0xEF || byte == 0xBB || byte == 0xBF) { continue }  // a BOM
          guard byte == UInt8(ascii: "[") else { throw notAList(byte) }
          state = .beforeItem
        case .beforeItem:
          if isSpace(byte) { continue }
          if byte == UInt8(ascii: "]") && index == 0 {
            state = .end
            continue
          }
          state = .inItem
          try take(byte, body)
        case .inItem:
          try take(byte, body)
        case .afterItem:
          if isSpace(byte) { continue }
          if byte == UInt8(ascii: ",") {
            state = .beforeItem
          } else if byte == UInt8(ascii: "]") {
            state = .end
          } else {
            throw GTFSError(file: name, .invalidJSON("not JSON"))
          }
        case .end:
          guard isSpace(byte) else { throw GTFSError(file: name, .invalidJSON("not JSON")) }
        }
      }
    }

    /// Checks that the list was closed.
    public func finish() throws(GTFSError) {
      switch state {
      case .end: return
      case .start: throw GTFSError(file: name, .invalidJSON("not JSON"))
      default: throw GTFSError(file: name, .invalidJSON("not JSON (the list is never closed)"))
      }
    }

    private func notAList(_ byte: UInt8) -> GTFSError {
      byte == UInt8(ascii: "{") || byte == UInt8(ascii: "\"") || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
        ? GTFSError(file: name, .invalidJSON("the top level is not an array"))
        : GTFSError(file: name, .invalidJSON("not JSON"))
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// One byte of the current item; at its end (outside strings, back at the list's level, a
    /// comma or the closing bracket) the item is decoded and handed on.
    private mutating func take(_ byte: UInt8, _ body: (Stop) -> Void) throws(GTFSError) {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 {
            // The list's own closing bracket, straight after a scalar item.
            guard byte == UInt8(ascii: "]") else { throw GTFSError(file: name, .invalidJSON("not JSON")) }
            try emit(body)
            state = .end
            return
          }
          depth -= 1
        case UInt8(ascii: ","):
          if depth == 0 {
            try emit(body)
            state = .beforeItem
            return
          }
        default: break
        }
      }
      item.append(byte)
      if item.count > StopsJSON.maxItemBytes {
        throw GTFSError(
          file: "\(name): item \(index + 1)", .limitExceeded("longer than the \(StopsJSON.maxItemBytes >> 10) KiB an item may be"))
      }
      if depth == 0 && !inString && (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) {
        try emit(body)
        state = .afterItem
      }
    }

    private mutating func emit(_ body: (Stop) -> Void) throws(GTFSError) {
      defer { item.removeAll(keepingCapacity: true) }
      index += 1
      let value: JSONItem
      do { value = try JSONDecoder().decode(JSONItem.self, from: Data(item)) } catch {
        throw GTFSError(file: name, .invalidJSON("not JSON"))
      }
      let stop = try StopsJSON.stop(value, place: "\(name): item \(index)")
      guard seen.insert(stop.id).inserted else {
        throw GTFSError(file: "\(name): item \(index)", .duplicateKey(column: "stop_id", value: stop.id))
      }
      body(stop)
    }
  }

  /// One item of the list as a stop.
  static func stop(_ item: JSONItem, place: String) throws(GTFSError) -> Stop {
    func text(_ value: JSONItem?) -> String? {
      switch value {
      case .string(let string): return string.isEmpty ? nil : string
      case .number(let number): return JSONItem.text(of: number)
      case .bool(let flag): return flag ? "1" : "0"
      default: return nil
      }
    }
    func number(_ value: JSONItem?) -> Double? {
      switch value {
      case .number(let number): return number
      case .bool(let flag): return flag ? 1 : 0
      case .string(let string): return Double(string)
      default: return nil
      }
    }
    guard case .object(let stop) = item else { throw GTFSError(file: place, .invalidJSON("not an object")) }
    guard let id = text(stop["stop_id"]) else { throw GTFSError(file: place, .missingValue(column: "stop_id")) }
    guard let lat = number(stop["stop_lat"]), abs(lat) <= 90 else {
      throw GTFSError(
        file: place,
        .invalidValue(column: "stop_lat", value: stop["stop_lat"]?.description ?? "", expected: "a number between -90 and 90"))
    }
    guard let lon = number(stop["stop_lon"]), abs(lon) <= 180 else {
      throw GTFSError(
        file: place,
        .invalidValue(column: "stop_lon", value: stop["stop_lon"]?.description ?? "", expected: "a number between -180 and 180"))
    }
    return Stop(id: id, code: text(stop["stop_code"]), name: text(stop["stop_name"]), lat: lat, lon: lon)
  }
}
