import Foundation
import TestSupport
import Testing

/// The executable loads FoundationEssentials only (issue 24), so time zones come from our own
/// tz database reader (`LocalZone`), never from Foundation's `TimeZone`, which without ICU knows
/// only UTC. In-process tests cannot see the difference (the test process loads Foundation and
/// its ICU), so these run the built executable and read the sources.
@Suite struct FoundationFreeTests {
  /// Feeds in three zones ingest and answer through the real executable, with local times.
  @Test(.enabled(if: transitExecutable != nil, "needs the built transit executable"))
  func theExecutableIngestsFeedsOutsideUTC() throws {
    let home = TemporaryFolder()
    let demo = try runExecutable(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet", "--data-dir", home.path])
    #expect(demo.code == 0, "\(demo.stderr)")
    // 07:40Z in December is 07:40 in Dublin (GMT); the first 27 picking up at TINT after it is
    // 27-WK-1-0750 at 07:50 (Data/gtfs/stop_times.txt), shown on the agency's clock. A zone read
    // as UTC would say the same in winter, so the summer case below matters too.
    let board = try runExecutable([
      "departures", "TINT", "--route", "27", "--limit", "1", "--now", "2026-12-01T07:40:00Z", "--data-dir", home.path,
    ])
    #expect(board.code == 0, "\(board.stderr)")
    #expect(board.stdout.contains("platform A  07:50 · 10 min"), "\(board.stdout)")
    // 2026-06-02 06:40Z is 07:40 in Dublin (IST, UTC+1): again the 07:50, 10 minutes away.
    let summer = try runExecutable([
      "departures", "TINT", "--route", "27", "--limit", "1", "--now", "2026-06-02T06:40:00Z", "--data-dir", home.path,
    ])
    #expect(summer.stdout.contains("platform A  07:50 · 10 min"), "\(summer.stdout) \(summer.stderr)")
    for file in ["kcm-vp-subset-2021.zip", "hart-2020.zip"] {
      guard let zip = SharedData.path("static/" + file) else { continue }
      let folder = TemporaryFolder()
      let result = try runExecutable(["ingest", zip, "--quiet", "--data-dir", folder.path])
      #expect(result.code == 0, "\(file): \(result.stderr)")
    }
  }

  /// No library or executable source imports Foundation (or its ICU part) or names `TimeZone`.
  @Test func noSourceImportsFullFoundation() throws {
    let sources = packageRoot + "/Sources"
    let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    #expect(files.count > 50)
    for file in files {
      let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
      for line in text.split(separator: "\n") {
        let trimmed = line.drop { $0 == " " }
        #expect(trimmed != "import Foundation" && trimmed != "import FoundationInternationalization", "\(file): \(line)")
        if !trimmed.hasPrefix("//") { #expect(!line.contains("TimeZone("), "\(file): \(line)") }
      }
    }
  }
}
