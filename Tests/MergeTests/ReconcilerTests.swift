import Testing

@testable import Merge

@Suite struct ReconcilerTests {}
