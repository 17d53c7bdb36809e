import GTFS
import GTFSRealtime
import History
import Merge
import TransitModel
import UserData

/// Why a commute has no answer of its own (`commute NAME --ics`, `--watch`).
public enum CommuteFailure: Error, Sendable, Equatable {
  /// Its stop is not in the timetables since the last ingest.
  case missingStop(name: String, stopID: String)
}

/// One update of `commute NAME --watch`: the commute worked out for today (else its next day),
/// and its arrival judged as `plan --watch` judges a change.
public struct CommuteWatchFrame: Sendable {
  public var day: CommuteDay
  /// What the realtime was and what it matched.
  public var report: RealtimeReport
  /// Whether any realtime feed was read.
  public var hasRealtime: Bool
  /// The recommended ride's arrival on foot against the deadline (with a destination): its
  /// buffer and state under the transfer margin.
  public var arrival: (reaches: UnixTime, bufferSeconds: Int64, state: TransferState)?
  /// The walk to the stop.
  public var walkSeconds: Int64 { Int64(day.commute.walkMinutes * 60) }

  /// When to leave for the recommended departure at `now` (the walk and `margin` before it);
  /// nil unless the plan is of today and one arrives in time.
  public func leaveBy(at now: UnixTime, margin: LeaveAdvice.Margin) -> (option: CommutePlanner.Option, leaveBy: UnixTime)? {
    guard day.isToday, let option = day.recommended else { return nil }
    return (option, LeaveAdvice.leaveBy(departs: option.departs, walkSeconds: walkSeconds, now: now, margin: margin))
  }

  /// What to do about `option` at `now` ("leave in 6 min", "run", ...); nil unless the plan is of
  /// the day `now` falls on.
  public func advice(for option: CommutePlanner.Option, at now: UnixTime, margin: LeaveAdvice.Margin) -> LeaveAdvice? {
    guard day.plan.date == LocalClock.date(of: now, in: day.zone) else { return nil }
    return LeaveAdvice.classify(departs: option.departs, walkSeconds: walkSeconds, now: now, margin: margin)
  }
}

/// The commute card of the no-argument view: today's next saved commute and its recommended
/// departure.
public struct CommuteCard: Sendable {
  public var day: CommuteDay
  public var option: CommutePlanner.Option
  /// When to leave for it, and what to do now.
  public var advice: LeaveAdvice
}

/// The days of a commute's calendar (`commute NAME --ics`): each day it runs with its
/// recommended departure, from the timetable.
public struct CommuteCalendarAnswer: Sendable {
  public var commute: UserStore.Commute
  public var stop: TransitModel.Stop
  public var zone: LocalZone
  public var days: [(date: ServiceDate, option: CommutePlanner.Option)]
}

extension TransitSession {
  /// `commute` on each day it runs in the `days` days from `first` (else today at its stop),
  /// each with its recommended departure from the timetable (days with none are left out).
  /// - Throws: `CommuteFailure`; the store's errors.
  public func commuteCalendar(
    _ commute: UserStore.Commute, from first: ServiceDate?, days: Int, now: UnixTime
  ) throws
    -> CommuteCalendarAnswer
  {
    let stops = try CommutePlanner.stops(of: commute, store: store)
    guard let stop = stops.first else { throw CommuteFailure.missingStop(name: commute.name, stopID: commute.stopID) }
    let start = first ?? store.localDate(of: now, feed: stop.feed)
    var answer = CommuteCalendarAnswer(commute: commute, stop: stop, zone: store.timeZone(of: stop.feed), days: [])
    for offset in 0..<days {
      let date = start.adding(days: offset)
      guard CommutePlanner.runs(commute, on: date) else { continue }
      let plan = try CommutePlanner.plan(commute, stops: stops, on: date, store: store, live: .none(now: now, options: options))
      if let index = plan.recommended { answer.days.append((date, plan.options[index])) }
    }
    return answer
  }

  /// `commute` for a live view at `now` with `feeds`: today when it runs today, else its next
  /// day (today for a commute of no weekday).
  /// - Throws: `CommuteFailure`; the store's and the history's errors.
  public func commuteWatchFrame(_ commute: UserStore.Commute, feeds: [FeedMessage], now: UnixTime) throws -> CommuteWatchFrame {
    let live = try LiveRealtime(store: store, feeds: feeds, now: now, options: options)
    let stops = try CommutePlanner.stops(of: commute, store: store)
    guard let stop = stops.first else { throw CommuteFailure.missingStop(name: commute.name, stopID: commute.stopID) }
    let today = store.localDate(of: now, feed: stop.feed)
    let date = CommutePlanner.nextDay(of: commute, from: today) ?? today
    let plan = try CommutePlanner.plan(commute, stops: stops, on: date, store: store, live: live)
    let day = CommuteDay(
      entry: try commuteEntries([commute])[0], stop: stop, zone: store.timeZone(of: stop.feed), today: today, inactive: nil, plan: plan,
      emptyReason: nil,
      record: nil, now: now)
    var frame = CommuteWatchFrame(day: day, report: live.report, hasRealtime: !feeds.isEmpty)
    if let reaches = day.recommended?.reaches {
      let judged = TransferGuard.deadline(reaches: reaches, deadline: plan.deadline, marginSeconds: options.transferMarginSeconds)
      frame.arrival = (reaches, judged.bufferSeconds, judged.state)
    }
    return frame
  }

  /// The card of today's next commute among `commutes` (the earliest deadline with its
  /// recommended departure still to come) under `live` (else the timetable), with `margin`
  /// for the leave advice; nil when none runs today with a departure to come.
  /// - Throws: the store's and the history's errors.
  public func commuteCard(
    _ commutes: [UserStore.Commute], live: LiveRealtime?, now: UnixTime, margin: LeaveAdvice.Margin, history: HistoryStore?
  ) throws -> CommuteCard? {
    var best: CommuteCard?
    let live = live ?? .none(now: now, options: options)
    for entry in try commuteEntries(commutes) {
      let commute = entry.commute
      let stops = try CommutePlanner.stops(of: commute, store: store)
      guard let stop = stops.first else { continue }
      let today = store.localDate(of: now, feed: stop.feed)
      guard CommutePlanner.runs(commute, on: today) else { continue }
      let plan = try CommutePlanner.plan(commute, stops: stops, on: today, store: store, live: live)
      guard let index = plan.recommended, plan.options[index].departs >= now else { continue }
      if let best, best.day.plan.deadline <= plan.deadline { continue }
      let option = plan.options[index]
      var day = CommuteDay(
        entry: entry, stop: stop, zone: store.timeZone(of: stop.feed), today: today, inactive: nil, plan: plan, emptyReason: nil,
        record: nil, now: now)
      if let history, let scheduled = option.departure.call.scheduledTime {
        let call = option.departure.call
        day.record = try commuteRecord(
          stopIDs: [call.stopID.rawValue], routeID: call.routeID.rawValue, scheduled: scheduled, in: history, now: now)
      }
      best = CommuteCard(
        day: day, option: option,
        advice: LeaveAdvice.classify(
          departs: option.departs, walkSeconds: Int64(commute.walkMinutes * 60), now: now, margin: margin))
    }
    return best
  }
}

extension CommutePlanner.Option {
  /// When a calendar event of this departure ends: on arrival on foot (else at the departure),
  /// and at least a minute after leaving.
  public var eventEnd: UnixTime { max(reaches ?? departs, leaveBy + 60) }
}
