import Foundation
import TransitModel

@testable import TransitCLI

extension CommandContext {
  /// A capturing context whose clock starts at `start` (the real time unless given) and moves
  /// only when the command sleeps, by what it sleeps: `record --duration 1s` runs its whole
  /// loop (fetch, wait for the end, stop) without a second of real waiting, which a test
  /// thread would otherwise spend blocked (issue 22, "Tests").
  static func stepped(
    from start: UnixTime = WallClock.system.now(), environment: [String: String] = [:], currentDirectory: String = "/"
  ) -> CommandContext {
    final class Counter: @unchecked Sendable {
      let lock = NSLock()
      var seconds = 0.0
      func add(_ value: Double) { lock.withLock { seconds += value } }
      var value: Double { lock.withLock { seconds } }
    }
    let counter = Counter()
    let context = CommandContext.capturing(environment: environment, currentDirectory: currentDirectory)
    context.clock = WallClock { start + Int64(counter.value.rounded(.down)) }
    context.sleep = { if $0 > 0 { counter.add($0) } }
    context.elapsed = { counter.value }
    return context
  }
}
