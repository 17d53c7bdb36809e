// libFuzzer target for the GTFS-Realtime decoder; built and run by Fuzz/run.
//
// Any input must either decode or throw a WireError; it must never trap. An input that decodes
// must survive a round trip through the test encoder: what it encodes to decodes again, and
// encodes to the same bytes (compared as bytes, so NaN floats compare equal).

import GTFSRealtime

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let feed: FeedMessage
  do {
    feed = try FeedMessage(decoding: bytes)
  } catch {
    precondition(
      error.offset >= 0 && error.offset <= bytes.count, "offset outside the input: \(error)")
    precondition(!error.description.isEmpty)
    return 0
  }
  _ = feed.missingRequiredFields
  let encoded = feed.encoded()
  do {
    let again = try FeedMessage(decoding: encoded)
    precondition(again.encoded() == encoded, "re-encoding a decoded feed changed its bytes")
  } catch {
    preconditionFailure("a decoded feed's encoding does not decode: \(error)")
  }
  return 0
}
