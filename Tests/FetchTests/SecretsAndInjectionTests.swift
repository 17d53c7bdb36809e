import Fetch
import Foundation
import TestSupport
import Testing

/// Issue 38: a literal key in a URL's query is never printed (feeds list, its JSON, feeds check
/// --json), nor any query value written as `$VAR`; a CR or LF can never reach a request line.
@Suite struct SecretsAndInjectionTests {
  static let literal = "LITERAL-SECRET-77"

  @Test(arguments: ["k", "key", "API_KEY", "apiKey", "Token", "access_token", "subscription-key", "my_app_key", "authToken"])
  func keyLikeQueryValuesAreRedacted(name: String) {
    let shown = Redactor.redactURL("https://h.example/a.pb?route=27&\(name)=\(Self.literal)&x=1")
    #expect(shown == "https://h.example/a.pb?route=27&\(name)=<redacted>&x=1")
  }

  @Test func variableValuesAreRedactedWhateverTheirName() {
    #expect(
      Redactor.redactURL("https://h.example/a.pb?agency=$AGENCY&v=${V}&route=27")
        == "https://h.example/a.pb?agency=<redacted>&v=<redacted>&route=27")
  }

}
