import FoundationEssentials
import SQLite
import TransitModel

/// The columns of a GTFS file, declared once: one enum per file (`StopColumn`), one case per
/// column, each with its `ColumnSpec` (name, whether the header must have it, what its values
/// are, which file it refers to, and the timetable column it is stored in).
///
/// The declaration drives reading (`GTFSRows` finds each column's index in the header once per
/// file and refuses a header without a required column), the validation messages (a value that
/// is not what its type says names the file, the line and the column, and says what was
/// expected), the insert statements (`GTFSInsert` binds values by column, the SQL written from
/// the specs' `stored` names) and the timetable's tables (`StoredTable` writes their CREATE
/// TABLE from the same specs).
protocol GTFSColumns: CaseIterable, Hashable {
  /// The file (`stops.txt`).
  static var file: String { get }
  /// The column's position in `allCases`, used to index per-column arrays.
  var rawValue: Int { get }
  var spec: ColumnSpec { get }
}

/// One column of a GTFS file, as the GTFS reference defines it (and as this project reads it).
struct ColumnSpec: Sendable {
  /// Whether a file must have the column in its header.
  enum Presence: Sendable, Equatable {
    /// The header must have it (its values may still be conditionally empty: see the loader).
    case required
    /// The header must have it, unless it has one of these columns instead (GTFS-Flex files
    /// name locations instead of stops, and give pickup windows instead of times).
    case requiredUnless([String])
    case optional
  }

  /// What a column's values are, and what a wrong one is said not to be.
  enum ValueType: Sendable, Equatable {
    /// Text: an id, a name, a URL, a colour, … (read as is).
    case text
    /// A time zone from the tz database; checked where the loader reads it as one.
    case timeZone
    /// A whole number within `range`; `expected` describes the allowed values (an enumeration
    /// lists them), nil for "a whole number from A to B".
    case integer(ClosedRange<Int>, expected: String? = nil)
    /// An enumerated column (`wheelchair_boarding`, `direction_id`, …): a value outside `range`
    /// (or not a whole number) is read as unknown, as if the field were empty, and warned about
    /// once per file and column (real feeds carry such values: validators flag them, consumers
    /// load the feed anyway). `expected` lists the values the reference defines.
    case enumeration(ClosedRange<Int>, expected: String)
    /// A decimal number; with a range, a value outside it is "not a number between A and B".
    case number(ClosedRange<Double>? = nil)
    /// A GTFS time (`H:MM:SS`, hours may pass 24).
    case time
    /// A GTFS date (`YYYYMMDD`).
    case date
  }

  var name: String
  var presence: Presence
  var type: ValueType
  /// The file and column this one's values name (`routes.txt route_id`), if any.
  var reference: String?
  /// The timetable column it is stored in, if it is stored as read (a referenced id is often
  /// stored as the other table's integer key: trips.route_id as `route_idx`).
  var stored: String?
  /// What the stored column's definition adds to its type (`NOT NULL`, `NOT NULL DEFAULT 0`
  /// where the loader fills in the reference's default, `UNIQUE`): what the loader guarantees
  /// of every row, which a required header alone does not (a required column may be empty).
  var storedConstraint: String?

  init(
    _ name: String, _ presence: Presence = .optional, _ type: ValueType = .text, references reference: String? = nil,
    stored: String? = nil, _ storedConstraint: String? = nil
  ) {
    self.name = name
    self.presence = presence
    self.type = type
    self.reference = reference
    self.stored = stored
    self.storedConstraint = storedConstraint
  }

  /// The stored column's definition in CREATE TABLE (`lat REAL`, `stop_id TEXT NOT NULL`).
  var storedDefinition: String? {
    stored.map { name in [name, sqlType, storedConstraint].compactMap { $0 }.joined(separator: " ") }
  }

