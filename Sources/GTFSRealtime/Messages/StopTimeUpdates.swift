extension TripUpdate {
  /// The stop_time_updates of a trip update: a mutable, random-access collection indexed from 0,
  /// used as an array is (`[StopTimeUpdate]` converts with `init(_:)` or an array literal).
  ///
  /// The trip updates of a decoded feed share one array of all their stop time updates, each
  /// holding its own range of it, so a feed of small trip updates decodes and frees without an
  /// array per trip update (issue 24: for a SEPTA capture, one stop_time_update each, the
  /// array's allocation and its release were a quarter of the work). Changing the elements gives
  /// the collection an array of its own first: value semantics as an array's. Keeping one trip
  /// update keeps the feed's whole array.
  public struct StopTimeUpdates: Sendable {
    /// The array the elements are in (empty while a feed is being decoded: see `isPending`).
    var base: [StopTimeUpdate]
    /// Where the elements are in `base` (or, while pending, in the decoder's pool).
    var start: Int
    var end: Int

    /// The elements of `elements`, in their order.
    public init(_ elements: [StopTimeUpdate]) {
      base = elements
      start = 0
      end = elements.count
    }

    /// Elements being decoded: `start..<end` of a `WireReader`'s pool, which becomes `base` once
    /// the feed (or the trip update) is decoded.
    var isPending: Bool { base.isEmpty && end > start }

    /// Makes `base` hold exactly the elements, so changing them cannot touch another trip
    /// update's (the array itself is copied on write, as any array).
    private mutating func makeOwnArray() {
      guard start != 0 || end != base.count else { return }
      base = Array(base[start..<end])
      start = 0
      end = base.count
    }
  }
}

extension TripUpdate.StopTimeUpdates: RandomAccessCollection, MutableCollection {
  public typealias Element = TripUpdate.StopTimeUpdate
  public typealias Index = Int
  public typealias Indices = Range<Int>

  public var startIndex: Int { 0 }
  public var endIndex: Int { end &- start }
  public var count: Int { end &- start }
  public var isEmpty: Bool { end == start }

  public subscript(position: Int) -> TripUpdate.StopTimeUpdate {
    get {
      precondition(position >= 0 && position < end &- start, "index out of range")
      return base[start &+ position]
    }
    set {
      precondition(position >= 0 && position < end &- start, "index out of range")
      makeOwnArray()
      base[position] = newValue
    }
  }

  public func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<TripUpdate.StopTimeUpdate>) throws -> R
  ) rethrows -> R? {
    try base.withUnsafeBufferPointer { buffer in
      try body(UnsafeBufferPointer(rebasing: buffer[start..<end]))
    }
  }
}

extension TripUpdate.StopTimeUpdates: RangeReplaceableCollection, ExpressibleByArrayLiteral {
  public init() {
    self.init([])
  }

  public init(arrayLiteral elements: TripUpdate.StopTimeUpdate...) {
    self.init(elements)
  }

  public mutating func replaceSubrange<C: Collection<TripUpdate.StopTimeUpdate>>(
    _ subrange: Range<Int>, with newElements: C
  ) {
    precondition(subrange.lowerBound >= 0 && subrange.upperBound <= end &- start, "range out of bounds")
    makeOwnArray()
    base.replaceSubrange(subrange, with: newElements)
    end = base.count
  }
}

extension TripUpdate.StopTimeUpdates: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}

extension TripUpdate.StopTimeUpdates: CustomStringConvertible {
  public var description: String { Array(self).description }
}

extension TripUpdate.StopTimeUpdates {
  /// Whether every time the updates give (each arrival's and departure's `time` and
  /// `scheduled_time`, where set) lies in `range`: a consumer's check that no time is out of its
  /// range, reading the stored values in place (a loop over the elements copies each update,
  /// its stop_id and the rest, and calls a getter per value from another module).
  public func timesLie(within range: ClosedRange<Int64>) -> Bool {
    typealias Update = TripUpdate.StopTimeUpdate
    typealias Event = TripUpdate.StopTimeEvent
    func lies(_ event: Event) -> Bool {
      (event.presence & Event.Field.time == 0 || range.contains(event.storedTime))
        && (event.presence & Event.Field.scheduledTime == 0 || range.contains(event.storedScheduledTime))
    }
    return base.withUnsafeBufferPointer { buffer in
      for index in start..<end {
        let presence = buffer[index].presence
        if presence & Update.Field.arrival != 0 && !lies(buffer[index].storedArrival) { return false }
        if presence & Update.Field.departure != 0 && !lies(buffer[index].storedDeparture) { return false }
      }
      return true
    }
  }
}
