import FoundationEssentials
import Services
import TransitModel

/// The commute card of the no-argument view (issue 20): today's next saved commute, its
/// recommended departure and when to leave (`TransitSession.commuteCard`), as `commute NAME
/// --line` says it.
enum HomeCommuteCard {
  /// "next commute 'work' (arrive by 08:30): 27 07:53 +3 · leave in 6 min"; nil when no saved
  /// commute runs today with a departure still to come.
  static func line(_ invocation: Invocation, answer: HomeAnswer) throws -> String? {
    guard let card = answer.commute else { return nil }
    let (live, now) = (answer.live, answer.now)
    let twelve = StopCommandSupport.uses12HourClock(invocation, settings: try invocation.settings())
    let freshness = (live?.feeds.isEmpty ?? true) ? nil : live?.report.freshness
    let text = StatusLine.text(
      card.option.departure, advice: card.advice, now: now, freshness: freshness, offline: false, zone: card.day.zone,
      twelveHour: twelve)
    // How that departure ran on the days recorded (issue 34), when the history knows.
    return
      "next commute '\(card.day.commute.name)' (arrive by \(SavedCommute.clockText(minutes: card.day.commute.arriveByMinutes))): \(text)"
      + (CommuteSupport.recordLine(card.day).map { " · " + $0 } ?? "")
  }
}
