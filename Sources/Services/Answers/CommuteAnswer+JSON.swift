import GTFS
import TransitModel

// MARK: - JSON

extension CommuteAnswer: Encodable {
  /// `commute --json`: per commute its day, deadline and options, each option's departure the
  /// object of the board's `departures` list (`Board.Row`); a commute whose stop is gone says
  /// `missing`, one of no weekday `runs_on_no_day`.
  public func encode(to encoder: any Encoder) throws {
    var list = encoder.unkeyedContainer()
    for item in items {
      switch item {
      case .missingStop(let commute):
        var members = list.nestedContainer(keyedBy: JSONKey.self)
        try members.encode(commute.name, forKey: "name")
        try members.encode(true, forKey: "missing")
      case .runsOnNoDay(let commute):
        var members = list.nestedContainer(keyedBy: JSONKey.self)
        try members.encode(commute.name, forKey: "name")
        try members.encode(true, forKey: "runs_on_no_day")
      case .day(let day):
        try list.encode(day)
      }
    }
  }
}

extension CommuteDay: Encodable {
  /// A commute's day, as `commute --json` and the home view's commute card show it: its name,
  /// date, deadline and options, each option's departure the board's object.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(commute.name, forKey: "name")
    try members.encode(plan.date.description, forKey: "date")
    try members.encode(inactive?.description, forKey: "inactive_date")
    try members.encode(zone.isoText(plan.deadline), forKey: "arrive_by")
    var options = members.nestedUnkeyedContainer(forKey: "options")
    for (index, option) in plan.options.enumerated() {
      var object = options.nestedContainer(keyedBy: JSONKey.self)
      try object.encode(index == plan.recommended, forKey: "recommended")
      try option.row.encode(into: object.nestedContainer(keyedBy: JSONKey.self, forKey: "departure"), zone: zone)
      try object.encode(option.arrives.map(zone.isoText), forKey: "arrives")
      try object.encode(option.reaches.map(zone.isoText), forKey: "reaches")
      try object.encode(zone.isoText(option.leaveBy), forKey: "leave_by")
      try object.encode(minutesUntilLeave(option), forKey: "minutes_until_leave")
    }
  }
}
