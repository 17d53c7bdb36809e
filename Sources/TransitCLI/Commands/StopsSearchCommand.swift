import FoundationEssentials
import GTFS
import TransitModel

/// `transit stops search TEXT`: stops by code or name.
enum StopsSearchCommand: TransitCommand {
  static let near = Option.place(
    "--near", help: "Nearest first from LAT,LON or a saved place (default: saved place 'home' or TRANSIT_LOCATION, if set)")
  static let limit = Option.integer("--limit", short: "-n", value: "N", in: 1...10_000, help: "Show at most N stops").defaulting(to: 10)

  static let path = ["stops", "search"]
  static let spec = CommandSpec(
    path: path,
    summary: "Find stops by code or name (accents, case and small typos forgiven)",
    arguments: [ArgumentSpec("TEXT", help: "A stop code, a name, or the start of its words ('tallaght sq')", variadic: true)],
    options: [near.spec, limit.spec],
    discussion: """
      The stop code matches first (exactly), then the whole name, then names whose words start
      with the words given, then names within a typo or two. Within each kind the nearest come
      first when a position is known (--near, your saved place 'home', or TRANSIT_LOCATION).
      """,
    examples: [
      "transit stops search 4530",
      "transit stops search tallaght sq",
      "transit stops search 'pairc thiomoin' --near 53.29,-6.37",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    let text = invocation.arguments.positionals.joined(separator: " ")
    guard !text.trimmingSpaces().isEmpty else { throw UsageError("missing TEXT") }
    let limit = try invocation.arguments.read(Self.limit)
    let store = try StopCommandSupport.openStore(invocation)
    var near: Coordinate?
    if let place = try invocation.arguments.read(Self.near) {
      near = try StopCommandSupport.location(place, invocation: invocation)
    } else {
      near = try StopCommandSupport.fallbackLocation(invocation, store: store, allowCentre: false)?.0
    }
    let matches = try store.search(text, near: near, limit: limit)
    let manyFeeds = store.feedNames.count > 1

    if invocation.global.json {
      let json = JSON.array(
        matches.map { match in
          var members = StopCommandSupport.stopJSON(match.stop, manyFeeds: manyFeeds)
          members += [
            ("location_type", .number(match.stop.locationType)),
            ("parent_station", .optional(match.stop.parentStation?.rawValue)),
            ("match", .string(name(of: match.kind))),
            ("distance_m", match.distanceMeters.map { .double(($0 * 10).rounded() / 10) } ?? .null),
          ]
          return .object(members)
        })
      invocation.context.stdout.line(json.serialized(pretty: true))
      return 0
    }
    guard !matches.isEmpty else {
      invocation.context.stdout.line("no stops match '\(text)'")
      return 0
    }
    let labels = try store.distinguishingLabels(matches.map(\.stop))
    let rows = zip(matches, labels).map { match, label -> [String] in
      let kind = StopCommandSupport.kind(of: match.stop)
      var row = [
        (manyFeeds ? "\(match.stop.feed):" : "") + match.stop.id.rawValue, match.stop.code ?? "",
        match.stop.name + (kind.isEmpty ? "" : " (\(kind))") + (label.flatMap { kind.contains($0) ? nil : " · " + $0 } ?? ""),
      ]
      if near != nil { row.append(match.distanceMeters.map(StopCommandSupport.distance) ?? "") }
      return row
    }
    invocation.context.stdout.write(StopCommandSupport.table(rows))
    return 0
  }

  /// The `match` value in JSON.
  static func name(of kind: StopMatchKind) -> String {
    switch kind {
    case .code: return "code"
    case .name: return "name"
    case .words: return "words"
    case .typo: return "typo"
    }
  }
}
