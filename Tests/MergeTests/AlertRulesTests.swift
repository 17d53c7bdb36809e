import Foundation
import GTFSRealtime
import TestSupport
import Testing
import TransitModel

@testable import Merge

/// Alert matching, periods, languages, HTML, severity and route status on hand-built alerts.
@Suite struct AlertRulesTests {
  typealias B = Build

  static func alert(_ selectors: [EntitySelector], periods: [TimeRange] = [], effect: Alert.Effect? = .detour) -> Alert {
    Alert(activePeriods: periods, informedEntities: selectors, effect: effect)
  }

  /// What `alerts --route R1` asks: route R1 (a bus of agency TDT), stops and trips open.
  let routeQuery = AlertScope(agencyIDs: ["TDT"], routeIDs: ["R1"], routeTypes: [3], stopIDs: nil, tripIDs: nil)
  /// What `alerts --stop TINT-A` asks: the platform, its station and sibling-free; routes there.
  let stopQuery = AlertScope(agencyIDs: ["TDT"], routeIDs: ["R1", "R2"], routeTypes: [3], stopIDs: ["TINT-A", "TINT"], tripIDs: nil)

  // MARK: - Selector kinds

  @Test(
    "each selector kind against a route query",
    arguments: [
      (EntitySelector(agencyID: "TDT"), true),
      (EntitySelector(agencyID: "OTHER"), false),
      (EntitySelector(routeID: "R1"), true),
      (EntitySelector(routeID: "R2"), false),
      (EntitySelector(routeType: 3), true),
      (EntitySelector(routeType: 700), true),  // extended "bus service" is the same mode
      (EntitySelector(routeType: 0), false),
      (EntitySelector(trip: TripDescriptor(tripID: "T1")), true),  // T1 runs on R1 (tripRoutes)
      (EntitySelector(trip: TripDescriptor(tripID: "T9")), false),  // route unknown: nothing to match
      (EntitySelector(trip: TripDescriptor(routeID: "R1", directionID: 0)), true),
      (EntitySelector(stopID: "TINT-A"), false),  // a stop alone does not inform a route
      (EntitySelector(), false),
    ])
  func selectorKinds(selector: EntitySelector, informs: Bool) {
    var scope = routeQuery
    scope.tripRoutes = [TripID("T1"): RouteID("R1"), TripID("T2"): RouteID("R2")]
    #expect(AlertMatcher.informs(selector, scope) == informs)
  }

  @Test func stopSelectorsMatchTheStationAndItsPlatforms() {
    // Asking about the station TINT (its platforms in the scope) or the platform TINT-A (its
    // station in the scope): a selector naming either informs.
    let station = AlertScope(routeIDs: nil, routeTypes: nil, stopIDs: ["TINT", "TINT-A", "TINT-B"], tripIDs: nil)
    let platform = AlertScope(routeIDs: nil, routeTypes: nil, stopIDs: ["TINT-A", "TINT"], tripIDs: nil)
    for scope in [station, platform] {
      #expect(AlertMatcher.informs(EntitySelector(stopID: "TINT"), scope))
      #expect(AlertMatcher.informs(EntitySelector(stopID: "TINT-A"), scope))
      #expect(!AlertMatcher.informs(EntitySelector(stopID: "TD4530"), scope))
    }
    #expect(!AlertMatcher.informs(EntitySelector(stopID: "TINT-B"), platform))
  }

  @Test func andWithinASelector() {
    // Route R1 at stop TINT-A: both must hold.
    #expect(AlertMatcher.informs(EntitySelector(routeID: "R1", stopID: "TINT-A"), stopQuery))
    #expect(!AlertMatcher.informs(EntitySelector(routeID: "R1", stopID: "TD4530"), stopQuery))
    #expect(!AlertMatcher.informs(EntitySelector(routeID: "R3", stopID: "TINT-A"), stopQuery))
    #expect(!AlertMatcher.informs(EntitySelector(agencyID: "OTHER", routeID: "R1"), stopQuery))
    #expect(!AlertMatcher.informs(EntitySelector(routeType: 0, stopID: "TINT"), stopQuery))
    // A route query leaves stops open: route R1 at some stop still informs route R1.
    #expect(AlertMatcher.informs(EntitySelector(routeID: "R1", stopID: "TD4530"), routeQuery))
    #expect(!AlertMatcher.informs(EntitySelector(routeID: "R2", stopID: "TD4530"), routeQuery))
  }