  /// What a value of this column should be, for "stop_lat 'abc' is not a number".
  var expected: String {
    switch type {
    case .text: return "text"
    case .timeZone: return "a time zone from the tz database (Europe/Dublin)"
    case .integer(let range, let expected):
      if let expected { return expected }
      if range.upperBound >= Int(Int32.max) { return "a whole number from \(range.lowerBound)" }
      return "a whole number from \(range.lowerBound) to \(range.upperBound)"
    case .enumeration(_, let expected): return expected
    case .number: return "a number"
    case .time: return "a time (H:MM:SS, minutes and seconds below 60)"
    case .date: return "a date (YYYYMMDD)"
    }
  }

  /// What a number out of the column's range is said not to be.
  var expectedInRange: String {
    guard case .number(let range?) = type else { return expected }
    return "a number between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))"
  }

  private static func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }

  /// The SQLite type of the stored column.
  var sqlType: String {
    switch type {
    case .text, .timeZone: return "TEXT"
    case .integer, .enumeration, .time, .date: return "INTEGER"
    case .number: return "REAL"
    }
  }
}

extension GTFSColumns {
  /// Every column's spec, in declaration order.
  static var specs: [ColumnSpec] { allCases.map(\.spec) }
}

/// The rows of one GTFS file, read by column: each column's index in the header is found once,
/// when the file is opened, so reading a field is an array access (no lookup by name per row).
///
/// Accessors return nil for an empty field or a column the header lacks, and throw a
/// `GTFSError` naming the file, the line and the column for a value that is not what the
/// column's spec says (`stops.txt:2: stop_lat '91' is not a number between -90 and 90`).
final class GTFSRows<Column: GTFSColumns> {
  let reader: CSVReader
  /// Per column (by `rawValue`): its index in the header, or -1 when absent.
  private let indexes: UnsafeMutablePointer<Int>
  /// Per column: the integer range allowed (Int.min...Int.max for other types).
  private let integerRanges: UnsafeMutablePointer<ClosedRange<Int>>
  /// Per column: the number range allowed (-inf...inf for other types).
  private let numberRanges: UnsafeMutablePointer<ClosedRange<Double>>
  /// Per column: whether it is an enumeration, whose out-of-range values read as unknown.
  private let isEnumeration: UnsafeMutablePointer<Bool>
  /// The enumerated columns' out-of-range values met so far, by column.
  private(set) var outOfRange: [Column: OutOfRangeValues] = [:]

  /// Out-of-range values of one enumerated column: the first (its line and text) and how many.
  struct OutOfRangeValues {
    var firstLine: Int
    var firstValue: String
    var count: Int
  }

  /// Finds every column in `reader`'s header.
  /// - Throws: `GTFSError.missingColumn` (line 1) for the first required column the header lacks.
  init(_ reader: CSVReader) throws(GTFSError) {
    self.reader = reader
    let columns = Array(Column.allCases)
    indexes = .allocate(capacity: columns.count)
    integerRanges = .allocate(capacity: columns.count)
    numberRanges = .allocate(capacity: columns.count)
    isEnumeration = .allocate(capacity: columns.count)
    for column in columns {
      let spec = column.spec
      let index = reader.column(spec.name)
      indexes[column.rawValue] = index ?? -1
      switch spec.type {
      case .integer(let range, _), .enumeration(let range, _):
        integerRanges.advanced(by: column.rawValue).initialize(to: range)
      default: integerRanges.advanced(by: column.rawValue).initialize(to: Int.min...Int.max)
      }
      if case .enumeration = spec.type {
        isEnumeration.advanced(by: column.rawValue).initialize(to: true)
      } else {
        isEnumeration.advanced(by: column.rawValue).initialize(to: false)
      }
      switch spec.type {
      case .number(let range?): numberRanges.advanced(by: column.rawValue).initialize(to: range)
      default: numberRanges.advanced(by: column.rawValue).initialize(to: -Double.infinity...Double.infinity)
      }
    }
    for column in columns where indexes[column.rawValue] < 0 {
      let spec = column.spec
      switch spec.presence {
      case .optional: continue
      case .required: break
      case .requiredUnless(let alternatives): if alternatives.contains(where: { reader.column($0) != nil }) { continue }
      }
      deallocate()
      throw GTFSError(file: reader.file, line: 1, .missingColumn(spec.name))
    }
  }

