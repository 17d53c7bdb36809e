import FoundationEssentials
import GTFS
import TransitModel

/// A time as a rider gives it: a wall-clock time on the agency's clock (`--at 07:30`), or a full
/// instant (`--at 2026-12-01T07:30:00Z`).
public enum RequestedTime: Sendable, Equatable {
  /// Minutes after local midnight.
  case clock(minutes: Int)
  case instant(UnixTime)

  /// The instant a query starts from: `time` on `date` (both on the wall clock of `zone`).
  /// Without a time, the current time of day on `date`; without a date, today (in `zone`);
  /// without either, `now`. A full instant stands alone (the command refuses it with a date).
  public static func start(_ time: RequestedTime?, on date: ServiceDate?, now: UnixTime, zone: LocalZone) -> UnixTime {
    let day = date ?? LocalClock.date(of: now, in: zone)
    switch time {
    case .instant(let instant):
      return instant
    case .clock(let minutes):
      return LocalClock.instant(day, secondsAfterMidnight: minutes * 60, in: zone)
    case nil:
      guard date != nil else { return now }
      return LocalClock.instant(day, secondsAfterMidnight: LocalClock.secondsAfterMidnight(of: now, in: zone), in: zone)
    }
  }
}
