import FoundationEssentials
import Services
import TransitModel

/// `transit stops search TEXT`: stops by code or name.
enum StopsSearchCommand: TransitCommand {
  static let near = Option.place(
    "--near", help: "Nearest first from LAT,LON or a saved place (default: saved place 'home' or TRANSIT_LOCATION, if set)")
  static let limit = Option.integer("--limit", short: "-n", value: "N", in: 1...10_000, help: "Show at most N stops").defaulting(to: 10)
  static let parts = Option.flag("--parts", help: "List each station complex's stations beneath it")

  static let path = ["stops", "search"]
  static let spec = CommandSpec(
    path: path,
    summary: "Find stops by code or name (accents, case and small typos forgiven)",
    arguments: [ArgumentSpec("TEXT", help: "A stop code, a name, or the start of its words ('tallaght sq')", variadic: true)],
    options: [near.spec, limit.spec, parts.spec],
    discussion: """
      The stop code matches first (exactly), then the whole name, then names whose words start
      with the words given, then names within a typo or two. Within each kind the nearest come
      first when a position is known (--near, your saved place 'home', or TRANSIT_LOCATION).
      A station complex (Times Sq-42 St: four stations of one name) is one line, its name what
      to type; --parts lists its stations beneath it.
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
    let session = try SessionSupport.session(invocation)
    var near: Coordinate?
    if let place = try invocation.arguments.read(Self.near) {
      near = try StopCommandSupport.location(place, invocation: invocation)
    } else {
      near = try StopCommandSupport.fallbackLocation(invocation, session: session, allowCentre: false)?.0
    }
    let answer = try session.search(SearchRequest(text: text, near: near, limit: limit))
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }
    guard !answer.matches.isEmpty else {
      invocation.context.stdout.line("no stops match '\(text)'")
      return 0
    }
    invocation.context.stdout.write(StopCommandSupport.table(rows(answer, parts: invocation.arguments.isSet(Self.parts))))
    return 0
  }

  /// The table's rows: id, code, name (kind, label), distance when near somewhere; a complex
  /// once, where its first match was, its name what to type; with `parts`, its stops under it.
  static func rows(_ answer: SearchAnswer, parts showsParts: Bool) -> [[String]] {
    let manyFeeds = answer.namesFeed
    let near = answer.request.near
    var listed: Set<StopComplex> = []
    var rows: [[String]] = []
    for match in answer.matches {
      let distance = near != nil ? [match.distanceMeters.map(StopCommandSupport.distance) ?? ""] : []
      if let complex = match.complex {
        guard listed.insert(complex).inserted else { continue }
        rows.append(["complex", "", complex.name.shown + " (\(complexKind(complex)))"] + distance)
        if showsParts {
          for part in complex.parts {
            let kind = StopCommandSupport.kind(of: part)
            rows.append(
              [
                "  " + (manyFeeds ? "\(part.feed):" : "") + part.id.rawValue, part.code ?? "",
                part.name.shown + (kind.isEmpty ? "" : " (\(kind))"),
              ]
                + (near != nil ? [""] : []))
          }
        }
        continue
      }
      let kind = StopCommandSupport.kind(of: match.stop)
      let label = match.label?.shown
      rows.append(
        [
          (manyFeeds ? "\(match.stop.feed):" : "") + match.stop.id.rawValue, match.stop.code ?? "",
          match.stop.name.shown + (kind.isEmpty ? "" : " (\(kind))") + (label.flatMap { kind.contains($0) ? nil : " · " + $0 } ?? ""),
        ] + distance)
    }
    return rows
  }

  /// "complex of 4 stations", "complex of 2 stops in 2 feeds".
  static func complexKind(_ complex: StopComplex) -> String {
    let feeds = Set(complex.parts.map(\.feed)).count
    let noun = complex.parts.allSatisfy(\.isStation) ? "stations" : "stops"
    return "complex of \(complex.parts.count) \(noun)" + (feeds > 1 ? " in \(feeds) feeds" : "")
  }
}
