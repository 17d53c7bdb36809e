import Foundation
import Testing

@testable import UserData

/// `UserStore`'s seen alerts: by feed, id and content.
@Suite struct SeenAlertsTests {
  static func folder() -> String {
    let path = NSTemporaryDirectory() + "transit-seen-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func remembersByIDAndContent() throws {
    let path = Self.folder()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try UserStore(directory: path)
    #expect(try store.seenAlerts(feed: "demo").isEmpty)
    let first = UserStore.SeenAlertKey(alertID: "a1", contentHash: "1111")
    let other = UserStore.SeenAlertKey(alertID: "a2", contentHash: "2222")
    try store.markAlertsSeen([first, other], feed: "demo", now: 100)
    #expect(try store.seenAlerts(feed: "demo") == [first, other])
    #expect(try store.seenAlerts(feed: "other").isEmpty)
    // An edited alert: same id, new content. Seeing it replaces the old content.
    let edited = UserStore.SeenAlertKey(alertID: "a1", contentHash: "3333")
    #expect(try !store.seenAlerts(feed: "demo").contains(edited))
    try store.markAlertsSeen([edited], feed: "demo", now: 200)
    #expect(try store.seenAlerts(feed: "demo") == [edited, other])
    try store.markAlertsSeen([], feed: "demo", now: 300)
    // Kept across openings.
    #expect(try UserStore(directory: path).seenAlerts(feed: "demo") == [edited, other])
  }
}
