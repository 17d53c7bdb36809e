#if canImport(Glibc)
  import Glibc  // libm only: sin, cos, asin
#elseif canImport(Darwin)
  import Darwin
#endif

/// A WGS 84 position in degrees.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
  public var latitude: Double
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Whether the values lie on the globe (latitude in ±90, longitude in ±180).
  public var isValid: Bool {
    latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
  }

  /// Great-circle distance in metres (haversine on a sphere of the mean Earth radius).
  public func distanceMeters(to other: Coordinate) -> Double {
    let r = 6_371_008.8
    let toRadians = Double.pi / 180
    let dLat = (other.latitude - latitude) * toRadians
    let dLon = (other.longitude - longitude) * toRadians
    let a =
      sin(dLat / 2) * sin(dLat / 2) + cos(latitude * toRadians) * cos(other.latitude * toRadians)
      * sin(dLon / 2) * sin(dLon / 2)
    return 2 * r * asin(min(1, a.squareRoot()))
  }

  public var description: String { "\(latitude),\(longitude)" }
}
