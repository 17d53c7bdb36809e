import HostSystem
import Synchronization
import Testing

@testable import Services

/// `handingOff`: a producer on a thread of its own, a bounded queue, a consumer on the caller's.
@Suite struct HandoffTests {
  @Test func everyValueArrivesInOrderAndTheProducerStaysWithinTheBound() {
    // How far the producer got ahead of the consumer, at most.
    let produced = Atomic<Int>(0)
    let furthestAhead = Atomic<Int>(0)
    var received: [Int] = []
    handingOff(capacity: 3) { (_, put: (Int) -> Bool) in
      for value in 0..<1000 {
        produced.store(value + 1, ordering: .sequentiallyConsistent)
        guard put(value) else { return }
      }
    } consume: { next in
      while let value = next() {
        let ahead = produced.load(ordering: .sequentiallyConsistent) - value
        if ahead > furthestAhead.load(ordering: .relaxed) { furthestAhead.store(ahead, ordering: .relaxed) }
        received.append(value)
      }
    }
    #expect(received == Array(0..<1000))
    // The value taken, the three queued and the one the producer is putting (it counted it
    // before waiting for room): never more than five values made and not yet consumed.
    let ahead = furthestAhead.load(ordering: .relaxed)
    #expect(ahead <= 5)
  }

  @Test func aConsumerThatStopsStopsTheProducer() {
    let lastPut = Atomic<Int>(-1)
    let refused = Atomic<Bool>(false)
    var taken: [Int] = []
    handingOff(capacity: 2) { (_, put: (Int) -> Bool) in
      for value in 0..<1_000_000 {
        guard put(value) else {
          refused.store(true, ordering: .sequentiallyConsistent)
          return
        }
        lastPut.store(value, ordering: .sequentiallyConsistent)
      }
    } consume: { next in
      for _ in 0..<10 { taken.append(next()!) }
    }
    // When `handingOff` returns, the producer has returned: it was told to stop, long before
    // a million, and none of what it put after the tenth was consumed.
    #expect(taken == Array(0..<10))
    let wasRefused = refused.load(ordering: .sequentiallyConsistent)
    #expect(wasRefused)
    let last = lastPut.load(ordering: .sequentiallyConsistent)
    #expect(last < 20)
  }

  struct Stop: Error {}

  @Test func whatTheConsumerThrowsComesOutAndTheProducerEnds() {
    let stopped = Atomic<Bool>(false)
    #expect(throws: Stop.self) {
      try handingOff(capacity: 1) { (_, put: (Int) -> Bool) in
        var value = 0
        while put(value) { value += 1 }
        stopped.store(true, ordering: .sequentiallyConsistent)
      } consume: { next in
        while let value = next() { if value == 5 { throw Stop() } }
      }
    }
    let hasStopped = stopped.load(ordering: .sequentiallyConsistent)
    #expect(hasStopped)
  }

  @Test func severalProducersTakeTurnsAndTheSequenceKeepsItsOrder() {
    // Three producers: the first makes 0, 3, 6…, the second 1, 4, 7…, the third 2, 5, 8…,
    // each as the square of its position, so a value out of turn shows.
    var received: [Int] = []
    handingOff(producers: 3, capacity: 2) { (producer, put: (Int) -> Bool) in
      for position in stride(from: producer, to: 1000, by: 3) {
        guard put(position * position) else { return }
      }
    } consume: { next in
      while let value = next() { received.append(value) }
    }
    #expect(received == (0..<1000).map { $0 * $0 })
  }

  @Test func aProducerThatStopsEndsTheSequenceAtItsNextTurn() {
    // The second of two producers stops after three values (positions 1, 3, 5): the sequence
    // ends at position 7, its next turn, though the first could go on.
    var received: [Int] = []
    handingOff(producers: 2, capacity: 4) { (producer, put: (Int) -> Bool) in
      for (turn, position) in stride(from: producer, to: 1000, by: 2).enumerated() {
        if producer == 1 && turn == 3 { return }
        guard put(position) else { return }
      }
    } consume: { next in
      while let value = next() { received.append(value) }
    }
    #expect(received == Array(0..<7))
  }
}
