import Services
import TransitModel

/// `vehicles` fitted to the terminal: columns shorten or drop in a fixed order until the table
/// fits (`--wide` keeps them all).
extension VehiclesCommand {
  /// A column of the vehicles table.
  struct Column {
    var name: String
    var cells: [String]
    var rightAligned = false
  }

  /// What gives way first, in order: the marker shortens ("live, placed by its trip update" →
  /// "live (tu)"), the heading arrow goes, then the speed, then the report's age; the crowding
  /// keeps only its gauge; the destination and the stop shorten to 18 characters; the vehicle
  /// goes; then the stop shortens to 12, and the destination to 10.
  static let givingWay: [@Sendable (inout [Column]) -> Void] = [
    { columns in
      update(&columns, "marker") {
        $0.replacing("live, placed by its trip update", with: "live (tu)").replacing(
          "live, unknown trip", with: "live (?)"
        ).replacing("live, not in timetable, placed by its trip update", with: "live, extra (tu)").replacing(
          "live, not in timetable", with: "live, extra")
      }
    },
    { columns in columns.removeAll { $0.name == "heading" } },
    { columns in columns.removeAll { $0.name == "speed" } },
    { columns in columns.removeAll { $0.name == "age" } },
    { columns in update(&columns, "crowding") { String($0.prefix(3)) } },
    { columns in update(&columns, "destination") { shortened($0, to: 18) } },
    { columns in update(&columns, "stop") { shortened($0, to: 18) } },
    { columns in columns.removeAll { $0.name == "vehicle" } },
    { columns in update(&columns, "stop") { shortened($0, to: 12) } },
    { columns in update(&columns, "destination") { shortened($0, to: 10) } },
  ]

  /// The columns of `views`' table: route, destination, vehicle, heading, speed, age, stop,
  /// delay, crowding (when any vehicle reports it), marker.
  static func columns(_ views: [VehicleView], now: UnixTime) -> [Column] {
    let rows = views.map { row($0, now: now) }
    let names = ["route", "destination", "vehicle", "heading", "speed", "age", "stop", "delay", "marker"]
    var columns = names.enumerated().map { index, name in
      Column(name: name, cells: rows.map { $0[index] }, rightAligned: name == "speed" || name == "age")
    }
    if views.contains(where: { $0.crowding != nil }) {
      columns.insert(Column(name: "crowding", cells: views.map { RiderMarks.crowding($0.crowding) }), at: columns.count - 1)
    }
    return columns
  }

  /// `columns` with what gives way taken away until the table is at most `width` wide.
  static func fitted(_ columns: [Column], width: Int) -> [Column] {
    var columns = columns
    for step in givingWay where tableWidth(columns) > width { step(&columns) }
    return columns
  }

  /// The table as text.
  static func table(_ columns: [Column]) -> String {
    guard let count = columns.first?.cells.count else { return "" }
    let rows = (0..<count).map { row in columns.map { $0.cells[row] } }
    let right = Set(columns.indices.filter { columns[$0].rightAligned })
    return StopCommandSupport.table(rows, rightAligned: right)
  }

  /// The widest line the table would print (trailing blanks trimmed).
  static func tableWidth(_ columns: [Column]) -> Int {
    table(columns).split(separator: "\n").map { RiderMarks.width(String($0)) }.max() ?? 0
  }

  static func update(_ columns: inout [Column], _ name: String, _ change: (String) -> String) {
    for index in columns.indices where columns[index].name == name { columns[index].cells = columns[index].cells.map(change) }
  }

  /// `text` cut to `count` characters, the last one "…" when cut.
  static func shortened(_ text: String, to count: Int) -> String {
    text.count <= count ? text : String(text.prefix(count - 1)) + "…"
  }
}
