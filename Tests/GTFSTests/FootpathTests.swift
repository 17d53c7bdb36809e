import Foundation
import SQLite
import TestSupport
import Testing

@testable import GTFS

/// Footpaths: every pair of stops (location_type 0) at most 400 m apart, both ways, with the
/// haversine distance rounded to the metre. The expected pairs come from a brute-force
/// comparison of every pair written here, not from the ingest's own search.
@Suite struct FootpathTests {
  /// A link as stored: from, to (stop_ids), metres.
  struct Link: Hashable, CustomStringConvertible {
    var from: String, to: String, meters: Int64
    var description: String { "\(from)->\(to) \(meters) m" }
  }

  struct Stop {
    var id: String, lat: Double, lon: Double, locationType: Int
  }

  /// Haversine on the mean Earth radius (the distance ingest promises), written out here.
  static func meters(_ a: Stop, _ b: Stop) -> Double {
    let radius = 6_371_008.8, rad = Double.pi / 180
    let dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad
    let h = pow(sin(dLat / 2), 2) + cos(a.lat * rad) * cos(b.lat * rad) * pow(sin(dLon / 2), 2)
    return 2 * radius * asin(min(1, h.squareRoot()))
  }

  /// Every ordered pair of location_type 0 stops within 400 m. Pairs further apart in latitude
  /// alone than 400 m are skipped (the great-circle distance is never below the latitude
  /// difference's arc), so a sort by latitude keeps real feeds fast enough.
  static func bruteForce(_ stops: [Stop]) -> Set<Link> {
    let candidates = stops.filter { $0.locationType == 0 }.sorted { $0.lat < $1.lat }
    let band = 401 / (6_371_008.8 * Double.pi / 180)
    var links = Set<Link>()
    for i in candidates.indices {
      var j = i + 1
      while j < candidates.count && candidates[j].lat - candidates[i].lat <= band {
        let d = meters(candidates[i], candidates[j])
        if d <= 400 {
          links.insert(Link(from: candidates[i].id, to: candidates[j].id, meters: Int64(d.rounded())))
          links.insert(Link(from: candidates[j].id, to: candidates[i].id, meters: Int64(d.rounded())))
        }
        j += 1
      }
    }
    return links
  }

  static func stored(_ path: String) throws -> Set<Link> {
    let db = try Connection(path: path, mode: .readOnly)
    let select = try db.prepare(
      "SELECT a.stop_id, b.stop_id, f.distance_m FROM footpaths f JOIN stops a ON a.stop_idx = f.from_stop_idx JOIN stops b ON b.stop_idx = f.to_stop_idx"
    )
    var links = Set<Link>()
    while try select.step() { links.insert(Link(from: select.text(0), to: select.text(1), meters: select.int64(2))) }
    return links
  }

  /// A deterministic generator (SplitMix64), so a failure can be replayed.
  struct SplitMix {
    var state: UInt64
    mutating func next() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    mutating func next(in range: ClosedRange<Double>) -> Double { range.lowerBound + next() * (range.upperBound - range.lowerBound) }
  }

  /// Stops that exercise the search: a dense town, both sides of the antimeridian, round the
  /// North Pole, a pair just inside and just outside 400 m, stations and entrances (never
  /// linked) on top of stops, a boarding area without coordinates, two stops at one point.
  static func stops() -> [Stop] {
    var random = SplitMix(state: 18)
    var stops: [Stop] = []
    for index in 0..<250 {
      stops.append(Stop(id: "town\(index)", lat: random.next(in: 53.28...53.31), lon: random.next(in: -6.40 ... -6.35), locationType: 0))
    }
    for index in 0..<30 {
      let lon = random.next(in: 179.997...180.003)
      stops.append(
        Stop(id: "dateline\(index)", lat: random.next(in: -16.502 ... -16.498), lon: lon > 180 ? lon - 360 : lon, locationType: 0))
    }
    for index in 0..<20 {
      stops.append(Stop(id: "pole\(index)", lat: random.next(in: 89.998...89.9999), lon: random.next(in: -180...180), locationType: 0))
    }
    let metre = 1 / (6_371_008.8 * Double.pi / 180)  // degrees of latitude per metre
    stops.append(Stop(id: "lone", lat: 10, lon: 10, locationType: 0))
    stops.append(Stop(id: "inside", lat: 10 + 399.6 * metre, lon: 10, locationType: 0))
    stops.append(Stop(id: "outside", lat: 10 + 400.4 * metre, lon: 10, locationType: 0))
    stops.append(Stop(id: "east", lat: 10, lon: 10 + 399.6 * metre / cos(10 * Double.pi / 180), locationType: 0))
    stops.append(Stop(id: "twinA", lat: 40, lon: 40, locationType: 0))
    stops.append(Stop(id: "twinB", lat: 40, lon: 40, locationType: 0))
    stops.append(Stop(id: "station", lat: stops[0].lat, lon: stops[0].lon, locationType: 1))
    stops.append(Stop(id: "entrance", lat: stops[1].lat, lon: stops[1].lon + 0.0001, locationType: 2))
    return stops
  }

