/// Options several commands declare, each declared once here (DESIGN.md: "typed options and
/// option groups declared once"): a command lists the group's specs in its own and reads them
/// as its own; no command reads another command's options.
enum RealtimeOptions {
  /// `--refresh`, for the commands that read the configured realtime feeds. A command that does
  /// not declare it never refreshes (`FeedsSupport.asksToRefresh`).
  static let refresh = Option.flag(
    "--refresh", help: "Fetch realtime now, even if the cached snapshot is younger than the feed's period")
}

/// Options that narrow a stop's board or timetable to the trips that go somewhere.
enum TripFilterOptions {
  /// `--via STOP`: the trips that call at STOP after the stop asked about and let riders off.
  static let via = Option.text(
    "--via", value: "STOP",
    help: "Only trips that call at STOP (a stop, station or complex) after this one and let riders off there")
}
