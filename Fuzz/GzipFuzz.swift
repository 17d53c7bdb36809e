// libFuzzer target for gzip decompression (realtime `.pb.gz` files); built and run by Fuzz/run.
//
// Any input must decompress or throw a ZipError; it must never trap, and never return more than
// the cap it was given.

import ZIP

private let cap = 64 << 10  // small, so an execution is not spent clearing a large buffer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  do {
    let output = try Gzip.decompress(bytes, maxOutput: cap)
    precondition(output.count <= cap, "more than the cap")
    precondition(Gzip.isGzip(bytes) || bytes.count >= 2, "a non-gzip input decompressed")
  } catch {
    if case .gzipTooLarge(let limit) = error { precondition(limit == cap) }
    precondition(!error.description.isEmpty)
  }
  return 0
}
