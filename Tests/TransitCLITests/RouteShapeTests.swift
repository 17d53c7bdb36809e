import Testing

/// One route, one JSON shape (issue 33): the route object is the same wherever an answer shows
/// it: `routes --json` (all, by text, by stop, by mode) and the `route` member of
/// `route show --json` (by short name or route_id). The golden objects are worked out by hand
/// from `LiveShapeFeed`'s routes.txt and trips.txt.
@Suite struct RouteShapeTests {
  /// R1: its colours as #RRGGBB, its agency's name, a destination per direction (direction 0's
  /// headsign Cedar, then direction 1's Alder), two trips.
  static var one: [String: Any?] {
    [
      "route_id": "R1", "short_name": "1", "long_name": "Alder - Cedar", "mode": "bus", "route_type": 3, "color": "#00AA55",
      "text_color": "#FFFFFF", "agency": "Main Lines", "destinations": ["Cedar", "Alder"], "trips": 2,
    ]
  }

  /// R2: no colours, one direction, one trip.
  static var two: [String: Any?] {
    [
      "route_id": "R2", "short_name": "2", "long_name": "Birch - Dogwood", "mode": "bus", "route_type": 3, "color": nil,
      "text_color": nil, "agency": "Main Lines", "destinations": ["Dogwood"], "trips": 1,
    ]
  }

  /// The members in the order every view writes them (DESIGN.md documents none for routes).
  static let order = [
    "route_id", "short_name", "long_name", "mode", "route_type", "color", "text_color", "agency", "destinations", "trips",
  ]

  @Test func routesAndRouteShowShowOneObject() throws {
    let (home, _) = try LiveShapeFeed.home()
    let common = ["--json", "--now", LiveShapeFeed.now, "--data-dir", home.path]
    func document(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
      let result = transit(arguments + common)
      try #require(result.code == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
      return result.stdout
    }
    func matches(_ object: ShapeGolden.Node, _ golden: [String: Any?], _ view: String) {
      ShapeGolden.expect(object, golden, view)
      #expect(object.keys == Self.order, "\(view): \(object.keys)")
    }

    let all = try ShapeGolden.node(try document(["routes"]))
    #expect(all.elements.count == 2)
    matches(try #require(all[0]), Self.one, "routes[0]")
    matches(try #require(all[1]), Self.two, "routes[1]")
    for filter in [["1"], ["Cedar"], ["--stop", "A"], ["--mode", "bus"]] {
      matches(try ShapeGolden.node(try document(["routes"] + filter), [0]), Self.one, "routes \(filter.joined(separator: " "))")
    }
    for name in ["1", "R1"] {
      matches(try ShapeGolden.node(try document(["route", "show", name]), ["route"]), Self.one, "route show \(name)")
    }
    matches(try ShapeGolden.node(try document(["route", "show", "2"]), ["route"]), Self.two, "route show 2")

    // `stops show --json` lists the routes calling at a stop: a stop's route summary, an
    // answer of its own (the route's names as the board and `vehicles` name them, and the
    // destinations from that stop), not the route object; scripts read it
    // (StopsAndDeparturesCommandTests pins `route_short_name` there). Its members, exactly:
    let stop = try ShapeGolden.node(try document(["stops", "show", "A"]), ["routes", 0])
    #expect(stop.keys == ["route_id", "route_short_name", "route_long_name", "route_type", "mode", "destinations"])
  }
}
