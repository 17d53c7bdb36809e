import FoundationEssentials
import TransitModel

/// One configured agency: its GTFS ZIP, up to three realtime feeds, request headers and how
/// often its realtime is published.
public struct FeedDefinition: Codable, Equatable, Sendable {
  /// The feed's name; `transit ingest` holds its timetable under it.
  public var name: String
  /// The GTFS ZIP's URL.
  public var gtfs: String?
  /// The GTFS-Realtime trip updates URL.
  public var tripUpdates: String?
  /// The GTFS-Realtime vehicle positions URL.
  public var vehiclePositions: String?
  /// The GTFS-Realtime service alerts URL.
  public var alerts: String?
  /// Request headers as written: values may name environment variables (`$MTA_KEY`).
  public var headers: [HeaderTemplate]
  /// The realtime publish period in seconds, when set by `--poll`.
  public var pollSeconds: Int?

  /// A feed with the given URLs, headers and period.
  public init(
    name: String, gtfs: String? = nil, tripUpdates: String? = nil, vehiclePositions: String? = nil,
    alerts: String? = nil, headers: [HeaderTemplate] = [], pollSeconds: Int? = nil
  ) {
    self.name = name
    self.gtfs = gtfs
    self.tripUpdates = tripUpdates
    self.vehiclePositions = vehiclePositions
    self.alerts = alerts
    self.headers = headers
    self.pollSeconds = pollSeconds
  }

  enum CodingKeys: String, CodingKey {
    case name, gtfs, headers
    case tripUpdates = "trip_updates"
    case vehiclePositions = "vehicle_positions"
    case alerts
    case pollSeconds = "poll_seconds"
  }

  /// The realtime URLs, labelled by kind, in a fixed order.
  public var realtimeURLs: [(kind: String, url: String)] {
    [("trip-updates", tripUpdates), ("vehicle-positions", vehiclePositions), ("alerts", alerts)]
      .compactMap { kind, url in url.map { (kind, $0) } }
  }

  /// The period realtime snapshots stay fresh for (default 30 s).
  public var periodSeconds: Int { pollSeconds ?? Int(PollSchedule.defaultPeriodSeconds) }
}

/// A request header as configured: `x-api-key: $MTA_KEY`.
public struct HeaderTemplate: Codable, Equatable, Sendable {
  /// The header's name.
  public var name: String
  /// The value as written, `$VARIABLES` unexpanded.
  public var value: String

  /// A header template.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }

  /// Parses `Name: value`.
  public static func parse(_ text: String) -> HeaderTemplate? {
    guard let colon = text.firstIndex(of: ":") else { return nil }
    let name = text[..<colon].trimmingSpaces()
    let value = text[text.index(after: colon)...].trimmingSpaces()
    guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else { return nil }
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), !value.isEmpty else { return nil }
    return HeaderTemplate(name: name, value: value)
  }

  /// Whether the value names an environment variable rather than holding the secret itself.
  public var referencesEnvironment: Bool { EnvironmentExpansion.variables(in: value).isEmpty == false }

  /// Whether the value is (or holds) a secret: it names a variable, or the header looks like a
  /// credential. Such values are never printed.
  public var isSecret: Bool { referencesEnvironment || Self.looksSecret(name) }

  /// What `feeds list` shows: the value as written when it only names variables, else masked
  /// for headers that look like credentials.
  public var displayed: String {
    if referencesEnvironment || !Self.looksSecret(name) { return "\(name): \(value)" }
    return "\(name): \(Redactor.mask)"
  }

  static func looksSecret(_ name: String) -> Bool {
    let name = name.lowercased()
    return ["key", "token", "secret", "auth", "password", "cookie", "signature"].contains { name.contains($0) }
  }
}

/// A request ready to send: URL and headers with variables expanded, and a redactor that masks
/// every secret that went in.
public struct ResolvedRequest: Sendable {
  /// The URL to fetch (may hold a secret: print `shownURL`).
  public var url: String
  /// The headers to send (values may be secrets: never print them).
  public var headers: [(String, String)]
  /// Masks every secret that went into the request.
  public var redactor: Redactor
  /// The URL fit to print.
  public var shownURL: String { redactor.redact(url: url) }
}

/// `$NAME` and `${NAME}` in header values (and URLs), expanded from the environment only when
/// a request is made, so keys need never be written to the configuration file.
public enum EnvironmentExpansion {
  /// The variable names `text` refers to.
  public static func variables(in text: String) -> [String] {
    var names: [String] = []
    _ = expand(text, environment: [:]) {
      names.append($0); return ""
    }
    return names
  }

