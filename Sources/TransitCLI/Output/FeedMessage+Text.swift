import FoundationEssentials
import GTFSRealtime
import TransitModel

/// `rt dump` for people: a header line, the entity counts by kind, any required fields the
/// feed leaves out, then one compact line per entity. Fields the feed leaves unset are left out of the line rather than shown as defaults.
extension FeedMessage {
  /// The lines `rt dump` prints for this feed.
  /// - Parameters:
  ///   - now: the time the feed's age is measured against.
  ///   - summaryOnly: only the header and count lines.
  package func textLines(now: UnixTime, summaryOnly: Bool = false) -> [String] {
    var lines = [headerLine(now: now), countLine]
    let missing = missingRequiredFields
    if !missing.isEmpty {
      // Decoded anyway (real feeds break the rule), but worth saying.
      let shown = missing.prefix(3).joined(separator: ", ")
      let more = missing.count > 3 ? " and \(Self.grouped(missing.count - 3)) more" : ""
      lines.append("missing required fields: \(shown)\(more)")
    }
    if summaryOnly { return lines }
    let reference = header?.timestamp.map(Self.unixTime) ?? now
    for entity in entities {
      lines.append(entity.textLine(feedTime: reference))
    }
    return lines
  }

  /// `GTFS-Realtime 2.0 · FULL_DATASET · 2021-09-02T15:31:56Z (1,234 days old)`.
  package func headerLine(now: UnixTime) -> String {
    var parts = ["GTFS-Realtime " + (header?.gtfsRealtimeVersion ?? "(no version)")]
    if let incrementality = header?.incrementality {
      parts.append(incrementality.description)
    } else {
      parts.append("FULL_DATASET (default)")
    }
    if let timestamp = header?.timestamp, timestamp > Self.latestFormattable {
      parts.append("timestamp \(timestamp)")  // past year 9999: not a date worth printing
    } else if let timestamp = header?.timestamp {
      let time = Self.unixTime(timestamp)
      let age = Self.seconds(from: time, to: now)
      let relative = age >= 0 ? "\(Self.duration(age)) old" : "\(Self.duration(age)) in the future"
      parts.append("\(ISOTime.format(time)) (\(relative))")
    } else {
      parts.append("no timestamp")
    }
    if let version = header?.feedVersion { parts.append("feed_version \(version)") }
    return parts.joined(separator: " · ")
  }

  /// `627 entities: 627 vehicle` or `3 entities: 2 trip_update, 1 alert`.
  package var countLine: String {
    // The kinds are FeedEntity's message fields (trip_update, vehicle, alert, ...) in the
    // .proto's order, from its generated field table; then the deleted entities.
    var tally = EntityKindTally()
    for entity in entities { entity.traverse(visitor: &tally) }
    var kinds = FeedEntity.fields.filter { $0.kind == .message }.map { field in
      ("\(field.name)", tally.counts["\(field.name)", default: 0])
    }
    kinds.append(("deleted", entities.count { $0.isDeleted == true }))
    let counts = kinds.compactMap { name, count -> String? in
      count == 0 ? nil : "\(Self.grouped(count)) \(name)"
    }
    let noun = entities.count == 1 ? "entity" : "entities"
    let total = "\(Self.grouped(entities.count)) \(noun)"
    return counts.isEmpty ? total : total + ": " + counts.joined(separator: ", ")
  }

  // MARK: - Formatting helpers

  /// 9999-12-31T23:59:59Z.
  static let latestFormattable: UInt64 = 253_402_300_799

  static func unixTime(_ timestamp: UInt64) -> UnixTime { UnixTime(Int64(clamping: timestamp)) }

  /// `end - start` in seconds, clamped instead of overflowing on absurd timestamps.
  static func seconds(from start: UnixTime, to end: UnixTime) -> Int64 {
    let (difference, overflow) = end.seconds.subtractingReportingOverflow(start.seconds)
    return overflow ? (end.seconds > start.seconds ? .max : .min) : difference
  }

