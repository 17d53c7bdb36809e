import TransitModel
import UserData

/// A place the rider saved (`places add home LAT,LON`): usable wherever a position is asked
/// for. Its `Encodable` form is `{name, lat, lon}`.
public struct SavedPlace: Sendable, Equatable, Encodable {
  public var name: String
  public var coordinate: Coordinate

  public init(name: String, coordinate: Coordinate) {
    self.name = name
    self.coordinate = coordinate
  }

  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try members.encode(name, forKey: "name")
    try members.encode(coordinate.latitude, forKey: "lat")
    try members.encode(coordinate.longitude, forKey: "lon")
  }
}

extension UserDataAccess {
  /// The saved places, by name; none without user data (a read creates no file).
  /// - Throws: what reading the user's database throws.
  public func places() throws -> [SavedPlace] {
    try openIfPresent()?.places().map {
      SavedPlace(name: $0.name, coordinate: Coordinate(latitude: $0.latitude, longitude: $0.longitude))
    } ?? []
  }

  /// The saved place `name` names (case and surrounding spaces ignored); nil when there is
  /// none, or no user data at all (which asking does not create).
  /// - Throws: what reading the user's database throws.
  public func place(named name: String) throws -> SavedPlace? {
    let key = name.trimmingSpaces().lowercased()
    guard let found = try openIfPresent()?.place(named: key) else { return nil }
    return SavedPlace(name: key, coordinate: Coordinate(latitude: found.latitude, longitude: found.longitude))
  }

  /// Saves `place` (a name already saved is moved there) at `now`.
  /// - Returns: whether a place of that name was there before (it moved).
  /// - Throws: what writing the user's database throws.
  public func save(_ place: SavedPlace, now: UnixTime) throws -> Bool {
    guard let users = try open() else { return false }
    let existed = try users.place(named: place.name) != nil
    try users.savePlace(place.name, latitude: place.coordinate.latitude, longitude: place.coordinate.longitude, now: now.seconds)
    return existed
  }

  /// Forgets the place `name`.
  /// - Returns: whether there was one.
  /// - Throws: what writing the user's database throws.
  public func removePlace(named name: String) throws -> Bool {
    try open()?.removePlace(name) ?? false
  }
}
