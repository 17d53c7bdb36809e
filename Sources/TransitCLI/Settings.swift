import FoundationEssentials
import TransitModel

/// The settings a rider tunes, kept as `CONFIG/config.toml` (`key = value` lines) and read by
/// every command; environment variables and command-line options override them.
public struct Settings: Equatable, Sendable {
  /// 12- or 24-hour times; nil: `TRANSIT_CLOCK`, else the locale.
  public var clock: Int?
  /// A delay at or below this many seconds is early (DESIGN.md rule 12).
  public var earlySeconds = Int(DelayThresholds.standard.earlySeconds)
  /// A delay at or above this many seconds is late.
  public var lateSeconds = Int(DelayThresholds.standard.lateSeconds)
  /// Walking speed in metres per second, for "reachable".
  public var walkingSpeed: Double = 1.3
  /// Straight-line distance is multiplied by this to estimate a walk.
  public var detourFactor: Double = 1.25
  /// Minutes `departures` looks ahead.
  public var windowMinutes: Int = 120
  /// Departures `departures` lists.
  public var limit: Int = 10
  /// The language of alert texts (BCP 47); nil: the locale.
  public var language: String?
  /// `ingest` refuses a timetable whose stops, routes or trips shrink by more than this
  /// share, in percent.
  public var swapShrinkPercent: Int = 50
  /// `ingest` refuses a timetable whose service starts more than this many days ahead.
  public var swapDaysAhead: Int = 60
  /// `ingest` refuses a timetable with no departure in this many days where the held one
  /// has some.
  public var swapLookaheadDays: Int = 7
  /// The most MiB a realtime feed may hold as protobuf (after any decompression).
  public var realtimeMaxMegabytes: Int = 64
  /// The most MiB a gzip-compressed realtime feed may hold.
  public var realtimeMaxDownloadMegabytes: Int = 32
  /// The most entities a realtime feed may hold.
  public var realtimeMaxEntities: Int = 100_000
  /// The most stop_time_updates a realtime feed may hold, over all its trip updates.
  public var realtimeMaxStopUpdates: Int = 500_000
  /// The seconds interactive commands give all their realtime fetches together.
  public var realtimeBudgetSeconds: Int = 5
  /// The seconds one download may take in all, retries included.
  public var fetchDeadlineSeconds: Int = 60
  /// The most MiB a GTFS ZIP's files may unzip to in all.
  public var feedMaxUnzippedMegabytes: Int = 1536
  /// The margin for prediction error in "leave in N min", in percent of the time until the
  /// departure (at most 5 min).
  public var leaveMarginPercent: Int = 10
  /// `plan --watch`: a change with less buffer than this many minutes is tight (under one
  /// minute it is at risk).
  public var transferMarginMinutes: Int = 3
  /// `leave-margin = learned`: the margin is the 90th percentile lateness the history recorded
  /// for the route, stop and hour (with at least 10 calls), else the percent rule.
  public var leaveMarginLearned = false
  /// Days `history.sqlite` keeps (older calls are deleted as new snapshots come in).
  public var historyRetentionDays: Int = 180

  /// The defaults.
  public init() {}

  /// A setting's name, what it holds and how it reads.
  public struct Key: Sendable {
    /// The name `config get|set` takes.
    public var name: String
    /// One line for `config list` and help.
    public var help: String
    /// What values it takes, for error messages.
    public var expected: String
    let read: @Sendable (Settings) -> String?
    let write: @Sendable (inout Settings, String) -> Bool
    let reset: @Sendable (inout Settings) -> Void
  }

