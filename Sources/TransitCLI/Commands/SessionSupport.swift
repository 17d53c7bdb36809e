import FoundationEssentials
import Services
import TransitModel

/// The one way a command gets its `TransitSession` (issue 33): the timetables held (an empty
/// data folder is an error, an ending timetable a warning, both said once), the options
/// resolved from the settings, and this run's realtime source (`--realtime FILE`s, else the
/// configured feeds). Commands then ask the session and render its answer.
enum SessionSupport {
  /// The session of `invocation`.
  /// - Parameters:
  ///   - settings: the settings already read (else read now).
  ///   - language: what `--lang` said in the commands that declare it.
  ///   - requiresTimetables: an empty data folder is an error (else the session has no
  ///     timetables: `alerts` and `status` answer by the feeds' own ids).
  ///   - realtime: the realtime source, made once the store is open (default:
  ///     `FeedsSupport.realtimeSource`).
  ///   - warnsAboutExpiry: without `requiresTimetables`, whether an ending timetable is said
  ///     (a listing of the user's own data does not say it).
  static func session(
    _ invocation: Invocation, settings: Settings? = nil, language: String? = nil, requiresTimetables: Bool = true,
    realtime: (() throws -> any RealtimeSource)? = nil, warnsAboutExpiry: Bool = true
  ) throws -> TransitSession {
    let settings = try settings ?? invocation.settings()
    let options = try RealtimeSupport.options(invocation, settings: settings, language: language)
    let timetables = try TransitSession(directory: invocation.paths.data, options: options)
    if requiresTimetables && !timetables.holdsTimetables { throw noTimetables }
    if timetables.holdsTimetables && (requiresTimetables || warnsAboutExpiry) { warnAboutExpiry(timetables, invocation) }
    // Kept as long as the context, which leaves closing the read-only files to the kernel.
    invocation.context.openedSession = timetables
    return timetables.with(realtime: try realtime?() ?? FeedsSupport.realtimeSource(invocation))
  }

  /// What a command that answers from the timetables says when none is held.
  static let noTimetables = RuntimeError("no timetables held yet; load one with 'transit ingest PATH'")

  /// A timetable that has ended (or soon will) is said once, on stderr: never in the JSON. Many
  /// of them are said in a line per kind (`ServiceStatus.warnings`).
  static func warnAboutExpiry(_ session: TransitSession, _ invocation: Invocation) {
    for warning in ServiceStatus.warnings(session.timetableStatuses(now: invocation.now)) {
      invocation.context.stderr.line("warning: " + warning)
    }
  }
}
