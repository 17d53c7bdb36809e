import TransitModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds, for each point, the nearest other points at most `radiusMeters` away (haversine,
/// `Coordinate.distanceMeters`): at most `maxLinksPerPoint` of them, in time and space that grow
/// with the points, never with their square, however densely they are packed.
///
/// Each distinct position becomes a unit vector in 3-D, and the vectors go into a k-d tree
/// (split at the median of the widest axis, down to leaves of a few positions). A position's
/// nearest others are a bounded k-nearest search in that tree: a max-heap of at most
/// `perPoint` candidates by chord (the straight line through the sphere), pruned by the chord
/// of `radiusMeters` (slightly widened) until the heap is full and then by its farthest entry.
/// The chord grows with the haversine distance (both are functions of the same half-versine),
/// so the nearest by chord are the nearest by distance; the exact haversine then decides which
/// are within the radius. Working on the sphere needs no special case at the poles or across
/// the antimeridian, and a dense cluster costs a search of the tree per position, not a
/// comparison with every other position of the cluster (10,000 distinct stops within 400 m
/// compared 100 million pairs and sorted each position's 10,000 neighbours: 20 s).
///
/// Bounded against hostile feeds (5,000 stops at one point made 25 million footpaths):
/// - Co-located points (the same coordinate) are folded: the neighbours are searched once per
///   position, and each point links to at most `maxColocatedLinks` of the points sharing its
///   position (the next ones by key, round the group), then to the nearest other positions'
///   points until `maxLinksPerPoint`.
/// - `maxLinksTotal` caps the whole: with more points than it allows at `maxLinksPerPoint` each,
///   each point gets its share (never fewer than `maxColocatedLinks`).
/// - A point with more than `maxLinksPerPoint` other positions within the radius is in a
///   cluster no real feed has: it keeps only its `maxLinksInDenseCluster` nearest.
/// - The distance checks of all searches together are capped (`maxComparisons`); past it the
///   points are refused (`FootpathFinder.TooDense`). A tree search checks a few hundred
///   positions, so no real or hand-packed feed comes near it; it guards the worst case.
///
/// Real feeds are far inside these limits (the densest in shared/data has 160 stops within
/// 400 m of one stop, and at most 4 stops at one position), so for them every pair within the
/// radius is still linked.
///
/// - Complexity: O(n log n) to fold the points and build the tree, then per position a
///   k-nearest search (O(log n + `maxLinksPerPoint`) checks for points spread on a surface),
///   then O(`maxLinksPerPoint` log `maxLinksPerPoint`) per point: near-linear in time, linear in
///   links and memory.
struct FootpathFinder {
  /// A point to link: its key (stop_idx) and position.
  struct Point {
    var key: Int64
    var coordinate: Coordinate
  }

  /// One link found: `to` is within the radius of the point it was found for.
  struct Link: Equatable {
    var to: Int64
    var meters: Double
  }

  /// The positions were packed too densely to search within the comparison budget.
  struct TooDense: Error, Equatable {
    /// How many distinct positions there were.
    var positions: Int
  }

  /// A distinct position and the points (indexes into the points given) at it, in input order.
  private struct Position {
    var coordinate: Coordinate
    var members: [Int32]
  }

  /// At most this many links per point.
  static let maxLinksPerPoint = 200
  /// At most this many links from a point to the points sharing its position.
  static let maxColocatedLinks = 16
  /// At most this many links from a point with more than `maxLinksPerPoint` other positions
  /// within the radius: a cluster denser than any real feed's (the densest in shared/data has
  /// 160), where 200 links per stop would make the footpaths, not the stops, the feed's size
  /// (10,000 distinct stops within 400 m: 2 million links, 6 s of CPU writing them).
  static let maxLinksInDenseCluster = 32
  /// At most this many links in all.
  static let maxLinksTotal = 8_000_000
  /// At most this many distance checks in all the searches together: 200 million, or 2,000
  /// per point for larger feeds (a search checks a few hundred).
  static func maxComparisons(points: Int) -> Int { max(200_000_000, 2_000 * points) }

  let radiusMeters: Double
  /// The chord (on the unit sphere) of `radiusMeters`, slightly widened, squared.
  private let chordLimit: Double
  /// The comparison budget, when not `maxComparisons` (tests).
  private let comparisonBudget: Int?

  /// - Parameter comparisonBudget: the distance checks allowed in all; nil: `maxComparisons`.
  init(radiusMeters: Double, comparisonBudget: Int? = nil) {
    precondition(radiusMeters >= 1 && radiusMeters <= 1_000_000, "footpath radius \(radiusMeters) m out of range")
    self.radiusMeters = radiusMeters
    self.comparisonBudget = comparisonBudget
    let angle = radiusMeters / 6_371_008.8  // the mean Earth radius of Coordinate.distanceMeters
    // The chord of the angle, widened by a part in a thousand against rounding: the exact
    // haversine decides, the chord only keeps what it cannot reach.
    let chord = 2 * sin(angle / 2) * 1.001
    chordLimit = chord * chord
  }

  /// Calls `body` once per point (in the order given) with its nearest other points within the
  /// radius (at most `maxLinksPerPoint`, fewer when `maxLinksTotal` needs it; nearest first,
  /// ties by key), sorted by key. Points sharing a key are distinct points.
  /// - Throws: `TooDense` when the comparison budget runs out (possibly after calls to `body`:
  ///   the caller's work is to be dropped whole); the errors of `body`.
  func forEachPoint(of points: [Point], _ body: (Point, [Link]) throws -> Void) throws {
    // Fold the points that share a position.
    var positions: [Position] = []
    var positionOf = [Int32](repeating: 0, count: points.count)
    var byCoordinate: [Coordinate: Int32] = [:]
    for (index, point) in points.enumerated() {
      if let known = byCoordinate[point.coordinate] {
        positions[Int(known)].members.append(Int32(index))
        positionOf[index] = known
      } else {
        let id = Int32(positions.count)
        byCoordinate[point.coordinate] = id
        positions.append(Position(coordinate: point.coordinate, members: [Int32(index)]))
        positionOf[index] = id
      }
    }
    byCoordinate = [:]
    let tree = Tree(vectors: positions.map { Self.unitVector($0.coordinate) })
    var budget = comparisonBudget ?? Self.maxComparisons(points: points.count)

    let perPoint = min(Self.maxLinksPerPoint, max(Self.maxColocatedLinks, Self.maxLinksTotal / max(1, points.count)))
    // The nearest other positions of a position within the radius, nearest first (ties by
    // position): kept while more of its points are to come.
    var kept: [Int32: [(position: Int32, meters: Double)]] = [:]
    func nearest(_ id: Int32) throws -> [(position: Int32, meters: Double)] {
      if let known = kept[id] { return known }
      // One more than the cap, to see whether the position is in a denser cluster than it.
      let found = tree.nearest(
        to: Int(id), count: max(perPoint, Self.maxLinksPerPoint) + 1, chordLimit: chordLimit, budget: &budget)
      if budget < 0 { throw TooDense(positions: positions.count) }
      // Each position holds at least one point: `perPoint` positions are always enough.
      var within: [(position: Int32, meters: Double)] = []
      within.reserveCapacity(found.count)
      let here = positions[Int(id)].coordinate
      for other in found {
        let meters = here.distanceMeters(to: positions[Int(other)].coordinate)
        if meters <= radiusMeters { within.append((other, meters)) }
      }
      within.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $0.position < $1.position }
      let keep = within.count > Self.maxLinksPerPoint ? min(perPoint, Self.maxLinksInDenseCluster) : perPoint
      if within.count > keep { within.removeLast(within.count - keep) }
      if positions[Int(id)].members.count > 1 { kept[id] = within }
      return within
    }

    var links: [Link] = []
    // Which member of its position each point is (members are in input order).
    var rank = [Int32](repeating: 0, count: positions.count)
    for (index, point) in points.enumerated() {
      links.removeAll(keepingCapacity: true)
      let id = positionOf[index]
      let position = positions[Int(id)]
      let at = Int(rank[Int(id)])
      rank[Int(id)] += 1
      if position.members.count > 1 {
        // The points sharing the position: the next ones round the group.
        let mates = position.members
        for step in 1..<min(mates.count, min(Self.maxColocatedLinks, perPoint) + 1) {
          links.append(Link(to: points[Int(mates[(at + step) % mates.count])].key, meters: 0))
        }
      }
      fill: for (other, meters) in try nearest(id) {
        for member in positions[Int(other)].members {
          if links.count >= perPoint { break fill }
          links.append(Link(to: points[Int(member)].key, meters: meters))
        }
      }
      if at + 1 == position.members.count { kept[id] = nil }
      links.sort { $0.to < $1.to }
      try body(point, links)
    }
  }

  private static func unitVector(_ coordinate: Coordinate) -> SIMD3<Double> {
    let latitude = coordinate.latitude * .pi / 180, longitude = coordinate.longitude * .pi / 180
    return SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
  }
}

