import FoundationEssentials
import TransitModel

extension HeaderTemplate {
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

extension FeedConfiguration {
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
}
