import FoundationEssentials
import Services
import TransitModel

/// What the `--map` commands share: the options, the map's size and its character set.
enum MapSupport {
  static let map = Option.flag("--map", help: "Draw a map in the terminal (braille dots; see --ascii)")
  static let ascii = Option.flag("--ascii", help: "With --map: draw with ASCII characters instead of braille")

  /// The map's size when stdout is not a terminal (and COLUMNS / LINES do not say).
  static let defaultSize = (columns: 60, rows: 20)

  /// Columns and rows for a map with `reserved` rows kept for other text: COLUMNS and LINES
  /// when set, else the terminal's size, else 60 × 20; at least 20 × 6, at most 160 × 60.
  static func size(_ invocation: Invocation, reserved: Int = 0) -> (columns: Int, rows: Int) {
    let environment = invocation.context.environment
    var size = defaultSize
    if invocation.context.stdoutIsTerminal, let window = Terminal.windowSize() {
      size = (window.columns, max(6, window.rows - reserved))
    }
    if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { size.columns = columns }
    if let rows = environment["LINES"].flatMap({ Int($0) }), rows > 0 { size.rows = max(6, rows - reserved) }
    return (min(160, max(20, size.columns)), min(60, max(6, size.rows)))
  }

  /// Whether to draw with ASCII: `--ascii`, TERM=dumb, or a locale that is not UTF-8 (the
  /// first of LC_ALL, LC_CTYPE, LANG that is set; none set is the POSIX locale, ASCII).
  static func isASCII(_ invocation: Invocation) -> Bool {
    invocation.arguments.isSet(ascii) || environmentWantsASCII(invocation.context.environment)
  }

  /// Whether TERM=dumb or a locale that is not UTF-8 asks for ASCII (for a map drawn without
  /// an --ascii option: the follow panel).
  static func environmentWantsASCII(_ environment: [String: String]) -> Bool {
    if environment["TERM"] == "dumb" { return true }
    return !LocaleEnvironment.isUTF8(LocaleEnvironment.name(.characters, in: environment) ?? "")
  }

  /// Refuses `--map` with `--json` (one JSON document, never mixed with text) and `--ascii`
  /// without `--map`.
  static func validate(_ invocation: Invocation) throws(UsageError) {
    let drawsMap = invocation.arguments.isSet(map)
    if drawsMap && invocation.global.json { throw UsageError("--map draws text; it cannot go with --json") }
    if invocation.arguments.isSet(ascii) && !drawsMap { throw UsageError("--ascii goes with --map") }
  }

  /// Between the parts of a legend: " · ", or ", " in ASCII.
  static func separator(ascii: Bool) -> String { ascii ? ", " : " · " }

  /// The map's lines with the spaces at their ends taken off, for printing on its own.
  static func trimmed(_ lines: [String]) -> String {
    lines.map { line in
      var line = Substring(line)
      while line.last == " " { line = line.dropLast() }
      return String(line) + "\n"
    }.joined()
  }
}
