import FoundationEssentials
import Services
import TransitModel

/// What the `places` commands share.
enum PlacesSupport {
  /// The user's data in the data folder.
  static func users(_ invocation: Invocation) -> UserDataAccess {
    UserDataAccess(directory: invocation.paths.data)
  }

  /// A place name as stored: trimmed, lower-case; a usage error when it could be read as a
  /// position or is empty.
  static func name(_ text: String) throws(UsageError) -> String {
    let name = text.trimmingSpaces().lowercased()
    // Control characters (and bidi controls) would make two places print as one name.
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
      throw UsageError("place name '\(text.debugDescription.dropFirst().dropLast())' holds a control character")
    }
    guard let first = name.first, first.isLetter, name.count <= 40, !name.contains(",") else {
      throw UsageError("place name '\(text)' must start with a letter, hold no comma and be at most 40 characters")
    }
    return name
  }

}

/// `transit places add NAME LAT,LON`.
enum PlacesAddCommand: TransitCommand {
  static let path = ["places", "add"]
  static let spec = CommandSpec(
    path: path,
    summary: "Save a place (home, work, ...) to use wherever a position is asked for",
    arguments: [
      ArgumentSpec("NAME", help: "The place's name (home, work, gym); saving it again moves it"),
      ArgumentSpec("LAT,LON", help: "Its position in degrees"),
    ],
    discussion: """
      A saved place can be given wherever a position is accepted: 'transit stops near work',
      'transit stops search main --near work', 'transit departures TINT --from home'. The place
      'home' is where transit assumes you are when you do not say (before TRANSIT_LOCATION).
      Places live in user.sqlite, which loading a timetable never touches.
      """,
    examples: ["transit places add home 53.2891,-6.3735", "transit places add work 53.2941,-6.4010"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 2)
    let name = try PlacesSupport.name(try invocation.argument(0))
    let point = try ValueParser.coordinate(try invocation.argument(1), option: "LAT,LON")
    let place = SavedPlace(name: name, coordinate: point)
    let existed = try PlacesSupport.users(invocation).save(place, now: invocation.now)
    if invocation.global.json {
      invocation.context.stdout.line(JSONTreeEncoder.text(place))
    } else {
      invocation.context.stdout.line("\(existed ? "moved" : "saved") place '\(name)' at \(StopCommandSupport.describe(point))")
    }
    return 0
  }
}

/// `transit places list`.
enum PlacesListCommand: TransitCommand {
  static let path = ["places", "list"]
  static let spec = CommandSpec(
    path: path,
    summary: "The saved places",
    examples: ["transit places list", "transit places list --json"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let places = try PlacesSupport.users(invocation).places()
    let out = invocation.context.stdout
    if invocation.global.json {
      out.line(JSONTreeEncoder.text(places))
      return 0
    }
    guard !places.isEmpty else {
      out.line("no saved places; save one with 'transit places add home LAT,LON'")
      return 0
    }
    let rows = places.map { place in
      [place.name.shown, StopCommandSupport.describe(place.coordinate)]
    }
    out.write(StopCommandSupport.table(rows))
    return 0
  }
}

/// `transit places remove NAME`.
enum PlacesRemoveCommand: TransitCommand {
  static let path = ["places", "remove"]
  static let spec = CommandSpec(
    path: path,
    summary: "Forget a saved place",
    arguments: [ArgumentSpec("NAME", help: "The place's name", complete: .dynamic(.places))],
    examples: ["transit places remove gym", "transit places remove work"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let text = try invocation.argument(0)
    let name = text.trimmingSpaces().lowercased()
    guard try PlacesSupport.users(invocation).removePlace(named: name) else {
      throw NotFoundError("no saved place '\(text)'")
    }
    if invocation.global.json {
      invocation.context.stdout.line(JSON.object([("removed", .string(name))]).serialized(pretty: true))
    } else {
      invocation.context.stdout.line("removed place '\(name)'")
    }
    return 0
  }
}
