import Services
import TransitModel

/// What the route commands share: resolving a ROUTE argument and colour swatches.
enum RouteCommandSupport {
  /// The route `text` names (`TransitSession.route(named:)`); when it names several or none,
  /// lists the candidates on stderr and throws `NotFoundError` (exit 3).
  static func resolveRoute(_ text: String, session: TransitSession, context: CommandContext) throws -> RouteSummary {
    try route(of: session.route(named: text), context: context)
  }

  /// The route `lookup` found; else its candidates on stderr and a `NotFoundError`.
  static func route(of lookup: RouteLookup, context: CommandContext) throws -> RouteSummary {
    switch lookup.outcome {
    case .found(let route):
      return route
    case .ambiguous:
      context.stderr.line("'\(lookup.text)' could be:")
      context.stderr.write(candidateLines(lookup.candidates, namesFeed: lookup.namesFeed))
      throw NotFoundError("'\(lookup.text)' matches \(lookup.candidates.count) routes; give the route_id of the one you mean")
    case .notFound:
      if !lookup.candidates.isEmpty {
        context.stderr.line("routes with similar names:")
        context.stderr.write(candidateLines(lookup.candidates, namesFeed: lookup.namesFeed))
      }
      throw NotFoundError("no route with id, short name or long name '\(lookup.text)'")
    }
  }

  /// Aligned lines naming each route by id, short name, long name and mode.
  static func candidateLines(_ routes: [RouteSummary], namesFeed manyFeeds: Bool) -> String {
    StopCommandSupport.table(
      routes.map { route in
        [
          "  " + (manyFeeds ? "\(route.feed):" : "") + route.id.rawValue.shown, route.shortName.shown, route.longName?.shown ?? "",
          route.mode.rawValue,
        ]
      })
  }

  /// "#F6A800" from "f6a800"; nil for anything but six hex digits.
  static func hexColor(_ color: String?) -> String? { RouteColour.hex(color) }

  /// Two blocks in the route's colour: a 24-bit escape when COLORTERM says the terminal has
  /// them, else the nearest of the 256 colours; "" without colour or a route_color.
  static func swatch(_ color: String?, environment: [String: String], enabled: Bool) -> String {
    guard enabled, let hex = hexColor(color), let value = Int(hex.dropFirst(), radix: 16) else { return "" }
    let red = (value >> 16) & 0xFF, green = (value >> 8) & 0xFF, blue = value & 0xFF
    let trueColor = ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "")
    let code = trueColor ? "38;2;\(red);\(green);\(blue)" : "38;5;\(xterm256(red: red, green: green, blue: blue))"
    return "\u{1B}[\(code)m██\u{1B}[0m"
  }

  /// The nearest entry of xterm's 6×6×6 colour cube or its grey ramp.
  static func xterm256(red: Int, green: Int, blue: Int) -> Int {
    let levels = [0, 95, 135, 175, 215, 255]
    func nearest(_ value: Int) -> Int { levels.indices.min { abs(levels[$0] - value) < abs(levels[$1] - value) }! }
    let (r, g, b) = (nearest(red), nearest(green), nearest(blue))
    let cube = 16 + 36 * r + 6 * g + b
    let cubeDistance = [(levels[r], red), (levels[g], green), (levels[b], blue)].reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
    let grey = min(23, max(0, ((red + green + blue) / 3 - 8 + 5) / 10))
    let greyLevel = 8 + grey * 10
    let greyDistance = [red, green, blue].reduce(0) { $0 + ($1 - greyLevel) * ($1 - greyLevel) }
    return greyDistance < cubeDistance ? 232 + grey : cube
  }
}
