/// A value as SQLite stores it.
public enum SQLiteValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
  ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(stringLiteral value: String) { self = .text(value) }
  public init(floatLiteral value: Double) { self = .real(value) }
  public init(nilLiteral: ()) { self = .null }
}
