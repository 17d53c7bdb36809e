import Fetch
import FoundationEssentials

/// `transit vehicles --watch` (issue 20): the vehicle list kept on the screen, fetched again
/// in step with the feed (the poll schedule `follow` uses), q quits. Each update is the list
/// `vehicles` prints, drawn in place and cut to the window; plain frames with TERM=dumb or
/// off a terminal.
enum VehiclesWatch {
  static let watch = Option.flag("--watch", help: "Keep the list on the screen, refreshed with the feed; q quits")
  static let count = Option.integer("--count", value: "N", in: 1...1_000_000, help: "With --watch: stop after N updates")

  /// The environment key that marks one frame of the watch (not a name a shell can set).
  static let frameKey = "transit.watch-frame"

  /// Runs the watch when asked for (and this is not one of its frames); nil otherwise.
  static func dispatch(_ invocation: Invocation) throws -> Int32? {
    let arguments = invocation.arguments
    guard invocation.context.environment[frameKey] == nil else { return nil }
    guard arguments.isSet(watch) else {
      if arguments.isGiven(count) { throw UsageError("--count N goes with --watch") }
      return nil
    }
    if invocation.global.json || arguments.isSet(MapSupport.map) || arguments.isGiven(VehiclesCommand.replay) {
      throw UsageError("--watch draws the list: leave out --json, --map and --replay")
    }
    let count = try arguments.read(Self.count)
    let context = invocation.context
    let canMoveCursor = context.stdoutIsTerminal && context.environment["TERM"] != "dumb"
    let screen = canMoveCursor ? Terminal.open() : nil
    defer { screen?.close() }
    let clock = BoardSupport.clock(invocation)
    let period = try FeedsSupport.configuration(invocation).feeds.filter { !$0.realtimeURLs.isEmpty }.map { Int64($0.periodSeconds) }.min()
    var fetches = 0
    while true {
      // One frame: the command's own list, written to memory.
      var environment = context.environment
      environment[frameKey] = "1"
      let frameContext = CommandContext(
        environment: environment, stdout: .memory(), stderr: screen == nil ? context.stderr : .memory(),
        stdoutIsTerminal: false, stderrIsTerminal: false, clock: context.clock, currentDirectory: context.currentDirectory,
        sleep: context.sleep, elapsed: context.elapsed)
      frameContext.stdout.plainSymbols = context.stdout.plainSymbols
      var frame = invocation
      frame.context = frameContext
      frame.global.now = invocation.global.now.map { _ in clock() }
      let code = try VehiclesCommand.run(frame)
      guard code == 0 else { return code }
      fetches += 1
      let lines = frameContext.stdout.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
      let last = count.map { fetches >= $0 } ?? false
      let wait = Double(
        PollSchedule.nextFetch(now: context.clock.now().seconds, lastHeaderTimestamp: nil, period: period) - context.clock.now().seconds)
      guard let screen else {
        context.stdout.write(lines.joined(separator: "\n") + "\n")
        if last { return 0 }
        context.stdout.line()
        context.sleep(wait)
        continue
      }
      let start = context.elapsed()
      while true {
        let left = wait - (context.elapsed() - start)
        let size = screen.size()
        let footer = "q quits · next update in \(max(0, Int(left.rounded(.up)))) s"
        let body = lines.prefix(max(1, size.rows - 2)) + ["", footer]
        screen.draw(body.map { $0.count > size.columns ? String($0.prefix(size.columns)) : $0 })
        if left <= 0 || last { break }
        if screen.wait(seconds: min(1, left), elapsed: context.elapsed) == .quit { return 0 }
      }
      if last { return 0 }
    }
  }
}
