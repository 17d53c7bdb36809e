import Services
import Testing

@Suite struct ReingestDecisionTests {
  @Test func conditionalOnlyForTheHeldURL() {
    #expect(ReingestDecision.isConditional(ifChanged: true, heldSourceURL: "https://a/gtfs.zip", url: "https://a/gtfs.zip"))
    #expect(!ReingestDecision.isConditional(ifChanged: false, heldSourceURL: "https://a/gtfs.zip", url: "https://a/gtfs.zip"))
    #expect(!ReingestDecision.isConditional(ifChanged: true, heldSourceURL: "https://b/gtfs.zip", url: "https://a/gtfs.zip"))
    #expect(!ReingestDecision.isConditional(ifChanged: true, heldSourceURL: nil, url: "https://a/gtfs.zip"))
  }

  @Test func decisions() {
    let hash = String(repeating: "ab", count: 32)
    #expect(ReingestDecision.decide(ifChanged: true, notModified: true, heldSHA256: nil, sha256: nil) == .notModified)
    #expect(ReingestDecision.decide(ifChanged: true, heldSHA256: hash, sha256: hash) == .sameContent(sha256: hash))
    #expect(ReingestDecision.decide(ifChanged: false, heldSHA256: hash, sha256: hash) == .ingest)
    #expect(ReingestDecision.decide(ifChanged: true, heldSHA256: "00", sha256: hash) == .ingest)
    #expect(ReingestDecision.decide(ifChanged: true, heldSHA256: nil, sha256: hash) == .ingest)
    #expect(ReingestDecision.sameContent(sha256: hash).reason == "same content, sha256 abababababab")
    #expect(ReingestDecision.ingest.reason == nil)
  }
}
