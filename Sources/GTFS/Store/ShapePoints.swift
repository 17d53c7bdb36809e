/// A shape's points as the timetable stores them: one row of `shapes` per shape, its points in
/// shape_pt_sequence order, 28 bytes each: the sequence (int32), latitude, longitude and
/// shape_dist_traveled (float64, NaN when absent), little-endian.
enum ShapePoints {
  /// One row of shapes.txt.
  struct Point: Equatable {
    var sequence: Int32
    var latitude: Double
    var longitude: Double
    var distance: Double?
  }

  static let stride = 28

  /// `points` in sequence order; of points with the same sequence, the last one given.
  static func ordered(_ points: [Point]) -> [Point] {
    let sorted = points.enumerated().sorted { ($0.element.sequence, $0.offset) < ($1.element.sequence, $1.offset) }
    var result: [Point] = []
    result.reserveCapacity(sorted.count)
    for (_, point) in sorted {
      if let last = result.last, last.sequence == point.sequence { result[result.count - 1] = point } else { result.append(point) }
    }
    return result
  }

  static func encode(_ points: [Point]) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: points.count * stride)
    bytes.withUnsafeMutableBytes { raw in
      for (index, point) in points.enumerated() {
        let offset = index * stride
        raw.storeBytes(of: point.sequence.littleEndian, toByteOffset: offset, as: Int32.self)
        raw.storeBytes(of: point.latitude.bitPattern.littleEndian, toByteOffset: offset + 4, as: UInt64.self)
        raw.storeBytes(of: point.longitude.bitPattern.littleEndian, toByteOffset: offset + 12, as: UInt64.self)
        raw.storeBytes(of: (point.distance ?? .nan).bitPattern.littleEndian, toByteOffset: offset + 20, as: UInt64.self)
      }
    }
    return bytes
  }

  /// The points of a row (a row cut short loses its last, partial point).
  static func decode(_ raw: UnsafeRawBufferPointer) -> [Point] {
    var points: [Point] = []
    points.reserveCapacity(raw.count / stride)
    var offset = 0
    while offset + stride <= raw.count {
      func double(_ at: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + at, as: UInt64.self)))
      }
      let distance = double(20)
      points.append(
        Point(
          sequence: Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)), latitude: double(4),
          longitude: double(12), distance: distance.isNaN ? nil : distance))
      offset += stride
    }
    return points
  }
}
