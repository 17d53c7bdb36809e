import SQLite

/// shapes.txt: the paths vehicles take, point by point.
enum ShapeColumn: Int, GTFSColumns {
  case shapeID, latitude, longitude, sequence, distance

  static let file = "shapes.txt"

  var spec: ColumnSpec {
    switch self {
    case .shapeID: ColumnSpec("shape_id", .required, stored: "shape_id")
    case .latitude: ColumnSpec("shape_pt_lat", .required, .number(-90...90))
    case .longitude: ColumnSpec("shape_pt_lon", .required, .number(-180...180))
    case .sequence: ColumnSpec("shape_pt_sequence", .required, .integer(0...Int(Int32.max)))
    case .distance: ColumnSpec("shape_dist_traveled", .optional, .number())
    }
  }
}

extension FeedImporter {
  /// shapes.txt, one row per shape (`ShapePoints`): the points of a shape are read together,
  /// so a row per point (1.6 M of them in a country's feed, each a seek in a text-keyed B-tree)
  /// cost more than the stop times. Rows of one shape usually follow each other; a shape whose
  /// rows are split across the file is merged with what was stored. A repeated
  /// shape_pt_sequence keeps its last point.
  func loadShapes() throws {
    let insert = try db.cached("INSERT OR REPLACE INTO shapes (shape_id, points) VALUES (?, ?)")
    let stored = try db.cached("SELECT points FROM shapes WHERE shape_id = ?")
    var shapeBytes: [UInt8] = [], shapeID = ""
    var points: [ShapePoints.Point] = []
    var written = Set<String>()
    func flush() throws {
      guard !points.isEmpty else { return }
      if written.contains(shapeID) {
        stored.reset()
        stored.bind(shapeID, at: 1)
        if try stored.step() { points = stored.withBlob(0) { ShapePoints.decode($0) } + points }
      }
      insert.reset()
      insert.bind(shapeID, at: 1)
      insert.bindBlob(ShapePoints.encode(ShapePoints.ordered(points)), at: 2)
      try insert.run()
      written.insert(shapeID)
      points.removeAll(keepingCapacity: true)
    }
    guard let reader = try open(ShapeColumn.file) else { return }
    let r = try GTFSRows<ShapeColumn>(reader)
    while try r.next() {
      tick(reader)
      let idBytes = r.bytes(.shapeID)
      guard !idBytes.isEmpty else { throw r.missing(.shapeID) }
      if !FieldParsing.equal(idBytes, shapeBytes) {
        try flush()
        shapeBytes = Array(idBytes)
        shapeID = FieldParsing.text(idBytes)
      }
      let latitude = try r.requiredNumber(.latitude), longitude = try r.requiredNumber(.longitude)
      let sequence = Int32(try r.requiredInt(.sequence))
      points.append(ShapePoints.Point(sequence: sequence, latitude: latitude, longitude: longitude, distance: try r.number(.distance)))
    }
    try flush()
    finish(reader)
    if reader.recordCount > 0 { summary.rows.append((ShapeColumn.file, reader.recordCount)) }
  }
}
