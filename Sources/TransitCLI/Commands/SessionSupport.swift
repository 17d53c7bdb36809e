import FoundationEssentials
import GTFS
import Services

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
    let store = try requiresTimetables ? StopCommandSupport.openStore(invocation) : Store(directory: invocation.paths.data)
    if !requiresTimetables && warnsAboutExpiry && !store.isEmpty { StopCommandSupport.warnAboutExpiry(store, invocation) }
    return TransitSession(
      store: store, options: try RealtimeSupport.options(invocation, settings: settings, language: language),
      realtime: try realtime?() ?? FeedsSupport.realtimeSource(invocation), userData: UserDataAccess(directory: invocation.paths.data))
  }
}