  @Test func matchesBruteForceOnAnAwkwardFeed() throws {
    let stops = Self.stops()
    var stopsText = "stop_id,stop_name,stop_lat,stop_lon,location_type\n"
    for stop in stops { stopsText += "\(stop.id),\(stop.id),\(stop.lat),\(stop.lon),\(stop.locationType)\n" }
    stopsText += "platform,platform,,,4\n"
    let files = TinyFeed.with([
      "stops.txt": stopsText,
      "stop_times.txt":
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,town0,1\nT1,08:10:00,08:10:00,town1,2\n",
    ])
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(directory.feed(files), as: "awkward", now: 1)
    // Read the values back as stored, so the expectation uses exactly the stored coordinates.
    let db = try Connection(path: timetables.path(of: "awkward"), mode: .readOnly)
    let select = try db.prepare("SELECT stop_id, lat, lon, location_type FROM stops WHERE lat IS NOT NULL")
    var storedStops: [Stop] = []
    while try select.step() {
      storedStops.append(Stop(id: select.text(0), lat: select.double(1), lon: select.double(2), locationType: Int(select.int64(3))))
    }
    #expect(storedStops.count == stops.count)
    let expected = Self.bruteForce(storedStops)
    let actual = try Self.stored(timetables.path(of: "awkward"))
    #expect(expected.count > 2_000)
    #expect(actual.subtracting(expected).sorted { $0.description < $1.description } == [])
    #expect(expected.subtracting(actual).sorted { $0.description < $1.description } == [])
    // The hand-placed cases, spelled out.
    #expect(actual.contains(Link(from: "lone", to: "inside", meters: 400)))
    #expect(actual.contains(Link(from: "east", to: "lone", meters: 400)))
    #expect(!actual.contains { $0.from == "outside" && $0.to == "lone" })
    #expect(actual.contains(Link(from: "twinA", to: "twinB", meters: 0)))
    let longitude = Dictionary(uniqueKeysWithValues: storedStops.map { ($0.id, $0.lon) })
    #expect(actual.contains { $0.from.hasPrefix("dateline") && longitude[$0.from]! > 179 && longitude[$0.to]! < -179 })
    #expect(actual.filter { $0.from.hasPrefix("pole") }.count > 200)
    #expect(
      !actual.contains { ["station", "entrance", "platform"].contains($0.from) || ["station", "entrance", "platform"].contains($0.to) })
  }

  @Test(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
  func matchesBruteForceOnKingCountyMetro() throws {
    // The timetable ingest made, shared with the other suites that only read it.
    let path = try IngestedFeeds.path("kcm-vp-subset-2021.zip", as: "feed")
    let db = try Connection(path: path, mode: .readOnly)
    let select = try db.prepare("SELECT stop_id, lat, lon, location_type FROM stops WHERE lat IS NOT NULL")
    var stops: [Stop] = []
    while try select.step() {
      stops.append(Stop(id: select.text(0), lat: select.double(1), lon: select.double(2), locationType: Int(select.int64(3))))
    }
    #expect(stops.count == 6_257)
    let expected = Self.bruteForce(stops)
    let actual = try Self.stored(path)
    #expect(expected.count > 10_000)
    #expect(actual.count == expected.count)
    #expect(actual == expected)
  }

  /// Each stop's links on a real feed against the test's own k-nearest search: every stop
  /// within 400 m by haversine, nearest first (ties by stop_idx), the first
  /// `FootpathFinder.maxLinksPerPoint` kept. Real feeds never reach that cap, so this is also
  /// every pair within the radius, the footpaths as they were before the search was bounded.
  @Test(
    .enabled(if: SharedData.root != nil, "needs ../shared/data"),
    arguments: ["hart-2020.zip", "caltrain-2023.zip", "nyct-subway-multi-2023.zip"])
  func matchesABruteForceNearestSearchOnARealFeed(file: String) throws {
    let path = try IngestedFeeds.path(file, as: "feed")
    let db = try Connection(path: path, mode: .readOnly)
    let select = try db.prepare("SELECT stop_idx, stop_id, lat, lon FROM stops WHERE location_type = 0 AND lat IS NOT NULL")
    var stops: [(index: Int64, stop: Stop)] = []
    while try select.step() {
      stops.append((select.int64(0), Stop(id: select.text(1), lat: select.double(2), lon: select.double(3), locationType: 0)))
    }
    #expect(stops.count > 50)
    var expected = Set<Link>()
    var mostWithin = 0
    for (index, here) in stops {
      var within: [(index: Int64, id: String, meters: Double)] = []
      for (other, there) in stops where other != index && abs(there.lat - here.lat) < 0.004 {
        let d = Self.meters(here, there)
        if d <= 400 { within.append((other, there.id, d)) }
      }
      mostWithin = max(mostWithin, within.count)
      within.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $0.index < $1.index }
      for link in within.prefix(FootpathFinder.maxLinksPerPoint) {
        expected.insert(Link(from: here.id, to: link.id, meters: Int64(link.meters.rounded())))
      }
    }
    #expect(mostWithin < FootpathFinder.maxLinksPerPoint)
    let actual = try Self.stored(path)
    #expect(actual.count == expected.count)
    #expect(actual.subtracting(expected).sorted { $0.description < $1.description }.prefix(5) == [])
    #expect(expected.subtracting(actual).sorted { $0.description < $1.description }.prefix(5) == [])
  }
}