  deinit { deallocate() }

  private var deallocated = false
  private func deallocate() {
    guard !deallocated else { return }
    deallocated = true
    indexes.deallocate()
    integerRanges.deallocate()
    numberRanges.deallocate()
    isEnumeration.deallocate()
  }

  var file: String { reader.file }
  var line: Int { reader.line }

  /// Advances to the next row; false at the end of the file.
  @inline(__always)
  func next() throws(GTFSError) -> Bool { try reader.next() }

  /// The bytes of `column` in this row, spaces trimmed (empty when absent).
  @inline(__always)
  func bytes(_ column: Column) -> UnsafeRawBufferPointer {
    let index = indexes[column.rawValue]
    return index < 0 ? UnsafeRawBufferPointer(start: nil, count: 0) : reader.field(index)
  }

  /// The value as text ("" when empty or absent).
  func string(_ column: Column) -> String { FieldParsing.text(bytes(column)) }

  /// The value as text, nil when empty or absent.
  @inline(__always)
  func text(_ column: Column) -> String? {
    let bytes = bytes(column)
    return bytes.isEmpty ? nil : FieldParsing.text(bytes)
  }

  /// The value as text; a row without one is refused.
  func required(_ column: Column) throws(GTFSError) -> String {
    let bytes = bytes(column)
    guard !bytes.isEmpty else { throw missing(column) }
    return FieldParsing.text(bytes)
  }

  /// The value as a whole number within the column's range; nil when empty.
  @inline(__always)
  func int(_ column: Column) throws(GTFSError) -> Int? {
    let bytes = bytes(column)
    if bytes.isEmpty { return nil }
    guard let value = FieldParsing.integer(bytes), integerRanges[column.rawValue].contains(value) else {
      guard isEnumeration[column.rawValue] else { throw invalid(column) }
      noteOutOfRange(column, bytes)
      return nil
    }
    return value
  }

  /// Records an enumerated column's value that the reference does not define (read as unknown).
  private func noteOutOfRange(_ column: Column, _ bytes: UnsafeRawBufferPointer) {
    if outOfRange[column] != nil {
      outOfRange[column]!.count += 1
    } else {
      outOfRange[column] = OutOfRangeValues(firstLine: reader.line, firstValue: FieldParsing.text(bytes), count: 1)
    }
  }

  /// One warning per enumerated column that held values the reference does not define: the
  /// first one's line and value, and how many rows in all (`stops.txt:217: wheelchair_boarding
  /// '3' is not 0, 1 or 2: read as unknown (9 rows in all)`), in column order.
  var outOfRangeWarnings: [String] {
    Column.allCases.compactMap { column in
      guard let values = outOfRange[column] else { return nil }
      let spec = column.spec
      let rows = values.count == 1 ? "" : " (\(values.count) rows in all)"
      return "\(file):\(values.firstLine): \(spec.name) '\(values.firstValue)' is not \(spec.expected): read as unknown\(rows)"
    }
  }

  /// An enumerated column the reference requires: a row without a value is refused, and a
  /// value it does not define reads as `unknown` (warned about once per file and column).
  func requiredEnumeration(_ column: Column, unknown: Int) throws(GTFSError) -> Int {
    guard !bytes(column).isEmpty else { throw missing(column) }
    return try int(column) ?? unknown
  }

  /// The value as a whole number within the column's range; a row without one is refused.
  @inline(__always)
  func requiredInt(_ column: Column) throws(GTFSError) -> Int {
    guard let value = try int(column) else { throw missing(column) }
    return value
  }

