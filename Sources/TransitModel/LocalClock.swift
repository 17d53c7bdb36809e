/// Wall-clock arithmetic in an agency's time zone: the one place a local date and time become an
/// instant and back (service-day starts, `--at 07:30`, a commute's deadline, `--date`).
public enum LocalClock {
  /// The instant the wall clock of `zone` reads `seconds` after midnight on `date`. A time that
  /// occurs twice (the hour clocks go back) is the earlier instant; a time in the skipped hour
  /// (clocks go forward) comes out an hour later, as a wall clock set that morning would read it.
  public static func instant(_ date: ServiceDate, secondsAfterMidnight seconds: Int, in zone: LocalZone) -> UnixTime {
    let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(seconds)
    // The offsets a day either side: the wall time is read with whichever gives back itself.
    let before = offset(at: local - 86_400, in: zone), after = offset(at: local + 86_400, in: zone)
    let readings = [local - before, local - after].filter { localSeconds(of: UnixTime($0), in: zone) == local }
    if let earliest = readings.min() { return UnixTime(earliest) }
    // Skipped (clocks went forward): read with the offset from before the change.
    return UnixTime(local - before)
  }

  /// The calendar date `time` falls on in `zone`.
  public static func date(of time: UnixTime, in zone: LocalZone) -> ServiceDate {
    let local = localSeconds(of: time, in: zone)
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    return ServiceDate(daysSinceEpoch: Int(days))
  }

  /// Seconds after local midnight at `time` in `zone` (0..<86,400).
  public static func secondsAfterMidnight(of time: UnixTime, in zone: LocalZone) -> Int {
    let local = localSeconds(of: time, in: zone)
    return Int(((local % 86_400) + 86_400) % 86_400)
  }

  private static func localSeconds(of time: UnixTime, in zone: LocalZone) -> Int64 {
    time.seconds + offset(at: time.seconds, in: zone)
  }

  private static func offset(at seconds: Int64, in zone: LocalZone) -> Int64 {
    Int64(zone.secondsFromGMT(at: seconds))
  }
}
