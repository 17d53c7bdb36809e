import GTFS
import TransitModel

/// The one entry point of the answers: what a command needs to ask a rider's question (the
/// timetables and the options resolved from the settings), with one method per question. Each
/// answer is a value whose `Encodable` form is the documented JSON; the command line parses,
/// asks once and renders.
public struct TransitSession {
  /// The timetables held (every feed).
  public let store: Store
  /// The thresholds, walking model and language every answer uses.
  public let options: ServiceOptions

  /// A session over `store`.
  public init(store: Store, options: ServiceOptions) {
    self.store = store
    self.options = options
  }
}
