import Services
import TransitModel

extension IngestCommand {
  /// A systemd user service and timer running the nightly refresh.
  static let systemdUnits = """
    # ~/.config/systemd/user/transit-refresh.service
    [Unit]
    Description=Refresh transit timetables

    [Service]
    Type=oneshot
    ExecStart=/bin/sh -c 'transit ingest --if-changed --quiet; transit ingest --check --quiet'

    # ~/.config/systemd/user/transit-refresh.timer
    [Unit]
    Description=Refresh transit timetables every night

    [Timer]
    OnCalendar=*-*-* 04:17
    RandomizedDelaySec=15m
    Persistent=true

    [Install]
    WantedBy=timers.target

    # then: systemctl --user daemon-reload && systemctl --user enable --now transit-refresh.timer
    # failures show in 'systemctl --user status transit-refresh' and 'journalctl --user -u transit-refresh'

    """
}

/// How a change for you is shown: one line of text, or a JSON object.
extension ChangeForYou {
  var text: String {
    switch self {
    case .stop(let change, let label):
      let stop = change.stopID + (label.map { " (\($0))" } ?? "")
      switch change.kind {
      case .removed: return "your stop \(stop) is no longer in the timetable"
      case .moved(let meters): return "your stop \(stop) moved \(Int(meters.rounded())) m"
      case .routesGone(let routes):
        return
          "\(routes.count == 1 ? "route" : "routes") \(routes.joined(separator: ", ")) no longer \(routes.count == 1 ? "calls" : "call") at your stop \(stop)"
      }
    case .commute(let change, let zone):
      func clock(_ time: UnixTime) -> String { String(ISOTime.format(time, zone: zone).dropFirst(11).prefix(5)) }
      let prefix = "commute \(change.name): "
      switch (change.before, change.after) {
      case (let before?, let after?) where before.route == after.route:
        return prefix + "the \(clock(before.departs)) \(before.route) now leaves \(clock(after.departs))"
      case (let before?, let after?):
        return prefix + "the \(clock(before.departs)) \(before.route) is gone; take the \(clock(after.departs)) \(after.route)"
      case (let before?, nil): return prefix + "the \(clock(before.departs)) \(before.route) is gone, and nothing else arrives in time"
      case (nil, let after?): return prefix + "the \(clock(after.departs)) \(after.route) now arrives in time"
      case (nil, nil): return prefix + "changed"
      }
    }
  }
}
