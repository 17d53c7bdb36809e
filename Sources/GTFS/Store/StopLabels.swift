import FoundationEssentials
import SQLite
import TransitModel

extension Store {
  /// For each stop of a list, what tells it apart from the others of the same name and feed
  /// in that list (nil when its name is unique there): its platform_code ("platform 2"), else its
  /// stop_desc, else the routes and destinations served ("27 to Crumlin Hospital").
  ///
  /// Riders see KCM's four "3rd Ave & Pike St" as "South side stop in Seattle (Stop ID
  /// 431)" and so on, not as four identical lines.
  /// - Complexity: one lookup per stop whose name repeats, plus the routes of those with
  ///   neither a platform code nor a description.
  public func distinguishingLabels(_ stops: [Stop]) throws -> [String?] {
    // Within one feed: stops of two feeds are already told apart by the feed's name.
    func key(_ stop: Stop) -> String { stop.feed.rawValue + "\u{0}" + TextFolding.fold(stop.name) }
    var counts: [String: Int] = [:]
    for stop in stops { counts[key(stop), default: 0] += 1 }
    return try stops.map { stop in
      guard counts[key(stop), default: 0] > 1 else { return nil }
      if let code = stop.platformCode { return "platform \(code)" }
      if let reader = reader(stop.feed) {
        let select = try reader.db.cached("SELECT description FROM stops WHERE stop_id = ?")
        select.bind(stop.id.rawValue, at: 1)
        if try select.step(), let description = select.optionalText(0)?.trimmingSpaces(),
          !description.isEmpty, TextFolding.fold(description) != TextFolding.fold(stop.name)
        {
          return description
        }
      }
      let routes = try routesWithDestinations(at: stop)
      guard !routes.isEmpty else { return stop.isStation ? "station" : nil }
      return routes.prefix(3).map { route in
        route.route.shortName + (route.destinations.isEmpty ? "" : " to " + route.destinations.prefix(2).joined(separator: " / "))
      }.joined(separator: ", ")
    }
  }
}
