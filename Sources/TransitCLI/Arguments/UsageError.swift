/// The command line was wrong: the message, then the usage line; exit 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// A stop, route, trip, vehicle or feed that does not exist; exit 3.
public struct NotFoundError: Error, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// A failure at run time that the user can act on (bad feed, missing file, network); exit 1.
public struct RuntimeError: Error, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
