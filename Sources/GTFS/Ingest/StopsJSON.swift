import Foundation

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
    let object: Any
    do { object = try JSONSerialization.jsonObject(with: data) } catch {
      throw GTFSError(file: name, .invalidJSON("not JSON"))
    }
    guard let list = object as? [Any] else { throw GTFSError(file: name, .invalidJSON("the top level is not an array")) }
    func text(_ value: Any?) -> String? {
      switch value {
      case let string as String: return string.isEmpty ? nil : string
      case let number as NSNumber: return number.stringValue
      default: return nil
      }
    }
    func number(_ value: Any?) -> Double? {
      switch value {
      case let number as NSNumber: return number.doubleValue
      case let string as String: return Double(string)
      default: return nil
      }
    }
    var stops: [Stop] = []
    var seen = Set<String>()
    for (index, item) in list.enumerated() {
      let place = "\(name): item \(index + 1)"
      guard let stop = item as? [String: Any] else { throw GTFSError(file: place, .invalidJSON("not an object")) }
      guard let id = text(stop["stop_id"]) else { throw GTFSError(file: place, .missingValue(column: "stop_id")) }
      guard let lat = number(stop["stop_lat"]), abs(lat) <= 90 else {
        throw GTFSError(
          file: place, .invalidValue(column: "stop_lat", value: "\(stop["stop_lat"] ?? "")", expected: "a number between -90 and 90"))
      }
      guard let lon = number(stop["stop_lon"]), abs(lon) <= 180 else {
        throw GTFSError(
          file: place, .invalidValue(column: "stop_lon", value: "\(stop["stop_lon"] ?? "")", expected: "a number between -180 and 180"))
      }
      guard seen.insert(id).inserted else { throw GTFSError(file: place, .duplicateKey(column: "stop_id", value: id)) }
      stops.append(Stop(id: id, code: text(stop["stop_code"]), name: text(stop["stop_name"]), lat: lat, lon: lon))
    }
    return stops
  }
}