  @Test func orAcrossSelectors() {
    let either = Self.alert([EntitySelector(routeID: "R9"), EntitySelector(stopID: "TINT")])
    #expect(AlertMatcher.informs(either, stopQuery))
    #expect(!AlertMatcher.informs(either, routeQuery))
    let neither = Self.alert([EntitySelector(routeID: "R9"), EntitySelector(stopID: "TD4530")])
    #expect(!AlertMatcher.informs(neither, stopQuery))
    #expect(!AlertMatcher.informs(Self.alert([]), stopQuery))
  }

  @Test func tripQueriesMatchTheTripAndItsRoute() {
    let trip = AlertScope(agencyIDs: ["TDT"], routeIDs: ["R1"], routeTypes: [3], stopIDs: nil, tripIDs: ["T1"])
    #expect(AlertMatcher.informs(EntitySelector(trip: TripDescriptor(tripID: "T1")), trip))
    #expect(!AlertMatcher.informs(EntitySelector(trip: TripDescriptor(tripID: "T2")), trip))
    #expect(AlertMatcher.informs(EntitySelector(routeID: "R1"), trip))
    #expect(!AlertMatcher.informs(EntitySelector(stopID: "TINT"), trip))
  }

  // MARK: - Periods

  @Test func periods() {
    let now = UInt64(B.now.seconds)
    func timing(_ periods: [TimeRange]) -> AlertTiming { AlertMatcher.timing(of: Self.alert([], periods: periods), at: B.now) }
    #expect(timing([]) == .active)  // no period: always
    #expect(timing([TimeRange(end: now + 60)]) == .active)  // open start
    #expect(timing([TimeRange(start: now - 60)]) == .active)  // open end
    #expect(timing([TimeRange(start: now - 3600, end: now)]) == .active)  // the end itself still counts
    #expect(timing([TimeRange(start: now - 3600, end: now - 1)]) == .ended)  // just expired
    #expect(timing([TimeRange(start: now + 1)]) == .upcoming(start: B.now + 1))
    #expect(
      timing([TimeRange(start: now - 7200, end: now - 3600), TimeRange(start: now + 600, end: now + 900)]) == .upcoming(start: B.now + 600))
    #expect(timing([TimeRange(start: now - 7200, end: now - 3600), TimeRange(start: now - 60)]) == .active)
  }

  // MARK: - Languages

  static let multilingual = TranslatedString(translations: [
    .init(text: "Detour", language: "en"), .init(text: "Déviation", language: "fr-CA"), .init(text: "Umleitung", language: "de"),
  ])

  @Test(
    "translation chosen",
    arguments: [
      ("fr-CA", "Déviation"), ("fr", "Déviation"), ("fr_FR", "Déviation"), ("FR-ca", "Déviation"), ("en-US", "Detour"),
      ("de", "Umleitung"), ("es", "Detour"),
    ])
  func translations(language: String, expected: String) {
    #expect(AlertText.translation(Self.multilingual, language: language) == expected)
  }

  @Test func untranslatedTextWhenNoLanguageMatches() {
    let mixed = TranslatedString(translations: [.init(text: "Umleitung", language: "de"), .init(text: "Detour")])
    #expect(AlertText.translation(mixed, language: "es") == "Detour")
    #expect(AlertText.translation(mixed, language: nil) == "Detour")
    #expect(AlertText.translation(mixed, language: "de") == "Umleitung")
    #expect(
      AlertText.translation(TranslatedString(translations: [.init(text: "Umleitung", language: "de")]), language: "en") == "Umleitung")
    #expect(AlertText.translation(TranslatedString(), language: "en") == nil)
    #expect(AlertText.translation(nil, language: "en") == nil)
  }

  // MARK: - HTML

  @Test(
    "HTML made plain",
    arguments: [
      ("<p>Route 27 <b>diverted</b></p><p>Use stop 4530.</p>", "Route 27 diverted\n\nUse stop 4530."),
      ("Line one<br>Line two<br/>Line three<BR />end", "Line one\nLine two\nLine three\nend"),
      ("Stops:<ul><li>Main St</li><li>Oak &amp; Elm</li></ul>", "Stops:\n\n- Main St\n- Oak & Elm"),
      ("caf&eacute; &lt;closed&gt; &#8211; &#x2019;til 5&nbsp;pm", "café <closed> – ’til 5 pm"),
      ("<a href=\"https://x.org/a?b=1&amp;c=2\">details</a>", "details"),
      ("<div>\n  spaced   \n  out\n</div>", "spaced out"),
      ("<style>p { color: red }</style>Text<!-- note -->", "Text"),
      ("a < b and c > d, Stop & Shop, P&R", "a < b and c > d, Stop & Shop, P&R"),
      ("Plain\r\nlines\r\n\r\n\r\nkept\n", "Plain\nlines\n\nkept"),
      ("unknown &bogus; stays", "unknown &bogus; stays"),
      ("kept <!-- never closed", "kept"),
      ("<b>bold</b> <!x <i>it</i>", "bold <!x it"),
    ])
  func htmlToText(html: String, text: String) {
    #expect(AlertText.plain(html) == text)
  }

  @Test func largeHostileTextStaysFast() {
    // Many unterminated constructs: each is looked at once, not to the end of the text.
    let text = String(repeating: "<!x <a \"b <!-- ", count: 20_000)
    let start = ContinuousClock.now
    _ = AlertText.plain(text)
    #expect(ContinuousClock.now - start < .seconds(5))
  }

  // MARK: - Severity and status

  @Test(
    "status colour for every effect",
    arguments: [
      (Alert.Effect.noService, RouteStatus.red), (.significantDelays, .red), (.reducedService, .yellow), (.detour, .yellow),
      (.additionalService, .yellow), (.modifiedService, .yellow), (.otherEffect, .yellow), (.unknownEffect, .yellow),
      (.stopMoved, .yellow), (.noEffect, .green), (.accessibilityIssue, .yellow), (.unrecognized(42), .yellow),
    ])
  func statusColour(effect: Alert.Effect, status: RouteStatus) {
    #expect(RouteStatus(effect: effect) == status)
  }

  @Test func unsetEffectIsYellow() {
    #expect(RouteStatus(effect: nil) == .yellow)
  }

  @Test func mostSevereFirst() {
    let items = [
      IdentifiedAlert(id: "info-detour", alert: Alert(effect: .detour, severityLevel: .info)),
      IdentifiedAlert(id: "no-service", alert: Alert(effect: .noService)),
      IdentifiedAlert(id: "detour", alert: Alert(effect: .detour)),
      IdentifiedAlert(id: "severe-other", alert: Alert(effect: .otherEffect, severityLevel: .severe)),
      IdentifiedAlert(id: "no-effect", alert: Alert(effect: .noEffect)),
      IdentifiedAlert(id: "delays", alert: Alert(effect: .significantDelays)),
    ]
    #expect(AlertSeverity.sorted(items).map(\.id) == ["no-service", "delays", "severe-other", "detour", "info-detour", "no-effect"])
    let status = AlertSeverity.status(of: items)
    #expect(status.status == .red)
    #expect(status.reasons.map(\.id) == ["no-service", "delays"])
    #expect(AlertSeverity.status(of: []).status == .green)
    #expect(AlertSeverity.status(of: [IdentifiedAlert(id: "n", alert: Alert(effect: .noEffect))]).status == .green)
  }

  // MARK: - Fingerprints

  @Test func editedAlertsHaveANewHashAndSameContentTheSame() {
    let original = Alert(
      informedEntities: [EntitySelector(routeID: "R1")], effect: .detour,
      headerText: TranslatedString(translations: [.init(text: "Detour", language: "en")]))
    var edited = original
    edited.headerText = TranslatedString(translations: [.init(text: "Detour extended", language: "en")])
    var moved = original
    moved.activePeriods = [TimeRange(start: 1)]
    let hash = AlertFingerprint.hash(original)
    #expect(hash.count == 16)
    #expect(hash == AlertFingerprint.hash(original))
    #expect(hash != AlertFingerprint.hash(edited))
    #expect(hash != AlertFingerprint.hash(moved))
    // Fixed across runs and platforms (FNV-1a, not Swift's seeded Hasher).
    #expect(AlertFingerprint.hash(Alert()) == AlertFingerprint.hash(Alert()))
    #expect(IdentifiedAlert(id: nil, alert: original).id == hash)
    #expect(IdentifiedAlert(id: "a1", alert: edited).contentHash != IdentifiedAlert(id: "a1", alert: original).contentHash)
  }

  @Test func deletedEntitiesAndRepeatedIdsAreLeftOut() {
    let feed = FeedMessage(entities: [
      FeedEntity(id: "a", alert: Alert(effect: .detour)),
      FeedEntity(id: "b", isDeleted: true, alert: Alert(effect: .noService)),
      FeedEntity(id: "a", alert: Alert(effect: .noService)),
      FeedEntity(id: "v", vehicle: VehiclePosition()),
    ])
    let items = IdentifiedAlert.alerts(in: [feed])
    #expect(items.map(\.id) == ["a"])
    #expect(items.first?.alert.effect == .detour)
  }
}