// MARK: - The k-d tree

extension FootpathFinder {
  /// A k-d tree over unit vectors: the vectors reordered so that every node's are one range,
  /// each inner node split at the median of its widest axis.
  struct Tree {
    /// The vectors, in tree order.
    private var vectors: [SIMD3<Double>] = []
    /// The id (index in the vectors given) of each vector in tree order.
    private var ids: [Int32] = []
    /// Where each id sits in tree order.
    private var slot: [Int32] = []
    private var nodes: [Node] = []

    /// A range of the tree order; an inner node also its split (axis, value) and children.
    private struct Node {
      var lower: Int32, upper: Int32
      var axis: Int8 = -1
      var split = 0.0
      var left: Int32 = -1, right: Int32 = -1
    }

    /// At most this many vectors in a leaf.
    private static let leafSize = 8

    /// - Complexity: O(n log n).
    init(vectors given: [SIMD3<Double>]) {
      vectors = given
      ids = (0..<Int32(given.count)).map { $0 }
      nodes.reserveCapacity(max(1, 2 * given.count / Self.leafSize + 1))
      if !given.isEmpty { _ = build(0, given.count) }
      slot = [Int32](repeating: 0, count: given.count)
      for (at, id) in ids.enumerated() { slot[Int(id)] = Int32(at) }
    }