  /// `text` with each `$NAME` / `${NAME}` replaced by `lookup(NAME)`.
  static func expand(_ text: String, environment: [String: String], lookup: (String) throws -> String) rethrows -> String {
    var out = ""
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      guard character == "$" else {
        out.append(character)
        index = text.index(after: index)
        continue
      }
      var cursor = text.index(after: index)
      let braced = cursor < text.endIndex && text[cursor] == "{"
      if braced { cursor = text.index(after: cursor) }
      let nameStart = cursor
      while cursor < text.endIndex, text[cursor].isASCII, text[cursor].isLetter || text[cursor].isNumber || text[cursor] == "_" {
        cursor = text.index(after: cursor)
      }
      let name = String(text[nameStart..<cursor])
      if name.isEmpty || (braced && (cursor == text.endIndex || text[cursor] != "}")) {
        out.append(character)
        index = text.index(after: index)
        continue
      }
      if braced { cursor = text.index(after: cursor) }
      out += try lookup(name)
      index = cursor
    }
    return out
  }

  /// Expands `url` and `headers` for feed `feed`; every substituted value is a secret.
  /// - Throws: `FeedConfigError` naming the variable that is not set (never its value).
  public static func resolve(
    url: String, headers: [HeaderTemplate], feed: String, environment: [String: String]
  ) throws(FeedConfigError) -> ResolvedRequest {
    var redactor = Redactor()
    func lookup(_ place: String) -> (String) throws -> String {
      { name in
        guard let value = environment[name], !value.isEmpty else {
          throw FeedConfigError("\(place) of feed '\(feed)' uses $\(name), which is not set in the environment")
        }
        redactor.add(value)
        return value
      }
    }
    // A CR or LF would end the header line, and what follows be sent as headers of its own
    // (header injection): refused in names, URLs and values, after expansion too.
    func refuseLineBreaks(_ text: String, _ place: String) throws(FeedConfigError) {
      if text.contains(where: { $0.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" } }) {
        throw FeedConfigError("\(place) of feed '\(feed)' holds a line break (CR or LF) or NUL, which cannot be sent")
      }
    }
    do {
      let expandedURL = try expand(url, environment: environment, lookup: lookup("the url"))
      try refuseLineBreaks(expandedURL, "the url")
      var expanded: [(String, String)] = []
      for header in headers {
        try refuseLineBreaks(header.name, "a header name")
        let value = try expand(header.value, environment: environment, lookup: lookup("header '\(header.name)'"))
        try refuseLineBreaks(value, "header '\(header.name)'")
        if HeaderTemplate.looksSecret(header.name) { redactor.add(value) }
        expanded.append((header.name, value))
      }
      return ResolvedRequest(url: expandedURL, headers: expanded, redactor: redactor)
    } catch let error as FeedConfigError {
      throw error
    } catch {
      throw FeedConfigError("\(error)")
    }
  }
}

/// The feed configuration file is unreadable, or a feed refers to something missing.
public struct FeedConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The one-line message.
  public var message: String
  /// An error with `message`.
  public init(_ message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}

/// The configured feeds, kept as `CONFIG/feeds.json` (mode 0600, written atomically).
public struct FeedConfiguration: Codable, Equatable, Sendable {
  /// The feeds, in the order they were added.
  public var feeds: [FeedDefinition]

  /// A configuration holding `feeds`.
  public init(feeds: [FeedDefinition] = []) { self.feeds = feeds }

  /// The file in `configDirectory`.
  public static func path(in configDirectory: String) -> String { configDirectory + "/feeds.json" }

  /// Reads the configuration; an absent file is an empty configuration.
  /// - Throws: `FeedConfigError` when the file exists but cannot be read.
  public static func load(from configDirectory: String) throws(FeedConfigError) -> FeedConfiguration {
    let path = path(in: configDirectory)
    guard FileManager.default.fileExists(atPath: path) else { return FeedConfiguration() }
    guard let bytes = FileStore.read(path) else { throw FeedConfigError("\(path): cannot be read") }
    return try decode(bytes, path: path)
  }

  /// The configuration in `bytes`, the text of `path`.
  /// - Throws: `FeedConfigError` naming `path` when it is not a valid configuration.
  public static func decode(_ bytes: [UInt8], path: String) throws(FeedConfigError) -> FeedConfiguration {
    let configuration: FeedConfiguration
    do {
      configuration = try JSONDecoder().decode(FeedConfiguration.self, from: Data(bytes))
    } catch {
      throw FeedConfigError("\(path): not a valid feed configuration (\(DecodingProblem.text(error).lowercased()))")
    }
    // A name becomes part of file paths (the timetable, downloads, recordings): one that could
    // reach outside its folder is refused here, before anything uses it.
    if let bad = configuration.feeds.first(where: { !FeedName.isValid($0.name) }) {
      throw FeedConfigError("\(path): feed name '\(bad.name)' must be \(FeedName.rule)")
    }
    return configuration
  }

  /// Writes the configuration atomically with mode 0600.
  public func save(to configDirectory: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try FileStore.write([UInt8](try encoder.encode(self)) + [0x0A], to: Self.path(in: configDirectory))
  }

  /// The feed called `name`.
  public func feed(named name: String) -> FeedDefinition? { feeds.first { $0.name == name } }
}
