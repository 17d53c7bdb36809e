import FoundationEssentials
import TransitModel

/// Keeps API keys out of anything printed: URLs lose their passwords and key-like query
/// values, and known secret strings (header values taken from the environment) are masked.
public struct Redactor: Sendable {
  /// The text that stands in for a secret.
  public static let mask = "<redacted>"
  /// Query parameters whose values are treated as keys.
  static let secretParameters: Set<String> = [
    "key", "api_key", "apikey", "api-key", "token", "access_token", "auth", "secret", "password",
    "signature", "sig", "subscription-key", "subscription_key", "client_secret", "x-api-key", "app_key", "appkey",
  ]

  /// Words that make any query parameter holding one a key (`my_api_key`, `authToken`).
  static let secretWords = ["key", "token", "secret", "auth", "passw", "sig", "credential"]

  /// Whether the query parameter `name=value` holds a key: a key-like name (case-insensitive:
  /// one of `secretParameters`, a name holding one of `secretWords`, or the bare `k`), or a
  /// value written as an environment variable (`$KEY`, `${KEY}`), whatever the name.
  static func isSecret(name: String, value: Substring) -> Bool {
    let name = name.lowercased()
    if secretParameters.contains(name) || name == "k" || secretWords.contains(where: { name.contains($0) }) { return true }
    return value.contains("$")
  }

  /// Strings to mask wherever they appear (at least 4 characters, to mask nothing by accident).
  public private(set) var secrets: [String]

  /// A redactor masking `secrets` (those of at least 4 characters).
  public init(secrets: [String] = []) {
    self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
  }

  /// Adds `secret` to what is masked.
  public mutating func add(_ secret: String) {
    guard secret.count >= 4 else { return }
    secrets.append(secret)
    secrets.sort { $0.count > $1.count }
  }

  /// `text` with every known secret masked.
  public func redact(_ text: String) -> String {
    var text = text
    for secret in secrets { text = text.replacing(secret, with: Self.mask) }
    return text
  }

  /// `url` fit to print: no password, no key-like query values, no known secrets.
  public func redact(url: String) -> String {
    redact(Self.redactURL(url))
  }

  /// The structural part of URL redaction: `user:password@` and key-like query values.
  public static func redactURL(_ url: String) -> String {
    var text = url
    if let scheme = text.firstRange(of: "://") {
      let afterScheme = text[scheme.upperBound...]
      let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
      if let at = text[scheme.upperBound..<authorityEnd].lastIndex(of: "@") {
        let user = text[scheme.upperBound..<at].split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        text.replaceSubrange(scheme.upperBound..<at, with: user + ":" + mask)
      }
    }
    guard let question = text.firstIndex(of: "?") else { return text }
    let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
    let query = text[text.index(after: question)..<fragmentStart]
    let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let value = pair[pair.index(after: equals)...]
      return isSecret(name: String(pair[..<equals]), value: value) ? "\(pair[..<equals])=\(mask)" : String(pair)
    }
    return String(text[...question]) + pairs.joined(separator: "&") + String(text[fragmentStart...])
  }
}
