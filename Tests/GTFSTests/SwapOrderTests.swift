import Foundation
import Testing

@testable import GTFS

/// Issue 38: a kill between unlinking `.prev` and linking the new one left no rollback copy
/// (20 of 300 random kills). The swap now links the new copy before the old one goes: at every
/// step of it a `.prev` exists, and the timetable's own name never stops existing.
@Suite struct SwapOrderTests {
  static func text(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func aRollbackCopyExistsAtEveryStep() throws {
    let directory = TestDirectory()
    let current = directory.path + "/demo.sqlite", building = directory.path + "/demo.sqlite.new"
    for (path, text) in [(current, "old"), (current + ".prev", "older"), (building, "new")] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }
    var steps: [String] = []
    try Timetables.swap(building, into: current) { step in
      steps.append(step)
      #expect(Self.text(current + ".prev") != nil, "no rollback copy after '\(step)'")
      #expect(Self.text(current) != nil, "no timetable after '\(step)'")
    }
    #expect(steps == ["linked", "kept", "swapped"])
    #expect(Self.text(current) == "new")
    #expect(Self.text(current + ".prev") == "old")
    #expect(!FileManager.default.fileExists(atPath: current + ".prev.new"))
    #expect(!FileManager.default.fileExists(atPath: building))
  }

  @Test func aFirstSwapNeedsNoRollbackCopy() throws {
    let directory = TestDirectory()
    let current = directory.path + "/demo.sqlite", building = directory.path + "/demo.sqlite.new"
    #expect(FileManager.default.createFile(atPath: building, contents: Data("new".utf8)))
    try Timetables.swap(building, into: current)
    #expect(Self.text(current) == "new")
    #expect(!FileManager.default.fileExists(atPath: current + ".prev"))
  }
}