/// The real alert captures in shared/data/rt, against PROVENANCE.md's figures.
@Suite struct RealAlertCaptureTests {
  static func load(_ name: String) throws -> FeedMessage? {
    guard let path = SharedData.path("rt/" + name), let data = FileManager.default.contents(atPath: path) else { return nil }
    return try FeedMessage(decoding: [UInt8](data))
  }

  @Test(.enabled(if: SharedData.path("rt/bart-alerts-20190807T174542Z.pb") != nil))
  func bartAgencyWideDelay() throws {
    let feed = try #require(try Self.load("bart-alerts-20190807T174542Z.pb"))
    let alerts = IdentifiedAlert.alerts(in: [feed])
    #expect(alerts.map(\.id) == ["BSA_187874"])
    let alert = try #require(alerts.first).alert
    #expect(alert.cause == .medicalEmergency)
    #expect(alert.effect == .significantDelays)
    #expect(alert.informedEntities == [EntitySelector(agencyID: "BART")])
    #expect(alert.activePeriods.isEmpty)
    // No period: in force whenever it is in the feed.
    #expect(AlertMatcher.isActive(alert, at: UnixTime(1_565_199_942)))
    let notice = AlertMatcher.notice(alerts[0], language: "en")
    #expect(notice.url == "http://www.bart.gov/schedules/advisories")
    // Two spaces and a trailing space in the feed's header are tidied.
    #expect(
      notice.header
        == "There is a major delay at Montgomery St. on the San Francisco Line in the SFO, Millbrae, Daly City and East Bay directions due to a major medical emergency. Montgomery station is currently closed. Trains are not stopping at Montgomery station."
    )
    // Agency-wide: every BART route is red; another agency's route is not informed.
    let route = AlertScope(agencyIDs: ["BART"], routeIDs: ["01"], routeTypes: [1], stopIDs: nil, tripIDs: nil)
    #expect(AlertMatcher.informs(alert, route))
    #expect(AlertSeverity.status(of: alerts).status == .red)
    #expect(!AlertMatcher.informs(alert, AlertScope(agencyIDs: ["AC"], routeIDs: ["51B"], routeTypes: [3], stopIDs: nil, tripIDs: nil)))
  }

  @Test(.enabled(if: SharedData.path("rt/puget-sound-alerts-20181012T133631Z.pb") != nil))
  func pugetSoundAgencyLevelAlerts() throws {
    let feed = try #require(try Self.load("puget-sound-alerts-20181012T133631Z.pb"))
    let alerts = IdentifiedAlert.alerts(in: [feed])
    #expect(alerts.count == 20)
    #expect(alerts.first?.id == "AlertFeedItem_4561")
    let selectors = alerts.flatMap(\.alert.informedEntities)
    #expect(Set(selectors.compactMap(\.agencyID)) == ["40", "1"])
    #expect(selectors.allSatisfy { $0.routeID == nil && $0.stopID == nil && $0.trip == nil && $0.routeType == nil })
    #expect(alerts.allSatisfy { !$0.alert.activePeriods.isEmpty && $0.alert.url != nil && $0.alert.headerText != nil })
    let soundTransit = AlertScope(agencyIDs: ["40"], routeIDs: ["100479"], routeTypes: [2], stopIDs: nil, tripIDs: nil)
    let informed = alerts.filter { AlertMatcher.informs($0.alert, soundTransit) }
    #expect(!informed.isEmpty && informed.count < 20)
    #expect(informed.first?.id == "AlertFeedItem_4561")
    // Real texts: non-breaking spaces, tabs and doubled spaces become single spaces; "&" stays.
    let texts = alerts.flatMap { [$0.alert.headerText, $0.alert.descriptionText] }.compactMap {
      AlertText.translation($0, language: "en")
    }
    for text in texts.map(AlertText.plain) {
      #expect(!text.contains("\u{A0}") && !text.contains("\t") && !text.contains("  ") && !text.contains("\r"))
    }
    let header = AlertText.plain(try #require(AlertText.translation(alerts[0].alert.headerText, language: "en")))
    #expect(header == "Sounder Lakewood-Seattle - Delay - #1514 (7:20 am TAC dep) 20 minutes at Auburn Station due to a medical emergency")
    #expect(texts.map(AlertText.plain).contains { $0.contains("577 & 578 - Delay") })
  }

  @Test(.enabled(if: SharedData.path("rt/mbta-alerts-20171223T130019Z.pb") != nil))
  func mbtaRichSelectors() throws {
    let feed = try #require(try Self.load("mbta-alerts-20171223T130019Z.pb"))
    let alerts = IdentifiedAlert.alerts(in: [feed])
    #expect(alerts.count == 51)
    #expect(Array(alerts.prefix(3).map(\.id)) == ["105025", "144368", "169844"])
    let selectors = alerts.flatMap(\.alert.informedEntities)
    #expect(Set(selectors.compactMap(\.agencyID)).count == 1)
    #expect(Set(selectors.compactMap(\.routeID)).count == 67)
    #expect(Set(selectors.compactMap(\.stopID)).count == 72)
    #expect(Set(selectors.compactMap { $0.trip?.tripID }).count == 19)
    // Alert 144368: route CR-Haverhill AND stop Bradford, or the same route AND stop Haverhill.
    let haverhill = try #require(alerts.first { $0.id == "144368" }).alert
    let atBradford = AlertScope(agencyIDs: ["1"], routeIDs: ["CR-Haverhill"], routeTypes: [2], stopIDs: ["Bradford"], tripIDs: nil)
    let atOther = AlertScope(agencyIDs: ["1"], routeIDs: ["CR-Haverhill"], routeTypes: [2], stopIDs: ["Lawrence"], tripIDs: nil)
    let otherRoute = AlertScope(agencyIDs: ["1"], routeIDs: ["CR-Lowell"], routeTypes: [2], stopIDs: ["Bradford"], tripIDs: nil)
    #expect(AlertMatcher.informs(haverhill, atBradford))
    #expect(!AlertMatcher.informs(haverhill, atOther))
    #expect(!AlertMatcher.informs(haverhill, otherRoute))
    // Stop-only selectors (an elevator) inform the stop, not a route query.
    let elevator = try #require(alerts.first { $0.id == "105025" }).alert
    #expect(AlertMatcher.informs(elevator, AlertScope(routeIDs: nil, routeTypes: nil, stopIDs: ["70026"], tripIDs: nil)))
    #expect(!AlertMatcher.informs(elevator, AlertScope(routeIDs: ["Green-B"], routeTypes: [0], stopIDs: nil, tripIDs: nil)))
    // CRLF texts become LF, blank lines kept once.
    let detour = try #require(alerts.first { $0.id == "202576" })
    #expect(
      AlertMatcher.notice(detour, language: "en").description
        == "Affected direction: Inbound\n\nBypassed stops:\nDudley St @ Hampden St\nDudley St @ Adams St\nDudley St @ Dearborn St\n\nConnections:\nDudley St @ Magazine St\nDudley St @ Warren St"
    )
    let active = alerts.filter { AlertMatcher.isActive($0.alert, at: UnixTime(1_514_034_019)) }
    #expect(active.count == 36)
  }

  @Test(.enabled(if: SharedData.path("rt/caltrain-alerts-20231108T010546Z-empty.pb") != nil))
  func caltrainEmpty() throws {
    let feed = try #require(try Self.load("caltrain-alerts-20231108T010546Z-empty.pb"))
    #expect(IdentifiedAlert.alerts(in: [feed]).isEmpty)
  }
}

extension AlertRulesTests {
  @Test func anAgencyAloneIsAgencyWideButOnlyNarrowsOtherFields() {
    // A stop asked about without a timetable: agencies unknown (any), routes open.
    let bareStop = AlertScope(agencyIDs: nil, routeIDs: nil, routeTypes: nil, stopIDs: ["70026"], tripIDs: nil)
    #expect(AlertMatcher.informs(EntitySelector(agencyID: "1"), bareStop))
    #expect(!AlertMatcher.informs(EntitySelector(agencyID: "1", routeID: "93", routeType: 3), bareStop))
    #expect(AlertMatcher.informs(EntitySelector(agencyID: "1", stopID: "70026"), bareStop))
    #expect(!AlertMatcher.informs(EntitySelector(agencyID: "1", stopID: "70027"), bareStop))
    // A route query: an agency's alert at one stop is about that stop, not the route.
    #expect(!AlertMatcher.informs(EntitySelector(agencyID: "TDT", stopID: "TINT"), routeQuery))
    #expect(AlertMatcher.informs(EntitySelector(agencyID: "TDT", routeID: "R1"), routeQuery))
  }
}
