import FoundationEssentials
import SQLite
import TransitModel

/// Which services run on a date, and where a service day's clock starts.
///
/// GTFS Reference, calendar.txt and calendar_dates.txt: a service runs on a date when
/// calendar.txt's weekday flag is set and the date lies in `start_date...end_date`, then
/// calendar_dates.txt adds it (`exception_type` 1) or removes it (2). Feeds with only
/// calendar_dates.txt are common (every service is then an added date).
final class ServiceCalendar {
  private let db: Connection
  /// The agency's time zone (`agency.agency_timezone`).
  let zone: LocalZone
  private var active: [ServiceDate: Set<Int64>] = [:]

  init(db: Connection, zone: LocalZone) {
    self.db = db
    self.zone = zone
  }

  /// The `service_idx` of every service running on `date`.
  /// - Complexity: one scan of calendar (one row per service) and one range lookup in
  ///   calendar_dates' primary key per service; cached per date.
  func services(on date: ServiceDate) throws -> Set<Int64> {
    if let known = active[date] { return known }
    let bit = 1 << (date.weekday - 1)  // calendar.weekdays: bit 0 is Monday
    let regular = try db.cached(
      "SELECT service_idx FROM calendar WHERE start_date <= ?1 AND end_date >= ?1 AND (weekdays & ?2) != 0")
    regular.bind(date.yyyymmdd, at: 1)
    regular.bind(bit, at: 2)
    var result = Set<Int64>()
    while try regular.step() { result.insert(regular.int64(0)) }
    let exceptions = try db.cached("SELECT service_idx, exception_type FROM calendar_dates WHERE date = ?")
    exceptions.bind(date.yyyymmdd, at: 1)
    while try exceptions.step() {
      switch exceptions.int(1) {
      case 1: result.insert(exceptions.int64(0))
      case 2: result.remove(exceptions.int64(0))
      default: break
      }
    }
    active[date] = result
    return result
  }

  /// The instant a service day's times count from: noon minus 12 h of `date` in the agency's
  /// zone (GTFS Reference, "Field Types: Time"). On the days clocks change this is not
  /// midnight, so "01:30:00" is 01:30 after that instant, whatever the wall clock says.
  func start(of date: ServiceDate) -> UnixTime {
    Self.start(of: date, in: zone)
  }

  /// `start(of:)` for any zone.
  static func start(of date: ServiceDate, in zone: LocalZone) -> UnixTime {
    LocalClock.instant(date, secondsAfterMidnight: 43_200, in: zone) - 43_200
  }

  /// The calendar date `time` falls on in `zone`.
  static func localDate(of time: UnixTime, in zone: LocalZone) -> ServiceDate {
    LocalClock.date(of: time, in: zone)
  }
}
