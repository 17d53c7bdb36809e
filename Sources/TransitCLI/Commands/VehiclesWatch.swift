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
    let canMoveCursor = context.stdoutIsTerminal && context.environment["TERM"] != "dumb"
    let screen = canMoveCursor ? Terminal.open() : nil
    defer { screen?.close() }
    let clock = BoardSupport.clock(invocation)
    let twelveHour = StopCommandSupport.uses12HourClock(invocation)
    // The frames are as wide as COLUMNS says (the window cuts them), all columns with --wide.
    let width = arguments.isSet(VehiclesCommand.wide) ? nil : TerminalWidth.environmentColumns(invocation)
    var fetches = 0
    while true {
      let answer = try session.vehicles(request, now: clock())
      // On the screen, diagnostics would be drawn over: they are left out.
      if screen == nil { VehiclesCommand.report(answer, invocation: invocation) }
      fetches += 1
      let lines = VehiclesCommand.lines(for: answer, twelveHour: twelveHour, width: width)
      let last = count.map { fetches >= $0 } ?? false
      let now = context.clock.now().seconds
      let wait = Double(session.nextVehiclesFetch(now: now) - now)
      guard let screen else {
        context.stdout.write(lines.joined(separator: "\n") + "\n")
        if last { return 0 }
        context.stdout.line()
        context.sleep(wait)
        continue
      }
      let shown = lines.map(context.stdout.symbols)
      let start = context.elapsed()
      while true {
        let left = wait - (context.elapsed() - start)
        let size = screen.size()
        let footer = "q quits · next update in \(max(0, Int(left.rounded(.up)))) s"
        let body = shown.prefix(max(1, size.rows - 2)) + ["", footer]
        screen.draw(body.map { $0.count > size.columns ? String($0.prefix(size.columns)) : $0 })
        if left <= 0 || last { break }
        if screen.wait(seconds: min(1, left), elapsed: context.elapsed) == .quit { return 0 }
      }
      if last { return 0 }
    }
  }
}
