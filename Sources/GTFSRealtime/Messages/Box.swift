/// A heap cell for a large message field that is usually unset, so the struct holding it stays
/// small: `FeedEntity` keeps four of its payloads here (alerts, shapes, stops and trip
/// modifications). The common payloads, `vehicle` and `tripUpdate`, are kept in the store the
/// entities of a feed share instead (`EntityPayloads`): a cell costs an allocation and a free
/// per entity.
///
/// Value semantics are kept by never mutating a shared cell: the public property's setter makes
/// a new cell, and the decoder (`WireReader.mergeMessage(_:_:into:)`) copies a cell before
/// writing unless it is uniquely referenced.
final class Box<Value: Sendable>: @unchecked Sendable {
  // @unchecked: `value` is only written while the cell is uniquely referenced (see above).
  var value: Value

  init(_ value: Value) { self.value = value }
}

extension Box: Equatable where Value: Equatable {
  static func == (lhs: Box, rhs: Box) -> Bool { lhs === rhs || lhs.value == rhs.value }
}

/// The rarely set message fields of a compact message, kept together in one `Box` so that the
/// message holds one pointer for all of them (`TripUpdate.StopTimeUpdate.Rare`).
protocol RareFields: Sendable {
  /// Every field unset.
  init()
}
