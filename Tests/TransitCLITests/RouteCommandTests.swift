import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// A small RFC 7946 validator: the members each GeoJSON object must have, positions as
/// [longitude, latitude] within range, LineStrings of two positions or more, and closed
/// linear rings. Returns the problems found (empty: valid).
enum GeoJSONValidator {
  static func problems(_ value: Any, path: String = "$") -> [String] {
    guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
    guard let type = object["type"] as? String else { return ["\(path): no \"type\" member"] }
    if object["crs"] != nil { return ["\(path): \"crs\" was removed by RFC 7946"] }
    switch type {
    case "FeatureCollection":
      guard let features = object["features"] as? [Any] else { return ["\(path): FeatureCollection without a \"features\" array"] }
      return features.enumerated().flatMap { index, feature in
        (feature as? [String: Any])?["type"] as? String == "Feature"
          ? problems(feature, path: "\(path).features[\(index)]") : ["\(path).features[\(index)]: not a Feature"]
      }
    case "Feature":
      var found: [String] = []
      guard object.keys.contains("geometry") else { return ["\(path): Feature without \"geometry\""] }
      guard object.keys.contains("properties") else { return ["\(path): Feature without \"properties\""] }
      if !(object["properties"] is [String: Any] || object["properties"] is NSNull) {
        found.append("\(path).properties: not an object or null")
      }
      if !(object["geometry"] is NSNull) { found += problems(object["geometry"]!, path: "\(path).geometry") }
      return found
    case "Point":
      return position(object["coordinates"], path: "\(path).coordinates")
    case "MultiPoint", "LineString":
      guard let positions = object["coordinates"] as? [Any] else { return ["\(path): no coordinates array"] }
      var found = positions.enumerated().flatMap { position($1, path: "\(path).coordinates[\($0)]") }
      if type == "LineString" && positions.count < 2 { found.append("\(path): a LineString needs two or more positions") }
      return found
    case "MultiLineString", "Polygon":
      guard let lines = object["coordinates"] as? [[Any]] else { return ["\(path): no array of position arrays"] }
      var found: [String] = []
      for (index, line) in lines.enumerated() {
        found += line.enumerated().flatMap { position($1, path: "\(path).coordinates[\(index)][\($0)]") }
        if type == "Polygon" {
          func numbers(_ value: Any?) -> [Double]? { (value as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } }
          let first = numbers(line.first), last = numbers(line.last)
          if line.count < 4 || first != last { found.append("\(path).coordinates[\(index)]: not a closed ring of four or more") }
        } else if line.count < 2 {
          found.append("\(path).coordinates[\(index)]: fewer than two positions")
        }
      }
      return found
    default:
      return ["\(path): unknown type '\(type)'"]
    }
  }

  static func position(_ value: Any?, path: String) -> [String] {
    guard let numbers = value as? [Any], (2...3).contains(numbers.count), numbers.allSatisfy({ $0 is NSNumber }) else {
      return ["\(path): a position is two or three numbers"]
    }
    let lon = (numbers[0] as! NSNumber).doubleValue, lat = (numbers[1] as! NSNumber).doubleValue
    if !(-180...180).contains(lon) { return ["\(path): longitude \(lon) out of range (lon, lat order?)"] }
    if !(-90...90).contains(lat) { return ["\(path): latitude \(lat) out of range"] }
    return []
  }
}

/// `transit routes` and `transit route show` end to end on the demo network.
@Suite struct RouteCommandTests {
  static let demo = DemoHome()
  static let now = "2026-12-01T08:00:00Z"  // a Tuesday

  func run(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
    Self.demo.run(arguments + ["--now", Self.now], environment: environment)
  }

