/// The one loop of the live views (issue 33: the board's `--watch`, `vehicles --watch`,
/// `follow`, `commute --watch`, `plan --watch`): each asks its session for an update, and this
/// loop shows it. On a terminal that can move the cursor it takes the alternate screen (q,
/// Ctrl-C or SIGTERM restore it) and redraws the update every second and at once on a resize,
/// so countdowns run down between fetches; elsewhere, and with TERM=dumb, each update is printed
/// as a plain frame, a blank line between frames. `--count N` stops after N updates.
struct WatchLoop {
  /// One update of a view.
  struct Update {
    /// The update as a plain frame (off a terminal).
    var plain: [String]
    /// The update on the screen `seconds` after it was fetched, at the window's `size`, with
    /// the footer to show under it (nil: none).
    var screen: (_ size: (columns: Int, rows: Int), _ seconds: Double, _ footer: String) -> [String]
    /// Seconds until the next update.
    var wait: Double
    /// A problem to name in the footer (a failed fetch, a feed left out).
    var problem: String?
    /// Whether the view ends after it (a replay's last snapshot): it stays on the screen for
    /// `wait`, and a plain frame is the last output.
    var isLast = false
    /// Called every second until the next update, `seconds` after this one (an alarm's
    /// check), before the screen is drawn; with it, a plain view waits in steps of a second.
    var tick: ((_ seconds: Double) -> Void)?
  }

  /// What one step of the view gave: an update, or the end of the view.
  enum Step {
    case update(Update)
    case end
  }

  let invocation: Invocation
  /// The full screen, when stdout is a terminal that can move the cursor.
  let screen: Terminal?
  /// Stop after this many updates.
  var count: Int?
  /// Seconds the last of `count` updates stays on the screen before the view ends.
  var lastHold: Double = 0
  /// Whether plain frames are set apart by a blank line (JSON Lines are not).
  var separatesFrames = true

  /// A loop for `invocation`: the full screen when `fullScreen` allows one and stdout can
  /// show it.
  init(_ invocation: Invocation, count: Int?, fullScreen: Bool = true) {
    self.invocation = invocation
    self.count = count
    let context = invocation.context
    let canMoveCursor = context.stdoutIsTerminal && context.environment["TERM"] != "dumb"
    screen = fullScreen && canMoveCursor ? Terminal.open() : nil
    screen?.allowsColour = invocation.useColor
  }

  /// Whether updates are drawn on the full screen (diagnostics would scribble over it: they
  /// belong in the footer).
  var isFullScreen: Bool { screen != nil }

  /// This invocation as an update should see it: on the full screen, with stderr kept in
  /// memory (its last line becomes the footer's problem); else as it is.
  func quiet() -> Invocation { screen != nil ? BoardSupport.quietStderr(invocation) : invocation }

  /// Runs the view: `next` gives each update (it is called again after each wait) until it
  /// says `.end`, `count` updates were shown, or the user quits.
  /// - Returns: the exit code, 0.
  func run(_ next: () throws -> Step) throws -> Int32 {
    defer { screen?.close() }
    let context = invocation.context
    var updates = 0
    while true {
      guard case .update(let update) = try next() else { return 0 }
      updates += 1
      let last = count.map { updates >= $0 } ?? false
      guard let screen else {
        context.stdout.write(update.plain.joined(separator: "\n") + "\n")
        if let tick = update.tick {
          let start = context.elapsed()
          while true {
            let seconds = context.elapsed() - start
            tick(seconds)
            if update.wait - seconds <= 0 || last { break }
            context.sleep(min(1, update.wait - seconds))
          }
        }
        if last || update.isLast { return 0 }
        if separatesFrames { context.stdout.line() }
        if update.tick == nil { context.sleep(update.wait) }
        continue
      }
      // Redraw every second until the next update; at once on a resize.
      let start = context.elapsed()
      while true {
        let seconds = context.elapsed() - start
        let left = update.wait - seconds
        var footer = "q quits · next update in \(max(0, Int(left.rounded(.up)))) s"
        if let problem = update.problem { footer += " · " + problem }
        update.tick?(seconds)
        screen.draw(update.screen(screen.size(), seconds, footer))
        if left <= 0 || last && seconds >= lastHold { break }
        if screen.wait(seconds: min(1, left), elapsed: context.elapsed) == .quit { return 0 }
      }
      if last || update.isLast { return 0 }
    }
  }
}
