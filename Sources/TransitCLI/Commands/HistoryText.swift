import Services
import TransitModel

/// The history's answer as a rider reads it in a terminal (at most 80 columns), and as CSV.
enum HistoryText {
  /// The widest a histogram bar is drawn.
  static let barWidth = 40

  /// "+1:30", "-0:45", "0:00": a delay in minutes and seconds.
  static func delay(_ seconds: Int64) -> String {
    let sign = seconds > 0 ? "+" : seconds < 0 ? "-" : ""
    let magnitude = abs(seconds)
    return sign + "\(magnitude / 60):" + (magnitude % 60 < 10 ? "0" : "") + "\(magnitude % 60)"
  }

  /// "on time 8 of 12 (67%), early 1, late 3" or the fewer-than-3 sentence.
  static func share(_ statistics: HistoryAnswer.Statistics) -> String {
    guard statistics.isEnough else { return fewer(statistics.count) }
    let percent = (statistics.onTime * 100 + statistics.count / 2) / statistics.count
    return "on time \(statistics.onTime) of \(statistics.count) (\(percent)%), early \(statistics.early), late \(statistics.late)"
  }

  /// "fewer than 3 observations (2): nothing claimed".
  static func fewer(_ count: Int) -> String {
    "fewer than \(HistoryAnswer.Statistics.minimumCount) observations (\(count)): nothing claimed"
  }

  /// "median +1:30, 90th percentile +4:10 (of 12)".
  static func spread(_ statistics: HistoryAnswer.Statistics) -> String? {
    guard let median = statistics.medianSeconds, let p90 = statistics.p90Seconds else { return nil }
    return "median \(delay(median)), 90th percentile \(delay(p90)) (of \(statistics.count))"
  }

  /// The histogram: one line per one-minute bin, "  +2 min │████▌ 9".
  static func histogram(_ statistics: HistoryAnswer.Statistics, ascii: Bool) -> [String] {
    guard statistics.isEnough, let most = statistics.bins.max(), most > 0 else { return [] }
    let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    return statistics.bins.enumerated().map { index, count in
      let minute = statistics.firstMinute + index
      let number = (minute > 0 ? "+" : "") + "\(minute)"
      let label = String(repeating: " ", count: max(0, 3 - number.count)) + number
      let units = count * barWidth * 8 / most  // in eighths of a character
      var bar: String
      if ascii {
        bar = String(repeating: "#", count: (units + 4) / 8)
        if count > 0 && bar.isEmpty { bar = "#" }
      } else {
        bar = String(repeating: "█", count: units / 8) + eighths[units % 8]
        if count > 0 && bar.isEmpty { bar = "▏" }
      }
      return "  \(label) min \(ascii ? "|" : "│")\(bar) \(count)"
    }
  }

  /// The whole answer as text.
  static func text(_ answer: HistoryAnswer, ascii: Bool) -> String {
    func day(_ t: Int64) -> String { String(ISOTime.format(UnixTime(t), zone: answer.zone).prefix(10)) }
    var lines: [String] = []
    lines.append("history of \(answer.subject)")
    let observed = answer.rows.filter { $0.event.kind == .observed }.count
    lines.append(
      "\(day(answer.from)) to \(day(answer.to)): \(answer.rows.count) call\(answer.rows.count == 1 ? "" : "s") with an actual (\(observed) observed, \(answer.rows.count - observed) inferred)"
    )
    if answer.skips > 0 { lines.append("\(answer.skips) call\(answer.skips == 1 ? "" : "s") the feed said it skipped") }
    lines.append("early at or below \(delay(answer.earlySeconds)), late at or above \(delay(answer.lateSeconds))")
    lines.append("")
    lines.append(share(answer.overall))
    if let spread = spread(answer.overall) { lines.append(spread) }
    let bars = histogram(answer.overall, ascii: ascii)
    if !bars.isEmpty {
      lines.append("")
      lines.append("delay (actual - scheduled), one-minute bins:")
      lines += bars
    }
    if !answer.byHour.isEmpty {
      lines.append("")
      lines.append("by hour:")
      for hour in answer.byHour {
        let h = (hour.hour < 10 ? "0" : "") + "\(hour.hour)"
        var text = "  \(h):00  " + share(hour.statistics)
        if let median = hour.statistics.medianSeconds, let p90 = hour.statistics.p90Seconds {
          text =
            "  \(h):00  " + share(hour.statistics).replacing(", early \(hour.statistics.early), late \(hour.statistics.late)", with: "")
          text += ", median \(delay(median)), p90 \(delay(p90))"
        }
        lines.append(text)
        if hour.statistics.isEnough && answer.byHour.count > 1 {
          lines += histogram(hour.statistics, ascii: ascii).map { "    " + $0.dropFirst(2) }
        }
      }
    }
    lines.append("")
    lines.append("prediction accuracy (ETA Accuracy Benchmark: accurate / predictions per bucket):")
    if answer.accuracyOverall.count == 0 {
      lines.append("  no prediction recorded for these calls")
    } else {
      var rows: [[String]] = [["  route", "stop"] + HistoryAnswer.accuracyBucketLabels + ["score"]]
      func cells(_ score: HistoryAnswer.Score) -> [String] {
        score.buckets.map { $0.count == 0 ? "-" : "\($0.accurate)/\($0.count)" }
          + [score.score.map { Format.fixed($0 * 100, decimals: 0) + "%" } ?? "-"]
      }
      for accuracy in answer.accuracy { rows.append(["  " + accuracy.routeName, accuracy.stopID] + cells(accuracy.score)) }
      if answer.accuracy.count > 1 { rows.append(["  all", ""] + cells(answer.accuracyOverall)) }
      lines += StopCommandSupport.table(rows, rightAligned: [2, 3, 4, 5, 6]).split(separator: "\n").map(String.init)
    }
    lines.append("")
    if answer.days.isEmpty {
      lines.append("ghost trips and cancellations: none recorded")
    } else {
      lines.append("ghost trips and cancellations, by day:")
      for day in answer.days {
        let d = day.date.description  // YYYYMMDD
        let dashed = "\(d.prefix(4))-\(d.dropFirst(4).prefix(2))-\(d.suffix(2))"
        lines.append("  \(dashed)  \(day.ghostTrips) ghost trip\(day.ghostTrips == 1 ? "" : "s"), \(day.cancellations) cancelled")
      }
    }
    return lines.map { String($0.prefix(80)) }.joined(separator: "\n") + "\n"
  }

  /// The rows as CSV (RFC 4180), one call a line.
  static func csv(_ answer: HistoryAnswer) -> String {
    func field(_ text: String) -> String {
      text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        ? "\"" + text.replacing("\"", with: "\"\"") + "\"" : text
    }
    func number(_ value: Int64?) -> String { value.map(String.init) ?? "" }
    var text =
      "trip_id,service_date,route_id,headsign,stop_id,stop_sequence,scheduled,actual,actual_kind,actual_low,actual_high,delay_seconds,last_predicted\n"
    for row in answer.rows {
      let event = row.event
      let fields: [String] = [
        field(event.key.trip.tripID), String(event.key.trip.serviceDate), field(event.routeID), field(event.headsign), field(event.stopID),
        String(event.key.stopSequence), number(event.scheduled), number(event.actual),
        event.kind.map { $0 == .observed ? "observed" : "inferred" } ?? "", number(event.actualLow), number(event.actualHigh),
        number(row.delaySeconds), number(event.lastPredicted),
      ]
      text += fields.joined(separator: ",") + "\n"
    }
    return text
  }
}
