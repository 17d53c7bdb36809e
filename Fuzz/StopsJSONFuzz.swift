// libFuzzer target for `stops.json` lists (StopsJSON.parse); built and run by Fuzz/run.
//
// Any input must parse or throw a GTFSError naming the file; nothing may trap. A parsed list has
// unique, non-empty ids and positions in range.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStopsJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
  do {
    let stops = try StopsJSON.parse(bytes, name: "stops.json")
    var seen = Set<String>()
    for stop in stops {
      precondition(!stop.id.isEmpty && seen.insert(stop.id).inserted)
      precondition(abs(stop.lat) <= 90 && abs(stop.lon) <= 180)
    }
  } catch {
    precondition(error.file.hasPrefix("stops.json"))
    precondition(!error.description.isEmpty)
  }
  return 0
}