  func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  @Test func aVariantFromAnotherStopNamesItOnce() throws {
    // Main A-B-C-D (3 trips); one trip starts at E instead: "from Echo", not "via Echo" too.
    let feed = TemporaryFolder(), data = TemporaryFolder()
    func trip(_ id: String, _ stops: [String]) -> String {
      stops.enumerated().map { "\(id),07:0\($0.offset):00,07:0\($0.offset):00,\($0.element),\($0.offset + 1)" }.joined(separator: "\n")
    }
    let files = [
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,T,https://example.org,Europe/Dublin\n",
      "stops.txt":
        "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,53.28,-6.36\nB,Bravo,53.285,-6.365\nC,Charlie,53.29,-6.37\nD,Delta,53.295,-6.375\nE,Echo,53.27,-6.35\n",
      "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,9,3\n",
      "calendar.txt":
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20271231\n",
      "trips.txt": "route_id,service_id,trip_id,direction_id\nR,D,m1,0\nR,D,m2,0\nR,D,m3,0\nR,D,v1,0\n",
      "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        + [
          trip("m1", ["A", "B", "C", "D"]), trip("m2", ["A", "B", "C", "D"]), trip("m3", ["A", "B", "C", "D"]),
          trip("v1", ["E", "B", "C", "D"]),
        ]
        .joined(separator: "\n") + "\n",
    ]
    for (name, text) in files { try text.write(toFile: feed.path + "/" + name, atomically: true, encoding: .utf8) }
    #expect(transit(["ingest", feed.path, "--feed", "t", "--quiet", "--data-dir", data.path]).code == 0)
    let shown = transit(["route", "show", "9", "--date", "2026-12-01", "--data-dir", data.path]).stdout
    let variant = try #require(shown.split(separator: "\n").first { $0.contains("1 trip ") }, "\(shown)")
    #expect(variant.hasSuffix("from Echo"), "\(variant)")
  }

  @Test func everyRoute() {
    let result = run(["routes"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        27   bus   Crumlin Hospital - Tallaght Interchange           → Tallaght Interchange / Crumlin Hospital    Tallaght Demo Transit
        49   bus   Tallaght Interchange - Templeogue Village         → Templeogue Village / Tallaght Interchange  Tallaght Demo Transit
        54A  bus   Killinarden - Kingswood                           → Kingswood / Killinarden                    Tallaght Demo Transit
        77X  bus   Tallaght Interchange - Citywest Campus (Express)  → Citywest Campus / Tallaght Interchange     Tallaght Demo Transit
        Red  tram  Tallaght - Suir Road                              → Suir Road / Tallaght                       Tallaght Demo Transit

        """)
  }

  @Test func searchModeAndStopFilters() {
    #expect(run(["routes", "templogue"]).stdout.hasPrefix("49  bus  Tallaght Interchange - Templeogue Village"))
    #expect(run(["routes", "--mode", "tram"]).stdout.hasPrefix("Red  tram"))
    #expect(run(["routes", "--stop", "4530"]).stdout.split(separator: "\n").map { $0.prefix(3) } == ["27 ", "49 "])
    let none = run(["routes", "zzz"])
    #expect(none.code == 0 && none.stdout == "no routes match 'zzz'\n")
    #expect(run(["routes", "--mode", "boat"]).code == 2)
    #expect(run(["routes", "--stop", "nowhere"]).code == 3)
  }

  @Test func routesAsJSON() throws {
    let result = run(["routes", "77", "--json"])
    #expect(result.code == 0)
    let routes = try #require(try json(result.stdout) as? [[String: Any]])
    #expect(routes.count == 1)
    #expect(routes[0]["route_id"] as? String == "R77X")
    #expect(routes[0]["short_name"] as? String == "77X")
    #expect(routes[0]["mode"] as? String == "bus")
    #expect(routes[0]["color"] as? String == "#8E2C90")
    #expect(routes[0]["agency"] as? String == "Tallaght Demo Transit")
    #expect(routes[0]["destinations"] as? [String] == ["Citywest Campus", "Tallaght Interchange"])
    #expect(routes[0]["trips"] as? Int == 42)
  }

  @Test func showARoute() {
    let result = run(["route", "show", "77X"])
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      Array(lines.prefix(17)) == [
        "77X  Tallaght Interchange - Citywest Campus (Express)",
        "bus · Tallaght Demo Transit · route_id R77X · 42 trips · colour #8E2C90",
        "",
        "direction 0 → Citywest Campus: 21 trips in 1 pattern",
        "  Tue 2026-12-01: 15 trips, first 07:05, last 00:30 (next day)",
        "  typical headway at Tallaght Interchange:",
        "    AM peak  07:00-09:30  5 departures  every 30 min",
        "    midday   09:30-16:00   1 departure",
        "    PM peak  16:00-19:00  6 departures  every 30 min",
        "    evening  19:00-24:00  2 departures  every 4 h 45 min",
        "    night    00:00-05:00   1 departure",
        "  stops of the main pattern (21 trips):",
        "    1  Tallaght Interchange ♿  4500  TINT-A",
        "    2  Tallaght Hospital ♿     4540  TD4540",
        "    3  Cookstown Way            4541  TD4541",
        "    4  Fettercairn ♿           4542  TD4542",
        "    5  Brookfield               4543  TD4543",
      ])
    #expect(result.stdout.contains("direction 1 → Tallaght Interchange: 21 trips in 1 pattern"))
    // By long name and by route_id too; one direction only.
    #expect(run(["route", "show", "tallaght - suir road"]).stdout.hasPrefix("Red  Tallaght - Suir Road"))
    let one = run(["route", "show", "R27", "--direction", "1"])
    #expect(one.stdout.contains("direction 1 → Crumlin Hospital") && !one.stdout.contains("direction 0"))
    // A Saturday: the Red line starts at 06:30.
    #expect(
      run(["route", "show", "Red", "--date", "2026-12-05"]).stdout.contains("Sat 2026-12-05: 97 trips, first 06:30, last 00:15 (next day)"))
  }

  @Test func showAsJSON() throws {
    let result = run(["route", "show", "27", "--json"])
    #expect(result.code == 0)
    let document = try #require(try json(result.stdout) as? [String: Any])
    #expect((document["route"] as? [String: Any])?["route_id"] as? String == "R27")
    #expect(document["date"] as? String == "2026-12-01")
    let directions = try #require(document["directions"] as? [[String: Any]])
    #expect(directions.map { $0["direction_id"] as? Int } == [0, 1])
    #expect(directions[0]["first_departure"] as? String == "2026-12-01T06:00:00+00:00")
    #expect(directions[0]["last_departure"] as? String == "2026-12-02T01:05:00+00:00")
    #expect(directions[0]["trips_on_date"] as? Int == 37)
    let patterns = try #require(directions[0]["patterns"] as? [[String: Any]])
    #expect(patterns.count == 1 && patterns[0]["main"] as? Bool == true && patterns[0]["trips"] as? Int == 67)
    #expect((patterns[0]["stops"] as? [[String: Any]])?.first?["stop_id"] as? String == "TD4521")
    #expect(patterns[0]["shape_ids"] as? [String] == ["R27_0"])
  }

  /// shapes.txt's points of `shapeID` as [lon, lat], read straight from the demo's CSV.
  func shapePoints(_ shapeID: String) throws -> [[Double]] {
    let text = try String(contentsOfFile: packageRoot + "/Data/gtfs/shapes.txt", encoding: .utf8)
    let rows: [[String]] = text.split(separator: "\n").dropFirst().map { line in
      line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let mine = rows.filter { $0[0] == shapeID }.sorted { (Int($0[3]) ?? 0) < (Int($1[3]) ?? 0) }
    return mine.map { row -> [Double] in [Double(row[2]) ?? .nan, Double(row[1]) ?? .nan] }
  }

  @Test func geoJSONIsValidAndFollowsTheShapes() throws {
    let result = run(["route", "show", "27", "--geojson"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n").count == 1, "one document")
    let document = try json(result.stdout)
    #expect(GeoJSONValidator.problems(document) == [])
    let features = try #require((document as? [String: Any])?["features"] as? [[String: Any]])
    let lines = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "LineString" }
    let points = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" }
    #expect(lines.count == 2)
    #expect(points.count == 11)  // each stop once, whichever direction calls at it
    for (line, shape) in zip(lines, ["R27_0", "R27_1"]) {
      let properties = try #require(line["properties"] as? [String: Any])
      #expect(properties["shape_id"] as? String == shape)
      #expect(properties["route_id"] as? String == "R27")
      #expect(properties["route_short_name"] as? String == "27")
      #expect(properties["color"] as? String == "#F6A800")
      #expect(properties["direction_id"] as? Int == (shape == "R27_0" ? 0 : 1))
      let coordinates = try #require((line["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
      #expect(coordinates == (try shapePoints(shape)))
      #expect(coordinates.count == 31)
    }
    let first = try #require(points.first?["properties"] as? [String: Any])
    #expect(first["stop_id"] as? String == "TD4521" && first["name"] as? String == "Crumlin Hospital")
    #expect((points.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [-6.3178, 53.3262])
  }

  @Test func theValidatorCatchesMistakes() throws {
    let swapped: [String: Any] = ["type": "Point", "coordinates": [53.3, -186.3]]
    #expect(!GeoJSONValidator.problems(swapped).isEmpty)
    let short: [String: Any] = ["type": "LineString", "coordinates": [[-6.3, 53.3]]]
    #expect(!GeoJSONValidator.problems(short).isEmpty)
    let open: [String: Any] = ["type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]]
    #expect(!GeoJSONValidator.problems(open).isEmpty)
    #expect(!GeoJSONValidator.problems(["type": "Feature", "geometry": NSNull()]).isEmpty)
    #expect(!GeoJSONValidator.problems(["type": "FeatureCollection"]).isEmpty)
  }

  @Test func unknownAndAmbiguousRoutes() {
    let unknown = run(["route", "show", "99"])
    #expect(unknown.code == 3)
    #expect(unknown.stderr.hasSuffix("transit: no route with id, short name or long name '99'\n"))
    #expect(unknown.stdout.isEmpty)
    let near = run(["route", "show", "crumlen"])
    #expect(near.code == 3 && near.stderr.contains("routes with similar names:\n  R27  27"))
    // Two feeds with the same routes: "27" could be either.
    let home = TemporaryFolder()
    for feed in ["demo", "copy"] {
      _ = transit(["ingest", packageRoot + "/Data/gtfs", "--feed", feed, "--quiet", "--data-dir", home.path])
    }
    let both = transit(["route", "show", "27", "--data-dir", home.path])
    #expect(both.code == 3)
    #expect(both.stderr.contains("'27' could be:\n  copy:R27  27"), "\(both.stderr)")
    #expect(transit(["route", "show", "demo:R27", "--data-dir", home.path, "--now", Self.now]).code == 0)
  }

  @Test func badOptions() {
    #expect(run(["route", "show", "27", "--direction", "2"]).code == 2)
    #expect(run(["route", "show", "27", "--date", "2026-13-01"]).code == 2)
    #expect(run(["route", "show", "27", "--map", "--json"]).code == 2)
    #expect(run(["route", "show", "27", "--ascii"]).code == 2)
    #expect(run(["route", "show", "27", "--map", "--geojson"]).code == 2)
    #expect(run(["route", "show"]).code == 2)
  }

  @Test func aMapOfTheRoute() throws {
    let result = run(["route", "show", "27", "--map"], environment: ["LANG": "en_IE.UTF-8"])
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // Header, blank, 19 rows of map, the scale bar, the legend (60 × 20 off a terminal).
    #expect(lines.count == 2 + 1 + 19 + 2 + 1)
    #expect(lines[22] == "├───────────────┤ 2 km · north ↑")
    #expect(lines[23] == "• stops · 2 lines")
    let map = lines[3..<22].joined()
    #expect(map.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
    #expect(map.filter { $0 == "•" }.count == 11)
    #expect(lines[3..<22].allSatisfy { $0.count <= 60 })
    // ASCII: asked for, or a locale without UTF-8.
    for ascii in [
      run(["route", "show", "27", "--map", "--ascii"], environment: ["LANG": "en_IE.UTF-8"]), run(["route", "show", "27", "--map"]),
    ] {
      let text = ascii.stdout.split(separator: "\n").dropFirst(2).joined(separator: "\n")
      #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "\(text)")
      #expect(text.contains("2 km, north ^"))
    }
    // COLUMNS and LINES size it.
    let small = run(["route", "show", "27", "--map"], environment: ["LANG": "C.UTF-8", "COLUMNS": "30", "LINES": "14"])
    #expect(small.stdout.split(separator: "\n").dropFirst(2).dropLast(2).allSatisfy { $0.count <= 30 })
    #expect(small.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 2 + 1 + 9 + 2 + 1)
  }

  @Test func aMapOfTheStopsNearby() {
    let result = run(["stops", "near", "53.2875,-6.3664", "--radius", "600", "--map"], environment: ["LANG": "C.UTF-8"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("@ you are here · • stops"))
    let map = result.stdout.split(separator: "\n").drop { !$0.isEmpty && !$0.hasPrefix("  ") && $0.first?.isNumber == true }
    #expect(map.filter { $0.contains("@") }.count == 2)  // the mark and the legend
    #expect(result.stdout.contains("├─────────────┤ 200 m · north ↑"))
  }

  @Test func aMapOfTheVehicles() {
    let result = run(
      ["vehicles", "--route", "27", "--map", "--realtime", packageRoot + "/Data/realtime/demo-vehiclepositions.pb"],
      environment: ["LANG": "C.UTF-8"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("vehicles by route number · • stops"))
    let map = result.stdout.components(separatedBy: "\n\n").last ?? ""
    #expect(map.components(separatedBy: "27").count - 1 >= 2, "\(map)")
  }
}

/// Colour swatches: only on a terminal, 256 colours unless COLORTERM offers 24-bit.
@Suite struct RouteColourTests {
  func onATerminal(_ arguments: [String], environment: [String: String]) -> String {
    let home = RouteCommandTests.demo
    let context = CommandContext.capturing(environment: environment)
    context.stdoutIsTerminal = true
    _ = transit(arguments + ["--data-dir", home.path, "--now", RouteCommandTests.now], context: context)
    return context.stdout.text
  }

  @Test func swatchesInTheRouteColour() {
    // F6A800 is nearest xterm colour 214 (255, 175, 0).
    let listed = onATerminal(["routes", "27"], environment: [:])
    #expect(listed.hasPrefix("\u{1B}[38;5;214m██\u{1B}[0m 27  bus"), "\(listed.debugDescription)")
    let true24 = onATerminal(["routes", "27"], environment: ["COLORTERM": "truecolor"])
    #expect(true24.hasPrefix("\u{1B}[38;2;246;168;0m██\u{1B}[0m 27  bus"))
    let shown = onATerminal(["route", "show", "77X"], environment: ["COLORTERM": "24bit"])
    #expect(shown.hasPrefix("\u{1B}[38;2;142;44;144m██\u{1B}[0m 77X  Tallaght Interchange"))
    #expect(!onATerminal(["routes"], environment: ["NO_COLOR": "1"]).contains("\u{1B}"))
    #expect(!onATerminal(["routes", "--no-color"], environment: [:]).contains("\u{1B}"))
    #expect(!RouteCommandTests.demo.run(["routes"]).stdout.contains("\u{1B}"))
  }

  @Test func xterm256PicksTheCubeOrTheGreyRamp() {
    #expect(RouteCommandSupport.xterm256(red: 0, green: 0, blue: 0) == 16)
    #expect(RouteCommandSupport.xterm256(red: 255, green: 0, blue: 0) == 196)
    #expect(RouteCommandSupport.xterm256(red: 128, green: 128, blue: 128) == 244)
  }
}
