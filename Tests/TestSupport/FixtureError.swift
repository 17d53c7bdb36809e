/// A fixture that could not be set up (a feed that did not ingest, a file that could not be
/// written). Thrown rather than trapped, so that only the tests needing the fixture fail and the
/// rest of the run goes on.
public struct FixtureError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
