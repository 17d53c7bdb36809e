import FoundationEssentials
import GTFS
import Services
import TransitModel
import UserData

/// The commute card of the no-argument view (issue 20): today's next saved commute, its
/// recommended departure and when to leave, as `commute NAME --line` says it.
enum HomeCommuteCard {
  /// "next commute 'work' (arrive by 08:30): 27 07:53 +3 · leave in 6 min"; nil when no saved
  /// commute runs today with a departure still to come.
  static func line(_ invocation: Invocation, store: Store, live: LiveRealtime?, now: UnixTime) throws -> String? {
    let commutes = try UserStore(directory: invocation.paths.data).commutes()
    guard !commutes.isEmpty else { return nil }
    let settings = try invocation.settings()
    let options = try RealtimeSupport.options(invocation, settings: settings)
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: settings)
    var best: (UnixTime, String)?
    for commute in commutes {
      let stops = try CommutePlanner.stops(of: commute, store: store)
      guard let stop = stops.first else { continue }
      let today = store.localDate(of: now, feed: stop.feed)
      guard CommutePlanner.runs(commute, on: today) else { continue }
      let plan = try CommutePlanner.plan(commute, stops: stops, on: today, store: store, live: live ?? .none(now: now, options: options))
      guard let index = plan.recommended, plan.options[index].departs >= now else { continue }
      if let best, best.0 <= plan.deadline { continue }
      let option = plan.options[index]
      let advice = LeaveAdvice.classify(
        departs: option.departs, walkSeconds: Int64(commute.walkMinutes * 60), now: now, margin: BoardSupport.margin(settings))
      let zone = store.timeZone(of: stop.feed)
      let freshness = (live?.feeds.isEmpty ?? true) ? nil : live?.report.freshness
      let text = StatusLine.text(
        option.departure, advice: advice, now: now, freshness: freshness, offline: false, zone: zone, twelveHour: twelve)
      // How that departure ran on the days recorded (issue 34), when the history knows.
      let record = try CommuteSupport.recordLine(plan, store: store, options: options, invocation: invocation, zone: zone)
      best = (
        plan.deadline,
        "next commute '\(commute.name)' (arrive by \(ValueParser.clockText(minutes: commute.arriveByMinutes))): \(text)"
          + (record.map { " · " + $0 } ?? "")
      )
    }
    return best?.1
  }
}