  /// Every setting, in the order `config list` shows them.
  public static let keys: [Key] = [
    Key(
      name: "clock", help: "12- or 24-hour times (TRANSIT_CLOCK overrides; unset: the locale)", expected: "12 or 24",
      read: { $0.clock.map(String.init) },
      write: { settings, text in
        guard let value = Int(text), value == 12 || value == 24 else { return false }
        settings.clock = value
        return true
      }, reset: { $0.clock = nil }),
    Key(
      name: "early", help: "Seconds of delay at or below which a departure is early", expected: "a whole number of seconds from -3600 to 0",
      read: { String($0.earlySeconds) },
      write: { settings, text in
        guard let value = Int(text), (-3600...0).contains(value) else { return false }
        settings.earlySeconds = value
        return true
      }, reset: { $0.earlySeconds = Settings().earlySeconds }),
    Key(
      name: "late", help: "Seconds of delay at or above which a departure is late", expected: "a whole number of seconds from 0 to 3600",
      read: { String($0.lateSeconds) },
      write: { settings, text in
        guard let value = Int(text), (0...3600).contains(value) else { return false }
        settings.lateSeconds = value
        return true
      }, reset: { $0.lateSeconds = Settings().lateSeconds }),
    Key(
      name: "walking-speed", help: "Walking speed in metres per second (departures --from)", expected: "metres per second from 0.3 to 3",
      read: { Settings.decimal($0.walkingSpeed) },
      write: { settings, text in
        guard let value = Double(text), value.isFinite, (0.3...3).contains(value) else { return false }
        settings.walkingSpeed = value
        return true
      }, reset: { $0.walkingSpeed = Settings().walkingSpeed }),
    Key(
      name: "detour", help: "Walks are this many times the straight line", expected: "a factor from 1 to 3",
      read: { Settings.decimal($0.detourFactor) },
      write: { settings, text in
        guard let value = Double(text), value.isFinite, (1...3).contains(value) else { return false }
        settings.detourFactor = value
        return true
      }, reset: { $0.detourFactor = Settings().detourFactor }),
    Key(
      name: "window", help: "Minutes departures looks ahead (--window overrides)", expected: "a whole number of minutes from 1 to 10080",
      read: { String($0.windowMinutes) },
      write: { settings, text in
        guard let value = Int(text), (1...10_080).contains(value) else { return false }
        settings.windowMinutes = value
        return true
      }, reset: { $0.windowMinutes = Settings().windowMinutes }),
    Key(
      name: "limit", help: "Departures listed (--limit overrides)", expected: "a whole number from 1 to 10000",
      read: { String($0.limit) },
      write: { settings, text in
        guard let value = Int(text), (1...10_000).contains(value) else { return false }
        settings.limit = value
        return true
      }, reset: { $0.limit = Settings().limit }),
    Key(
      name: "language", help: "Language of alert texts (--lang overrides; unset: the locale)", expected: "a language tag (en, fr, es-MX)",
      read: { $0.language },
      write: { settings, text in
        guard !text.isEmpty, text.count <= 35,
          text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return false }
        settings.language = text
        return true
      }, reset: { $0.language = nil }),
    Key(
      name: "swap-shrink", help: "ingest refuses a timetable whose stops, routes or trips shrink by more than this many percent",
      expected: "a whole number of percent from 1 to 100",
      read: { String($0.swapShrinkPercent) },
      write: { settings, text in
        guard let value = Int(text), (1...100).contains(value) else { return false }
        settings.swapShrinkPercent = value
        return true
      }, reset: { $0.swapShrinkPercent = Settings().swapShrinkPercent }),
    Key(
      name: "swap-days-ahead", help: "ingest refuses a timetable whose service starts more than this many days ahead",
      expected: "a whole number of days from 0 to 3650",
      read: { String($0.swapDaysAhead) },
      write: { settings, text in
        guard let value = Int(text), (0...3650).contains(value) else { return false }
        settings.swapDaysAhead = value
        return true
      }, reset: { $0.swapDaysAhead = Settings().swapDaysAhead }),
    Key(
      name: "swap-lookahead", help: "ingest refuses a timetable with no departure in this many days where the held one has some",
      expected: "a whole number of days from 1 to 60",
      read: { String($0.swapLookaheadDays) },
      write: { settings, text in
        guard let value = Int(text), (1...60).contains(value) else { return false }
        settings.swapLookaheadDays = value
        return true
      }, reset: { $0.swapLookaheadDays = Settings().swapLookaheadDays }),
    integer(
      "realtime-max-mb", help: "MiB a realtime feed may hold, decompressed (checked as it arrives)", range: 1...4096,
      unit: "MiB", \.realtimeMaxMegabytes),
    integer(
      "realtime-max-download-mb", help: "MiB a gzip-compressed realtime feed may hold", range: 1...4096, unit: "MiB",
      \.realtimeMaxDownloadMegabytes),
    integer(
      "realtime-max-entities", help: "Entities a realtime feed may hold", range: 1...100_000_000, unit: "",
      \.realtimeMaxEntities),
    integer(
      "realtime-max-stop-updates", help: "Stop time updates a realtime feed may hold in all", range: 1...100_000_000,
      unit: "", \.realtimeMaxStopUpdates),
    integer(
      "realtime-budget", help: "Seconds departures, vehicles, follow, alerts, status and plan wait for realtime in all",
      range: 1...600, unit: "seconds", \.realtimeBudgetSeconds),
    integer(
      "fetch-deadline", help: "Seconds one download (ingest, rt dump, feeds check, record) may take in all, retries included",
      range: 1...3600, unit: "seconds", \.fetchDeadlineSeconds),
    integer(
      "feed-max-unzipped-mb", help: "MiB a GTFS ZIP's files may unzip to in all (ingest)", range: 1...1_048_576,
      unit: "MiB", \.feedMaxUnzippedMegabytes),
    Key(
      name: "leave-margin",
      help:
        "Percent of the time until a departure added to the walk in 'leave in N min' (at most 5 min), or 'learned': from the history",
      expected: "a whole number from 0 to 50 (percent) or 'learned'",
      read: { $0.leaveMarginLearned ? "learned" : String($0.leaveMarginPercent) },
      write: { settings, text in
        if text == "learned" {
          settings.leaveMarginLearned = true
          return true
        }
        guard let value = Int(text), (0...50).contains(value) else { return false }
        settings.leaveMarginPercent = value
        settings.leaveMarginLearned = false
        return true
      },
      reset: {
        $0.leaveMarginPercent = Settings().leaveMarginPercent
        $0.leaveMarginLearned = false
      }),
    integer(
      "transfer-margin", help: "Minutes of buffer under which plan --watch calls a change tight (under 1 min: at risk)",
      range: 1...30, unit: "minutes", \.transferMarginMinutes),
    integer(
      "history-days", help: "Days history.sqlite keeps of what was recorded ('transit history --status')", range: 1...3650,
      unit: "days", \.historyRetentionDays),
  ]

  /// A whole-number setting in `range`.
  static func integer(
    _ name: String, help: String, range: ClosedRange<Int>, unit: String, _ path: WritableKeyPath<Settings, Int> & Sendable
  ) -> Key {
    let expected = "a whole number from \(range.lowerBound) to \(range.upperBound)" + (unit.isEmpty ? "" : " (\(unit))")
    return Key(
      name: name, help: help, expected: expected, read: { String($0[keyPath: path]) },
      write: { settings, text in
        guard let value = Int(text), range.contains(value) else { return false }
        settings[keyPath: path] = value
        return true
      }, reset: { $0[keyPath: path] = Settings()[keyPath: path] })
  }

  /// The setting called `name`, or nil.
  public static func key(named name: String) -> Key? { keys.first { $0.name == name } }

  /// "1.3", "1.25" (no trailing zeros).
  static func decimal(_ value: Double) -> String {
    // Three decimals of the value times 1000, rounded to nearest, ties to even (close to
    // printf's %.3f, which rounds the exact binary value instead: 0.1235 is "0.124" here,
    // "0.123" there; settings hold one or two decimals, where both agree); written by hand so
    // this file needs nothing of the rest of the target (Fuzz/run's config-toml builds it alone).
    let thousandths = Int64((abs(value) * 1000).rounded(.toNearestOrEven))
    let fraction = String(1000 + thousandths % 1000).dropFirst()
    var text = (value < 0 && thousandths != 0 ? "-" : "") + "\(thousandths / 1000).\(fraction)"
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  // MARK: - File

  /// `CONFIG/config.toml`.
  public static func path(in configDirectory: String) -> String { configDirectory + "/config.toml" }

  /// The settings in `configDirectory` (the defaults when there is no file).
  /// - Throws: `SettingsError` naming the file and line of a value that does not parse.
  public static func load(from configDirectory: String) throws(SettingsError) -> Settings {
    let path = path(in: configDirectory)
    guard let data = FileManager.default.contents(atPath: path) else { return Settings() }
    return try parse(String(decoding: data, as: UTF8.self), path: path)
  }

  /// The settings `text` (the content of `path`) sets, over the defaults.
  /// - Throws: `SettingsError` naming `path` and the line of a value that does not parse.
  public static func parse(_ text: String, path: String) throws(SettingsError) -> Settings {
    var settings = Settings()
    for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingSpacesAndNewlines()
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw SettingsError("\(path):\(number + 1): expected 'key = value'")
      }
      let name = line[..<equals].trimmingSpaces()
      var value = line[line.index(after: equals)...].trimmingSpaces()
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
      guard let key = key(named: name) else { continue }  // a newer version's setting: left alone
      guard key.write(&settings, value) else {
        throw SettingsError("\(path):\(number + 1): \(name) '\(value)' is not \(key.expected)")
      }
    }
    return settings
  }

  /// The file's text: every setting that differs from its default.
  public var fileText: String {
    var text = "# transit settings: 'transit config set KEY VALUE' writes this file\n"
    let defaults = Settings()
    for key in Self.keys {
      guard let value = key.read(self), value != key.read(defaults) else { continue }
      let quoted = Double(value) == nil ? "\"\(value)\"" : value
      text += "\(key.name) = \(quoted)\n"
    }
    return text
  }
}

/// The settings file could not be read or written; exit 1.
public struct SettingsError: Error, Equatable, CustomStringConvertible {
  /// The one-line message.
  public var message: String
  /// An error with `message`.
  public init(_ message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}
