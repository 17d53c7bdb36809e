import Foundation

/// A fresh temporary folder, removed when released.
final class TestDirectory {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "transit-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes a small feed folder from `files` (name → contents) and returns its path.
  func feed(_ files: [String: String], named name: String = "feed") -> String {
    let folder = path + "/" + name
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (file, text) in files {
      _ = FileManager.default.createFile(atPath: folder + "/" + file, contents: Data(text.utf8))
    }
    return folder
  }
}

/// A minimal valid feed, to vary one file at a time.
enum TinyFeed {
  static let files: [String: String] = [
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Tiny Transit,https://example.org,Europe/Dublin\n",
    "stops.txt":
      "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,101,First Street,53.28,-6.36\nS2,102,Second Street,53.29,-6.37\nS3,103,Third Street,53.30,-6.38\n",
    "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR1,1,One,3\n",
    "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Third Street\n",
    "stop_times.txt":
      "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,,,S2,2\nT1,08:10:00,08:10:00,S3,3\n",
    "calendar.txt":
      "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20271231\n",
  ]

  /// The tiny feed with `changes` applied (nil removes a file).
  static func with(_ changes: [String: String?]) -> [String: String] {
    var result = files
    for (name, text) in changes { result[name] = text }
    return result
  }
}