  /// `1,234 days`, `5 min`: `ISOTime.describe` of the magnitude, with thousands separators.
  static func duration(_ seconds: Int64) -> String {
    let text = Format.duration(seconds: seconds == .min ? .max : abs(seconds))
    let digits = text.prefix { $0.isNumber }
    guard let number = Int(digits) else { return text }
    return grouped(number) + text.dropFirst(digits.count)
  }

  /// `12,103`.
  static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return number < 0 ? "-" + out : out
  }

  /// `+60 s`, `-2 min`, `0 s`.
  static func signedDuration(_ seconds: Int64) -> String {
    (seconds > 0 ? "+" : seconds < 0 ? "-" : "") + duration(seconds)
  }
}

extension FeedEntity {
  /// One line for this entity, by kind; `feedTime` is what vehicle ages are measured against.
  package func textLine(feedTime: UnixTime) -> String {
    var parts: [String] = []
    let name = id ?? "(no id)"
    if let tripUpdate { parts.append(tripUpdate.textLine(id: name)) }
    if let vehicle { parts.append(vehicle.textLine(id: name, feedTime: feedTime)) }
    if let alert { parts.append(alert.textLine(id: name)) }
    if let shape { parts.append(shape.textLine(id: name)) }
    if let stop { parts.append(stop.textLine(id: name)) }
    if let tripModifications { parts.append(tripModifications.textLine(id: name)) }
    if parts.isEmpty { parts.append("entity \(name)  (no content)") }
    var line = parts.joined(separator: "  |  ")
    if isDeleted == true { line += "  deleted" }
    return line
  }
}

extension TripDescriptor {
  /// `trip 101 route L1 20231107 16:45:00` with what is set.
  var textParts: [String] {
    var parts: [String] = []
    if let tripID { parts.append("trip \(tripID)") }
    if let routeID { parts.append("route \(routeID)") }
    if let directionID { parts.append("direction \(directionID)") }
    let start = [startDate, startTime].compactMap { $0 }.joined(separator: " ")
    if !start.isEmpty { parts.append(start) }
    if let scheduleRelationship { parts.append(scheduleRelationship.description) }
    return parts
  }
}

extension TripUpdate {
  func textLine(id: String) -> String {
    var parts = ["trip_update \(id)"] + (trip?.textParts ?? ["(no trip)"])
    if let vehicleID = vehicle?.id ?? vehicle?.label { parts.append("vehicle \(vehicleID)") }
    let count = stopTimeUpdates.count
    parts.append("\(FeedMessage.grouped(count)) stop update\(count == 1 ? "" : "s")")
    let firstDelay =
      delay
      ?? stopTimeUpdates.lazy.compactMap { $0.arrival?.delay ?? $0.departure?.delay }.first
    if let firstDelay {
      parts.append("delay \(FeedMessage.signedDuration(Int64(firstDelay)))")
    } else if let time = stopTimeUpdates.lazy.compactMap({ $0.arrival?.time ?? $0.departure?.time })
      .first,
      (0...Int64(FeedMessage.latestFormattable)).contains(time)
    {
      parts.append("first at \(ISOTime.format(UnixTime(time)))")  // many feeds send only times
    }
    return parts.joined(separator: "  ")
  }
}

extension VehiclePosition {
  func textLine(id: String, feedTime: UnixTime) -> String {
    var parts = ["vehicle \(id)"]
    if let label = vehicle?.label, !label.isEmpty, label != vehicle?.id { parts.append("label \(label)") }
    if let vehicleID = vehicle?.id, vehicleID != id { parts.append("vehicle_id \(vehicleID)") }
    parts += trip?.textParts ?? []
    if let position {
      if let latitude = position.latitude, let longitude = position.longitude {
        parts.append(Format.fixed(Double(latitude), decimals: 5) + "," + Format.fixed(Double(longitude), decimals: 5))
      }
      if let bearing = position.bearing { parts.append("bearing " + Format.fixed(Double(bearing), decimals: 0) + "°") }
      if let speed = position.speed { parts.append(Format.fixed(Double(speed), decimals: 1) + " m/s") }
    }
    var stopPart: [String] = []
    if let currentStatus { stopPart.append(currentStatus.description) }
    if let stopID { stopPart.append("stop \(stopID)") }
    if let currentStopSequence { stopPart.append("#\(currentStopSequence)") }
    if !stopPart.isEmpty { parts.append(stopPart.joined(separator: " ")) }
    if let occupancyStatus { parts.append(occupancyStatus.description) }
    if let occupancyPercentage { parts.append("\(occupancyPercentage)% full") }
    if let timestamp {
      // Age against the feed's own timestamp: a recorded feed's vehicles are not years old.
      let age = FeedMessage.seconds(from: FeedMessage.unixTime(timestamp), to: feedTime)
      parts.append(
        age >= 0
          ? "age \(FeedMessage.duration(age))" : "\(FeedMessage.duration(age)) after the feed")
    }
    return parts.joined(separator: "  ")
  }
}

