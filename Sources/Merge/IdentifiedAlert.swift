import GTFSRealtime
import TransitModel

/// A service alert with the id of the feed entity carrying it and a fingerprint of its content.
public struct IdentifiedAlert: Sendable, Equatable {
  /// The feed entity's id; the content hash when the feed leaves the id out.
  public var id: String
  /// The alert.
  public var alert: Alert
  /// A stable hash of everything the rider sees (see `AlertFingerprint`), so an edited alert
  /// with the same id reads as new.
  public var contentHash: String

  /// Wraps `alert`, computing its content hash.
  public init(id: String?, alert: Alert) {
    let hash = AlertFingerprint.hash(alert)
    self.id = id.flatMap { $0.isEmpty ? nil : $0 } ?? hash
    self.alert = alert
    self.contentHash = hash
  }

  /// The alerts of `feeds`, in feed order, leaving out deleted entities; an id met twice keeps
  /// its first alert.
  public static func alerts(in feeds: [FeedMessage]) -> [IdentifiedAlert] {
    var result: [IdentifiedAlert] = []
    var seen = Set<String>()
    for feed in feeds {
      for entity in feed.entities where !entity.isDeletedOrDefault {
        guard let alert = entity.alert else { continue }
        let item = IdentifiedAlert(id: entity.id, alert: alert)
        if seen.insert(item.id).inserted { result.append(item) }
      }
    }
    return result
  }
}

/// Where an alert stands against a moment.
public enum AlertTiming: Sendable, Equatable {
  /// One of its periods holds the moment (or it has none: always active).
  case active
  /// Its next period starts later.
  case upcoming(start: UnixTime)
  /// Every period has ended.
  case ended
}

extension AlertMatcher {
  /// Whether `alert` is active at `now`, will be, or was.
  ///
  /// The spec: "If missing, the alert will be shown as long as it appears in the feed"; a
  /// period without start is open since forever, without end open for ever; both ends count
  /// as inside.
  public static func timing(of alert: Alert, at now: UnixTime) -> AlertTiming {
    if isActive(alert, at: now) { return .active }
    let time = UInt64(max(0, now.seconds))
    let next = alert.activePeriods.compactMap(\.start).filter { $0 > time }.min()
    return next.map { .upcoming(start: UnixTime(Int64(clamping: $0))) } ?? .ended
  }
}

/// A content hash that is the same in every run (Swift's `Hasher` is seeded per process):
/// 64-bit FNV-1a over the alert's fields in a fixed order, as 16 hex digits.
public enum AlertFingerprint {
  /// The hash of what a rider sees of `alert`: periods, informed entities, cause, effect,
  /// severity and every text.
  public static func hash(_ alert: Alert) -> String {
    var state: UInt64 = 0xcbf2_9ce4_8422_2325
    func byte(_ value: UInt8) {
      state ^= UInt64(value)
      state = state &* 0x0000_0100_0000_01B3
    }
    func number(_ value: UInt64?) {
      guard let value else { return byte(0) }
      byte(1)
      for shift in stride(from: 0, to: 64, by: 8) { byte(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
    func text(_ value: String?) {
      guard let value else { return byte(0) }
      byte(1)
      number(UInt64(value.utf8.count))
      for unit in value.utf8 { byte(unit) }
    }
    func translated(_ value: TranslatedString?) {
      guard let value else { return byte(0) }
      byte(1)
      number(UInt64(value.translations.count))
      for translation in value.translations {
        text(translation.text)
        text(translation.language)
      }
    }
    number(UInt64(alert.activePeriods.count))
    for period in alert.activePeriods {
      number(period.start)
      number(period.end)
    }
    number(UInt64(alert.informedEntities.count))
    for selector in alert.informedEntities {
      text(selector.agencyID)
      text(selector.routeID)
      number(selector.routeType.map { UInt64(bitPattern: Int64($0)) })
      text(selector.trip?.tripID)
      text(selector.trip?.routeID)
      text(selector.trip?.startDate)
      text(selector.trip?.startTime)
      text(selector.stopID)
      number(selector.directionID.map(UInt64.init))
    }
    number(alert.cause.map { UInt64(bitPattern: Int64($0.rawValue)) })
    number(alert.effect.map { UInt64(bitPattern: Int64($0.rawValue)) })
    number(alert.severityLevel.map { UInt64(bitPattern: Int64($0.rawValue)) })
    for string in [alert.url, alert.headerText, alert.descriptionText, alert.causeDetail, alert.effectDetail] {
      translated(string)
    }
    let hex = String(state, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
