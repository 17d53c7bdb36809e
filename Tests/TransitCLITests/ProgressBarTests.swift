import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// Progress on a terminal (bar, share, rate, time left), nothing but the final line otherwise.
@Suite struct ProgressBarTests {
  @Test func lineShowsRateAndTimeLeft() {
    let line = ProgressBar.line(fraction: 0.5, label: "stop_times.txt", count: 100_000, unit: "rows", elapsedSeconds: 2)
    #expect(
      line == String(repeating: "█", count: 12) + String(repeating: "░", count: 12) + " 50% stop_times.txt · 50,000 rows/s · 2 s left")
    let slow = ProgressBar.line(fraction: 0.25, label: "recording", count: 3, unit: "snapshots", elapsedSeconds: 60)
    #expect(slow.hasSuffix(" 25% recording · 3.0 snapshots/min · 3 min left"))
    let open = ProgressBar.line(fraction: nil, label: "recording: 2 snapshots saved", count: 2, unit: "snapshots", elapsedSeconds: 30)
    #expect(open == "recording: 2 snapshots saved · 4.0 snapshots/min · 30 s so far")
    #expect(
      ProgressBar.line(fraction: 1, label: "building indexes", count: nil, unit: "rows", elapsedSeconds: 1).hasSuffix(
        " 100% building indexes"))
  }

  @Test func redrawsInPlaceAtMostTenTimesASecond() {
    var nanoseconds: UInt64 = 0
    let sink = OutputSink.memory()
    let bar = ProgressBar(sink: sink, enabled: true, unit: "rows", clock: { nanoseconds })
    bar.update(fraction: 0.1, label: "a", count: 10)
    nanoseconds = 50_000_000
    bar.update(fraction: 0.2, label: "b", count: 20)  // too soon: skipped
    nanoseconds = 1_000_000_000
    bar.update(fraction: 0.5, label: "c", count: 500)
    bar.finish()
    let draws = sink.text.components(separatedBy: "\r\u{1B}[2K")
    #expect(draws.count == 4)  // two frames and the clearing
    #expect(draws[2].hasSuffix(" 50% c · 500 rows/s · 1 s left"))
    #expect(draws[3].isEmpty)
  }

  @Test func silentWhenDisabled() {
    let sink = OutputSink.memory()
    let bar = ProgressBar(sink: sink, enabled: false, unit: "rows")
    bar.update(fraction: 0.5, label: "x", count: 1)
    bar.finish()
    #expect(sink.text.isEmpty)
  }

  /// Ingest: a bar on a terminal's stderr, cleared before the summary; nothing on stderr when
  /// piped, with TERM=dumb, --json or --quiet.
  @Test func ingestShowsTheBarOnlyOnATerminal() {
    func ingest(terminal: Bool, environment: [String: String] = [:], extra: [String] = []) -> CLIResult {
      let home = TemporaryFolder()
      let context = CommandContext.capturing(environment: environment)
      context.stderrIsTerminal = terminal
      context.stdoutIsTerminal = terminal
      return transit(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--data-dir", home.path] + extra, context: context)
    }
    let onTerminal = ingest(terminal: true)
    #expect(onTerminal.code == 0)
    #expect(onTerminal.stderr.hasPrefix("\r\u{1B}[2K"))
    #expect(onTerminal.stderr.contains("% "))
    #expect(onTerminal.stderr.hasSuffix("\r\u{1B}[2K"))
    #expect(onTerminal.stdout.hasPrefix("ingested demo in "))
    #expect(!onTerminal.stdout.contains("\u{1B}"))
    for (name, result) in [
      ("piped", ingest(terminal: false)), ("TERM=dumb", ingest(terminal: true, environment: ["TERM": "dumb"])),
      ("--json", ingest(terminal: true, extra: ["--json"])), ("--quiet", ingest(terminal: true, extra: ["--quiet"])),
    ] {
      #expect(result.code == 0, "\(name)")
      #expect(result.stderr.isEmpty, "\(name): \(result.stderr)")
    }
    let piped = ingest(terminal: false)
    #expect(piped.stdout.split(separator: "\n").count == 1)
  }

  /// The real executable through a pipe, as from cron: one line, no bar.
  @Test(.enabled(if: transitExecutable != nil))
  func pipedExecutablePrintsOnlyTheFinalLine() throws {
    let home = TemporaryFolder()
    let result = try runExecutable(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--data-dir", home.path])
    #expect(result.code == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout.hasPrefix("ingested demo in ") && result.stdout.split(separator: "\n").count == 1)
  }
}

/// `feeds check` and `record` draw the bar on a terminal only.
@Suite struct FeedProgressTests {
  /// Runs `arguments` in `home` on a clock that moves as the command sleeps (`record
  /// --duration 1s` waits for nothing real).
  static func run(_ arguments: [String], home: TemporaryFolder, terminal: Bool) -> CLIResult {
    let context = CommandContext.stepped(currentDirectory: home.path)
    context.stderrIsTerminal = terminal
    context.stdoutIsTerminal = terminal
    return transit(arguments + ["--data-dir", home.path], context: context)
  }

  @Test func feedsCheckAndRecordShowProgressOnATerminal() {
    let home = TemporaryFolder()
    #expect(Self.run(ConventionsTests.addFeed, home: home, terminal: false).code == 0)
    let check = Self.run(["feeds", "check"], home: home, terminal: true)
    #expect(check.code == 0)
    #expect(check.stderr.hasPrefix("\r\u{1B}[2K"))
    #expect(check.stderr.contains(" 0% demo trip-updates"))
    #expect(check.stderr.hasSuffix("\r\u{1B}[2K"))
    #expect(!check.stdout.contains("\u{1B}"))
    let piped = Self.run(["feeds", "check"], home: home, terminal: false)
    #expect(piped.code == 0 && piped.stderr.isEmpty)
    let verbose = Self.run(["feeds", "check", "--verbose"], home: home, terminal: true)
    #expect(!verbose.stderr.contains("\u{1B}"))

    let record = Self.run(["record", "snapshots", "--duration", "1s"], home: home, terminal: true)
    #expect(record.code == 0)
    #expect(record.stderr.contains("% recording: 0 snapshots saved"))
    #expect(record.stderr.hasSuffix("\r\u{1B}[2K"))
    #expect(record.stdout == "saved 3 snapshots in \(home.path)/snapshots\n")
    let quiet = Self.run(["record", "more", "--duration", "1s"], home: home, terminal: false)
    #expect(quiet.stderr.isEmpty)
    #expect(quiet.stdout == "saved 3 snapshots in \(home.path)/more\n")
  }
}