    /// Builds the node over `lower..<upper` of the tree order; returns its index.
    private mutating func build(_ lower: Int, _ upper: Int) -> Int32 {
      let index = Int32(nodes.count)
      nodes.append(Node(lower: Int32(lower), upper: Int32(upper)))
      guard upper - lower > Self.leafSize else { return index }
      var low = vectors[lower], high = vectors[lower]
      for at in lower..<upper {
        low = pointwiseMin(low, vectors[at])
        high = pointwiseMax(high, vectors[at])
      }
      let extent = high - low
      let axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2)
      guard extent[axis] > 0 else { return index }  // all at one point: a leaf (never, once folded)
      let middle = (lower + upper) / 2
      select(middle, in: lower, upper, axis: axis)
      nodes[Int(index)].axis = Int8(axis)
      nodes[Int(index)].split = vectors[middle][axis]
      let left = build(lower, middle)
      let right = build(middle, upper)
      nodes[Int(index)].left = left
      nodes[Int(index)].right = right
      return index
    }

    /// Reorders `lower..<upper` so that the vector at `k` is the one a sort on `axis` would put
    /// there, those before it no greater and those after no smaller (Hoare's selection).
    /// - Complexity: O(upper - lower) expected.
    private mutating func select(_ k: Int, in lower: Int, _ upper: Int, axis: Int) {
      var low = lower, high = upper - 1
      while low < high {
        // The median of three as the pivot.
        let mid = (low + high) / 2
        let a = vectors[low][axis], b = vectors[mid][axis], c = vectors[high][axis]
        let pivot = max(min(a, b), min(max(a, b), c))
        var i = low, j = high
        while i <= j {
          while vectors[i][axis] < pivot { i += 1 }
          while vectors[j][axis] > pivot { j -= 1 }
          if i <= j {
            vectors.swapAt(i, j)
            ids.swapAt(i, j)
            i += 1
            j -= 1
          }
        }
        if k <= j {
          high = j
        } else if k >= i {
          low = i
        } else {
          return
        }
      }
    }

