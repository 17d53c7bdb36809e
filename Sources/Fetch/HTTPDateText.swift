import TransitModel

/// RFC 9110 dates (`Sun, 06 Nov 1994 08:49:37 GMT`), read as the `DateFormatter` with
/// `EEE, dd MMM yyyy HH:mm:ss zzz` (en_US_POSIX, GMT) read them.
public enum HTTPDateText {
  public static func parse(_ text: String) -> Int64? {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","),
      ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].contains(parts[0].dropLast().lowercased()),
      let day = Int(parts[1]), let year = Int(parts[3]), parts[3].count == 4
    else { return nil }
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    guard let monthIndex = months.firstIndex(of: parts[2].lowercased()) else { return nil }
    let clock = parts[4].split(separator: ":")
    guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
      hour < 24, minute < 60, second < 61
    else { return nil }
    let offset: Int
    switch parts[5] {
    case "GMT", "UTC", "UT", "Z": offset = 0
    default:
      let zone = Array(parts[5].utf8)
      guard zone.count == 5, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
        let hours = Int(parts[5].dropFirst().prefix(2)), let minutes = Int(parts[5].suffix(2))
      else { return nil }
      offset = (zone[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
    guard let date = ServiceDate(year: year, month: monthIndex + 1, day: day) else { return nil }
    return Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
  }
}
