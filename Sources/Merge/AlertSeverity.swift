import GTFSRealtime
import TransitModel

extension RouteStatus {
  /// The status an alert with `effect` gives (unset counts as `UNKNOWN_EFFECT`: yellow).
  public init(effect: Alert.Effect?) {
    switch effect ?? .unknownEffect {
    case .noService, .significantDelays: self = .red
    case .noEffect: self = .green
    case .reducedService, .detour, .additionalService, .modifiedService, .otherEffect, .unknownEffect, .stopMoved,
      .accessibilityIssue, .unrecognized:
      self = .yellow
    }
  }
}

/// How alerts rank against each other: most severe first.
public enum AlertSeverity {
  /// 3 severe, 2 warning, 1 info: `severity_level` when the feed sets a known one, else
  /// inferred from the effect (no service and significant delays severe, no effect info, the
  /// rest a warning).
  public static func level(_ alert: Alert) -> Int {
    switch alert.severityLevel {
    case .severe: return 3
    case .warning: return 2
    case .info: return 1
    case .unknownSeverity, .unrecognized, nil:
      switch RouteStatus(effect: alert.effect) {
      case .red: return 3
      case .yellow: return 2
      case .green: return 1
      }
    }
  }

  /// Effects from the most to the least disruptive, for ties in `level`.
  static func effectRank(_ effect: Alert.Effect?) -> Int {
    switch effect ?? .unknownEffect {
    case .noService: 10
    case .significantDelays: 9
    case .reducedService: 8
    case .detour: 7
    case .stopMoved: 6
    case .modifiedService: 5
    case .accessibilityIssue: 4
    case .additionalService: 3
    case .otherEffect: 2
    case .unknownEffect, .unrecognized: 1
    case .noEffect: 0
    }
  }

  /// Whether `a` comes before `b`: higher level, then more disruptive effect, then id.
  public static func isMoreSevere(_ a: IdentifiedAlert, than b: IdentifiedAlert) -> Bool {
    let left = (level(a.alert), effectRank(a.alert.effect)), right = (level(b.alert), effectRank(b.alert.effect))
    if left != right { return left > right }
    return a.id < b.id
  }

  /// `alerts` most severe first (stable for equal ranks by id).
  public static func sorted(_ alerts: [IdentifiedAlert]) -> [IdentifiedAlert] {
    alerts.sorted(by: isMoreSevere)
  }

  /// The worst status among `alerts`, with the alerts that give it (most severe first); green
  /// with none when the list is empty.
  public static func status(of alerts: [IdentifiedAlert]) -> (status: RouteStatus, reasons: [IdentifiedAlert]) {
    let worst = alerts.map { RouteStatus(effect: $0.alert.effect) }.max() ?? .green
    guard worst != .green else { return (.green, []) }
    return (worst, sorted(alerts.filter { RouteStatus(effect: $0.alert.effect) == worst }))
  }
}
