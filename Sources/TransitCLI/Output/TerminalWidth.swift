/// How wide text output may be.
enum TerminalWidth {
  /// COLUMNS when set, else the terminal's width, else `fallback` (piped output).
  static func columns(_ invocation: Invocation, fallback: Int = 80) -> Int {
    if let columns = invocation.context.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
    if invocation.context.stdoutIsTerminal, let window = Terminal.windowSize() { return window.columns }
    return fallback
  }

  /// COLUMNS when set, else the terminal's width; nil when piped.
  static func terminalColumns(_ invocation: Invocation) -> Int? {
    if let columns = environmentColumns(invocation) { return columns }
    if invocation.context.stdoutIsTerminal, let window = Terminal.windowSize() { return window.columns }
    return nil
  }

  /// COLUMNS when set (a positive number); nil otherwise.
  static func environmentColumns(_ invocation: Invocation) -> Int? {
    invocation.context.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
  }
}
