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
      var members = list.nestedContainer(keyedBy: JSONKey.self)
      switch item {
      case .missingStop(let commute):
        try members.encode(commute.name, forKey: "name")
        try members.encode(true, forKey: "missing")
      case .runsOnNoDay(let commute):
        try members.encode(commute.name, forKey: "name")
        try members.encode(true, forKey: "runs_on_no_day")
      case .day(let day):
        let zone = day.zone, plan = day.plan
        try members.encode(day.commute.name, forKey: "name")
        try members.encode(plan.date.description, forKey: "date")
        try members.encode(day.inactive?.description, forKey: "inactive_date")
        try members.encode(zone.isoText(plan.deadline), forKey: "arrive_by")
        var options = members.nestedUnkeyedContainer(forKey: "options")
        for (index, option) in plan.options.enumerated() {
          var object = options.nestedContainer(keyedBy: JSONKey.self)
          try object.encode(index == plan.recommended, forKey: "recommended")
          try option.row.encode(into: object.nestedContainer(keyedBy: JSONKey.self, forKey: "departure"), zone: zone)
          try object.encode(option.arrives.map(zone.isoText), forKey: "arrives")
          try object.encode(option.reaches.map(zone.isoText), forKey: "reaches")
          try object.encode(zone.isoText(option.leaveBy), forKey: "leave_by")
          try object.encode(day.minutesUntilLeave(option), forKey: "minutes_until_leave")
        }
      }
    }
  }
}