extension TranslatedString {
  /// The translation without a language or in English, else the first one.
  var preferredText: String? {
    let chosen =
      translations.first { $0.language == nil || $0.language?.isEmpty == true }
      ?? translations.first { $0.language?.lowercased().hasPrefix("en") == true }
      ?? translations.first
    return chosen?.text.map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
  }
}

extension Alert {
  func textLine(id: String) -> String {
    var parts = ["alert \(id)"]
    if let effect { parts.append(effect.description) }
    if let cause { parts.append(cause.description) }
    if let severityLevel { parts.append(severityLevel.description) }
    if let text = headerText?.preferredText { parts.append("\"\(text)\"") }
    let count = informedEntities.count
    parts.append("\(count) informed entit\(count == 1 ? "y" : "ies")")
    return parts.joined(separator: "  ")
  }
}

extension GTFSRealtime.Shape {
  func textLine(id: String) -> String {
    var parts = ["shape \(id)"]
    if let shapeID { parts.append("shape_id \(shapeID)") }
    if let encodedPolyline { parts.append("polyline of \(encodedPolyline.utf8.count) bytes") }
    return parts.joined(separator: "  ")
  }
}

extension GTFSRealtime.Stop {
  func textLine(id: String) -> String {
    var parts = ["stop \(id)"]
    if let stopID { parts.append("stop_id \(stopID)") }
    if let name = stopName?.preferredText { parts.append("\"\(name)\"") }
    if let stopLat, let stopLon {
      parts.append(Format.fixed(Double(stopLat), decimals: 5) + "," + Format.fixed(Double(stopLon), decimals: 5))
    }
    return parts.joined(separator: "  ")
  }
}

extension TripModifications {
  func textLine(id: String) -> String {
    let trips = selectedTrips.reduce(0) { $0 + $1.tripIDs.count }
    var parts = ["trip_modifications \(id)", "\(trips) trip\(trips == 1 ? "" : "s")"]
    parts.append("\(modifications.count) modification\(modifications.count == 1 ? "" : "s")")
    if !serviceDates.isEmpty { parts.append("on " + serviceDates.joined(separator: ", ")) }
    return parts.joined(separator: "  ")
  }
}

/// Counts the message fields set in the entities it visits, by field name.
struct EntityKindTally: FieldVisitor {
  var counts: [String: Int] = [:]

  mutating func visitMessage<M: ProtoMessage>(_ value: M, number: Int, name: StaticString) {
    counts["\(name)", default: 0] += 1
  }

  // Scalars and repeated fields are not kinds of entity.
  mutating func visitSigned(_ value: Int64, number: Int, name: StaticString) {}
  mutating func visitUnsigned(_ value: UInt64, number: Int, name: StaticString) {}
  mutating func visitBool(_ value: Bool, number: Int, name: StaticString) {}
  mutating func visitFloat(_ value: Float, number: Int, name: StaticString) {}
  mutating func visitDouble(_ value: Double, number: Int, name: StaticString) {}
  mutating func visitString(_ value: String, number: Int, name: StaticString) {}
  mutating func visitEnum<E: ProtoEnum>(_ value: E, number: Int, name: StaticString) {}
  mutating func visitRepeatedString(_ values: [String], number: Int, name: StaticString) {}
  mutating func visitRepeatedMessage<M: ProtoMessage>(_ values: [M], number: Int, name: StaticString) {}
}
