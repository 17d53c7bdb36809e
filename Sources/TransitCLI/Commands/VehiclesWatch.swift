import FoundationEssentials
import Services

/// `transit vehicles --watch` (issue 20): the vehicle list kept on the screen, fetched again
/// in step with the feed (the poll schedule `follow` uses), q quits. Each update is the list
/// `vehicles` prints (the session's answer, drawn by the same lines), drawn in place and cut
/// to the window; plain frames with TERM=dumb or off a terminal.
enum VehiclesWatch {
  static let watch = Option.flag("--watch", help: "Keep the list on the screen, refreshed with the feed; q quits")
  static let count = Option.integer("--count", value: "N", in: 1...1_000_000, help: "With --watch: stop after N updates")

  /// Runs the watch when asked for; nil otherwise.
  static func dispatch(_ invocation: Invocation) throws -> Int32? {
    let arguments = invocation.arguments
    guard arguments.isSet(watch) else {
      if arguments.isGiven(count) { throw UsageError("--count N goes with --watch") }
      return nil
    }
    if invocation.global.json || arguments.isSet(MapSupport.map) || arguments.isGiven(VehiclesCommand.replay) {
      throw UsageError("--watch draws the list: leave out --json, --map and --replay")
    }
    let count = try arguments.read(Self.count)
    let request = try VehiclesCommand.request(invocation)
    let session = try SessionSupport.session(invocation)
    let context = invocation.context
    let loop = WatchLoop(invocation, count: count)
    let clock = BoardSupport.clock(invocation)
    let twelveHour = StopCommandSupport.uses12HourClock(invocation)
    // The frames are as wide as COLUMNS says (the window cuts them), all columns with --wide.
    let width = arguments.isSet(VehiclesCommand.wide) ? nil : TerminalWidth.environmentColumns(invocation)
    return try loop.run {
      let answer = try session.vehicles(request, now: clock())
      // On the screen, diagnostics would be drawn over: they are left out.
      if !loop.isFullScreen { VehiclesCommand.report(answer, invocation: invocation) }
      let lines = VehiclesCommand.lines(for: answer, twelveHour: twelveHour, width: width)
      let now = context.clock.now().seconds
      let shown = loop.isFullScreen ? lines.map(context.stdout.symbols) : lines
      return .update(
        WatchLoop.Update(
          plain: lines,
          screen: { size, _, footer in
            (shown.prefix(max(1, size.rows - 2)) + ["", footer]).map { $0.count > size.columns ? String($0.prefix(size.columns)) : $0 }
          }, wait: Double(session.nextVehiclesFetch(now: now) - now)))
    }
  }
}