  /// The value as a number within the column's range; nil when empty.
  @inline(__always)
  func number(_ column: Column) throws(GTFSError) -> Double? {
    let bytes = bytes(column)
    if bytes.isEmpty { return nil }
    guard let value = FieldParsing.double(bytes), value.isFinite else { throw invalid(column) }
    guard numberRanges[column.rawValue].contains(value) else { throw invalid(column, expected: column.spec.expectedInRange) }
    return value
  }

  /// The value as a number within the column's range; a row without one is refused.
  func requiredNumber(_ column: Column) throws(GTFSError) -> Double {
    guard let value = try number(column) else { throw missing(column) }
    return value
  }

  /// The value as a GTFS time in seconds; nil when empty.
  @inline(__always)
  func time(_ column: Column) throws(GTFSError) -> Int32? {
    let bytes = bytes(column)
    if bytes.isEmpty { return nil }
    guard let value = FieldParsing.time(bytes) else { throw invalid(column) }
    return value
  }

  /// The value as a GTFS time in seconds; a row without one is refused.
  func requiredTime(_ column: Column) throws(GTFSError) -> Int32 {
    guard let value = try time(column) else { throw missing(column) }
    return value
  }

  /// The value as a GTFS date (the integer yyyymmdd); a row without one is refused.
  func date(_ column: Column) throws(GTFSError) -> Int {
    let bytes = bytes(column)
    guard !bytes.isEmpty else { throw missing(column) }
    guard let value = FieldParsing.date(bytes) else { throw invalid(column) }
    return value
  }

  /// The value as a time zone identifier from the tz database; a row without one is refused.
  func timeZone(_ column: Column) throws(GTFSError) -> String {
    let zone = try required(column)
    // Read from the system's tz database (LocalZone), the one every local time goes through;
    // a missing database is said as such, not blamed on the feed.
    let exists: Bool
    do { exists = try LocalZone.exists(zone) } catch { throw GTFSError(file: file, line: line, .unreadable(error.description)) }
    guard exists else { throw invalid(column) }
    return zone
  }

  /// "FILE:LINE: COLUMN 'VALUE' is not EXPECTED".
  func invalid(_ column: Column, expected: String? = nil) -> GTFSError {
    let spec = column.spec
    return GTFSError(file: file, line: line, .invalidValue(column: spec.name, value: string(column), expected: expected ?? spec.expected))
  }

  /// "FILE:LINE: COLUMN is empty but required".
  func missing(_ column: Column) -> GTFSError {
    GTFSError(file: file, line: line, .missingValue(column: column.spec.name))
  }
}

@available(*, unavailable)
extension GTFSRows: Sendable {}

/// An insert into a timetable table of the columns a file's specs mark `stored`, plus any
/// `extra` columns the loader works out (a referenced row's key); values are bound by column.
struct GTFSInsert<Column: GTFSColumns> {
  let sql: String
  /// Per column (by `rawValue`): its parameter number, or 0 when not stored.
  private let parameters: [Int32]
  /// The parameter numbers of `extra`, in order.
  let extraParameters: [Int32]

  init(into table: String, extra: [String] = []) {
    var names: [String] = []
    var parameters = [Int32](repeating: 0, count: Column.allCases.count)
    for column in Column.allCases {
      guard let stored = column.spec.stored else { continue }
      names.append(stored)
      parameters[column.rawValue] = Int32(names.count)
    }
    extraParameters = extra.indices.map { Int32(names.count + 1 + $0) }
    names += extra
    self.parameters = parameters
    sql = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ",")))"
  }

  /// The parameter `column` is bound at.
  @inline(__always)
  func parameter(_ column: Column) -> Int32 {
    let parameter = parameters[column.rawValue]
    precondition(parameter > 0, "\(column.spec.name) is not stored")
    return parameter
  }

  /// Binds `column`'s text straight from the row's bytes (NULL when empty).
  @inline(__always)
  func bindText(_ rows: GTFSRows<Column>, _ column: Column, in statement: Statement) {
    let bytes = rows.bytes(column)
    if bytes.isEmpty { statement.bindNull(at: parameter(column)) } else { statement.bindText(bytes, at: parameter(column)) }
  }
}
