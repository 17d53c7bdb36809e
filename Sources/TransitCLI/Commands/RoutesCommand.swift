import FoundationEssentials
import Services
import TransitModel

/// `transit routes [TEXT]`: every route, or those matching TEXT or serving a stop.
enum RoutesCommand: TransitCommand {
  static let mode = Option.modes(
    "--mode", value: "MODE",
    help: "Only routes of MODE: \(ValueParser.modeNames.joined(separator: ", ")) (comma-separated or repeated)")
  static let stop = Option.text(
    "--stop", value: "S", help: "Only routes calling at stop S (id, code or name; a station: any platform; a complex: any of its stations)",
    complete: .dynamic(.favourites))

  static let path = ["routes"]
  static let spec = CommandSpec(
    path: path,
    summary: "Every route, or those matching TEXT: mode, agency, colour and main destinations",
    arguments: [
      ArgumentSpec("TEXT", help: "A route's short name, long name or id (typos forgiven)", optional: true, complete: .dynamic(.routes))
    ],
    options: [mode.spec, stop.spec],
    discussion: """
      Lists each route with its mode, its colour (a swatch, on a terminal), its long name, where
      its trips mostly go (per direction, the destination of the stop sequence most trips
      follow) and its agency. TEXT matches the route_id first, then the short name, then the
      whole long name (ignoring case and accents), then the start of the short name or of
      long-name words, then names within a typo or two. Extended route types (100-1799) count
      as their basic mode.
      """,
    examples: [
      "transit routes",
      "transit routes 27",
      "transit routes tallaght --mode bus",
      "transit routes --stop TINT --json",
    ])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let arguments = invocation.arguments
    let modes = try arguments.read(mode)
    let session = try SessionSupport.session(invocation)
    let place = try arguments.read(stop).map { try StopCommandSupport.resolvePlace($0, session: session, context: invocation.context) }
    let answer = try session.routes(RoutesRequest(text: arguments.positionals.first, stop: place, modes: modes))
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(answer))
      return 0
    }
    let out = invocation.context.stdout
    guard !answer.listings.isEmpty else {
      var what = "no routes"
      if let text = answer.request.text { what += " match '\(text)'" }
      if let place { what += " call at \(place.name.shown)" }
      if !modes.isEmpty { what += " of mode \(modes.map(\.rawValue).sorted().joined(separator: ", "))" }
      out.line(what)
      return 0
    }
    let colour = invocation.useColor
    let rows = answer.listings.map { listing in
      [
        (answer.namesFeed ? "\(listing.route.feed):" : "") + listing.route.shortName.shown, listing.route.mode.rawValue,
        listing.route.longName?.shown ?? "",
        listing.destinations.isEmpty ? "" : "→ " + listing.destinations.map(\.shown).joined(separator: " / "),
        listing.agencyName?.shown ?? "",
      ]
    }
    let lines = StopCommandSupport.table(rows).split(separator: "\n", omittingEmptySubsequences: false)
    for (listing, line) in zip(answer.listings, lines) {
      // The swatch goes in front of the aligned text: its escapes have no width.
      let swatch = RouteCommandSupport.swatch(listing.route.color, environment: invocation.context.environment, enabled: colour)
      out.line(colour ? (swatch.isEmpty ? "   " : swatch + " ") + line : String(line))
    }
    return 0
  }
}
