import Foundation
import Testing
import TransitModel

@testable import GTFS

/// How ingest groups stations into complexes (`StopComplexes.complexes`), on members placed
/// by hand: distances are worked out here, not by the code under test.
@Suite struct StopComplexesTests {
  /// Great-circle metres (mean Earth radius).
  static func meters(_ a: Coordinate, _ b: Coordinate) -> Double {
    let r = Double.pi / 180
    let h =
      pow(sin((b.latitude - a.latitude) * r / 2), 2) + cos(a.latitude * r) * cos(b.latitude * r)
      * pow(sin((b.longitude - a.longitude) * r / 2), 2)
    return 2 * 6_371_008.8 * asin(sqrt(h))
  }

  static let origin = Coordinate(latitude: 40.7553, longitude: -73.9875)
  /// `metres` north of the origin (a degree of latitude is 111,195 m on the mean sphere).
  static func north(_ metres: Double) -> Coordinate {
    Coordinate(latitude: origin.latitude + metres / 111_194.93, longitude: origin.longitude)
  }

  static func member(_ key: Int64, _ name: String, _ at: Coordinate?) -> StopComplexes.Member {
    StopComplexes.Member(key: key, foldedName: TextFolding.fold(name), coordinate: at)
  }

  @Test func equalNamesWithin400MetresAreOneComplex() {
    let members = [
      Self.member(1, "Times Sq-42 St", Self.origin), Self.member(2, "times sq-42 st", Self.north(150)),
      Self.member(3, "Times Sq-42 St", Self.north(390)),
      // 395 m from 3 but 785 m from 1: joined through 3.
      Self.member(4, "Times Sq-42 St", Self.north(785)),
      // Another name at the same place: not joined.
      Self.member(5, "42 St-Bryant Pk", Self.north(100)),
      // The same name 2 km away: another place.
      Self.member(6, "Times Sq-42 St", Self.north(2785)),
    ]
    #expect(Self.meters(Self.north(390), Self.north(785)) < 400)
    #expect(Self.meters(Self.north(785), Self.north(2785)) > 400)
    #expect(StopComplexes.complexes(of: members, links: []) == [[1, 2, 3, 4]])
  }

  @Test func justOver400MetresIsNotOneComplex() {
    let far = Self.north(401)
    #expect(Self.meters(Self.origin, far) > 400)
    let members = [Self.member(1, "Main Rd", Self.origin), Self.member(2, "Main Rd", far)]
    #expect(StopComplexes.complexes(of: members, links: []).isEmpty)
  }

  @Test func transfersOrPathwaysJoinOtherNames() {
    let members = [
      Self.member(10, "Chambers St", Self.origin), Self.member(11, "Park Place", Self.north(200)),
      Self.member(12, "World Trade Center", Self.north(5000)), Self.member(13, "Cortlandt St", nil),
    ]
    // A link to a member not listed (a stop of another tree) changes nothing.
    let links: [(Int64, Int64)] = [(11, 10), (12, 11), (99, 13), (13, 13)]
    #expect(StopComplexes.complexes(of: members, links: links) == [[10, 11, 12]])
  }

  @Test func unplacedOrUnnamedMembersJoinOnlyByLinks() {
    let members = [Self.member(1, "", Self.origin), Self.member(2, "", Self.origin), Self.member(3, "X", nil), Self.member(4, "X", nil)]
    #expect(StopComplexes.complexes(of: members, links: []).isEmpty)
    #expect(StopComplexes.complexes(of: members, links: [(3, 4)]) == [[3, 4]])
  }
}
