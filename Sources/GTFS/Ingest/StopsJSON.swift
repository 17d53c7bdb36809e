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

  /// The stops in `data`, the content of the file `name`, in order.
  /// - Throws: `GTFSError` naming the file and item of the first problem: not JSON, not a list,
  ///   an item that is not an object, a missing id, a position out of range, an id twice.
  public static func parse(_ data: Data, name: String) throws(GTFSError) -> [Stop] {
    let object: JSONItem
    do { object = try JSONDecoder().decode(JSONItem.self, from: data) } catch {
      throw GTFSError(file: name, .invalidJSON("not JSON"))
    }
    guard case .array(let list) = object else { throw GTFSError(file: name, .invalidJSON("the top level is not an array")) }
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
    var stops: [Stop] = []
    var seen = Set<String>()
    for (index, item) in list.enumerated() {
      let place = "\(name): item \(index + 1)"
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
      guard seen.insert(id).inserted else { throw GTFSError(file: place, .duplicateKey(column: "stop_id", value: id)) }
      stops.append(Stop(id: id, code: text(stop["stop_code"]), name: text(stop["stop_name"]), lat: lat, lon: lon))
    }
    return stops
  }
}