    /// The ids of at most `count` other vectors nearest to vector `id` whose squared chord is at
    /// most `chordLimit` (ties by id), in no order. Each distance check spends one of `budget`;
    /// the search stops when it is spent (and `budget` is then negative).
    func nearest(to id: Int, count: Int, chordLimit: Double, budget: inout Int) -> [Int32] {
      guard count > 0, !nodes.isEmpty else { return [] }
      let query = vectors[Int(slot[id])]
      var heap = CandidateHeap(capacity: count)
      // Nodes to visit, each with the squared distance to the plane that set it apart.
      var stack: [(node: Int32, gap: Double)] = [(0, 0)]
      var bound = chordLimit
      while let (node, reach) = stack.popLast() {
        // `bound` may have shrunk since the node was set aside.
        guard reach <= bound else { continue }
        let n = nodes[Int(node)]
        if n.axis < 0 {
          budget -= Int(n.upper - n.lower)
          if budget < 0 { return [] }
          for at in Int(n.lower)..<Int(n.upper) where ids[at] != Int32(id) {
            let d = vectors[at] - query
            let chord = (d * d).sum()
            guard chord <= bound else { continue }
            if heap.offer(chord: chord, id: ids[at]), heap.isFull { bound = min(chordLimit, heap.farthest) }
          }
          continue
        }
        // The far side only when the splitting plane is within reach; the near side searched first.
        let gap = query[Int(n.axis)] - n.split
        let (near, far) = gap < 0 ? (n.left, n.right) : (n.right, n.left)
        if gap * gap <= bound { stack.append((far, gap * gap)) }
        stack.append((near, reach))
      }
      return heap.ids
    }
  }

  /// A max-heap of at most `capacity` candidates by (chord, id): the farthest on top.
  struct CandidateHeap {
    private var chords: [Double] = []
    private var members: [Int32] = []
    let capacity: Int

    init(capacity: Int) {
      self.capacity = capacity
      chords.reserveCapacity(capacity)
      members.reserveCapacity(capacity)
    }

    var isFull: Bool { chords.count >= capacity }
    /// The farthest candidate's squared chord (the heap is not empty).
    var farthest: Double { chords[0] }
    var ids: [Int32] { members }

    private func isAbove(_ a: Int, _ b: Int) -> Bool {
      chords[a] != chords[b] ? chords[a] > chords[b] : members[a] > members[b]
    }

    /// Keeps the candidate if there is room or it is nearer than the farthest (replacing it);
    /// returns whether it was kept.
    /// - Complexity: O(log capacity).
    mutating func offer(chord: Double, id: Int32) -> Bool {
      if chords.count < capacity {
        chords.append(chord)
        members.append(id)
        var child = chords.count - 1
        while child > 0 {
          let parent = (child - 1) / 2
          guard isAbove(child, parent) else { break }
          chords.swapAt(child, parent)
          members.swapAt(child, parent)
          child = parent
        }
        return true
      }
      guard chord < chords[0] || (chord == chords[0] && id < members[0]) else { return false }
      chords[0] = chord
      members[0] = id
      var parent = 0
      while true {
        let left = 2 * parent + 1, right = left + 1
        var top = parent
        if left < chords.count && isAbove(left, top) { top = left }
        if right < chords.count && isAbove(right, top) { top = right }
        if top == parent { break }
        chords.swapAt(top, parent)
        members.swapAt(top, parent)
        parent = top
      }
      return true
    }
  }
}
