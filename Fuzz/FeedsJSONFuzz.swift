// libFuzzer target for `feeds.json` (FeedConfiguration.decode) and the URL and header templates
// it holds (EnvironmentExpansion.resolve); built and run by Fuzz/run.
//
// Any input must decode or throw a FeedConfigError naming the file; nothing may trap. A decoded
// configuration holds only valid feed names, survives a round trip through its own encoding, and
// every template either resolves or throws.

import Foundation
import TransitModel

private let environment = ["KEY": "s3cret", "EMPTY": "", "HOST": "example.org"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedsJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let configuration: FeedConfiguration
  do {
    configuration = try FeedConfiguration.decode(bytes, path: "feeds.json")
  } catch {
    precondition(error.message.hasPrefix("feeds.json: "))
    return 0
  }
  for feed in configuration.feeds {
    precondition(FeedName.isValid(feed.name))
    for url in [feed.gtfs].compactMap({ $0 }) + feed.realtimeURLs.map(\.url) {
      // The key's value comes in only through $KEY: a URL that has "s3cret" as plain text
      // (nothing the redactor could know is secret) is not a leak.
      if let request = try? EnvironmentExpansion.resolve(url: url, headers: feed.headers, feed: feed.name, environment: environment),
        !url.contains("s3cret")
      {
        precondition(!request.redactor.redact(url: request.url).contains("s3cret"), "a key shown")
      }
    }
    for header in feed.headers { _ = header.displayed }
  }
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  let encoded = try! encoder.encode(configuration)
  let again = try! FeedConfiguration.decode([UInt8](encoded), path: "feeds.json")
  precondition(again == configuration, "a round trip changed the configuration")
  return 0
}
