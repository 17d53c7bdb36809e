// swift-tools-version:6.0
import PackageDescription

/// The target graph is the architecture: `GTFSRealtime` imports nothing, `Merge` only
/// `TransitModel` and `GTFSRealtime`, `Routing` (the journey planner, and its network as plain
/// values with realtime applied) only `TransitModel`, only `GTFS` (the timetables, read as plain
/// values: it builds no router's arrays), `UserData` (the user's own database) and `History` (the
/// record of how the service ran) speak SQL, and `Services` (every command's answers, and the
/// router's network gathered from the store's reads) speaks no SQL and reaches HTTP only through
/// `Fetch`, behind its realtime-source protocol (DESIGN.md, "Targets").
/// `-O` in every configuration (SwiftPM's own `-Onone` comes first; the last flag wins).
let optimised: [SwiftSetting] = [.unsafeFlags(["-O"])]

let package = Package(
  name: "transit",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "transit", targets: ["transit"])
  ],
  targets: [
    // MARK: - C libraries, through the system's packages
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // libcurl's headers only: the library is opened at first use (see Sources/CCurl/shim.h), so
    // no pkgConfig here, whose `-lcurl` would load it into every command.
    .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),

    // MARK: - Libraries
    // The targets that do the heavy work (inflate and CRC, CSV parsing and ingest, protobuf
    // decoding, the router's network and RAPTOR) are optimised in debug builds too: the test
    // suite ingests a dozen real feeds and decodes every capture, which unoptimised code does
    // ten times slower.
    // The model's values, and the time zones every local time is read in (optimised: ingest and
    // the realtime step convert times through them, as GTFS did when the zones were its own).
    .target(name: "TransitModel", swiftSettings: optimised),
    // stat(2), the monotonic clock and detached threads: the system, for GTFS, Fetch and TransitCLI only.
    .target(name: "HostSystem"),
    .target(name: "SQLite", dependencies: ["CSQLite"]),
    .target(name: "ZIP", dependencies: ["CZlib"], swiftSettings: optimised),
    .target(name: "Routing", dependencies: ["TransitModel"], swiftSettings: optimised),
    .target(name: "GTFS", dependencies: ["TransitModel", "HostSystem", "SQLite", "ZIP"], swiftSettings: optimised),
    // The user's own database, user.sqlite (favourites, places, commutes, seen alerts): SQL of its
    // own, apart from the timetables; it may import TransitModel and SQLite.
    .target(name: "UserData", dependencies: ["TransitModel", "SQLite"]),
    // The record of how the service ran, history.sqlite (stop events with observed or inferred
    // actuals, predictions seen, cancellations, ghost trips): SQL of its own, beside user.sqlite;
    // its inference of actuals from snapshots is pure (values in, values out).
    .target(name: "History", dependencies: ["SQLite"]),
    .target(name: "GTFSRealtime", swiftSettings: optimised),
    .target(name: "Merge", dependencies: ["TransitModel", "GTFSRealtime"]),
    // HTTP on libcurl, the snapshot cache and the feed configuration; and every feed's bytes
    // read alike (`RealtimeCapture`: a fetched body, a capture file), un-gzipped through ZIP's
    // zlib, within the caps, an HTML page refused.
    .target(name: "Fetch", dependencies: ["CCurl", "GTFSRealtime", "TransitModel", "HostSystem", "ZIP"]),
    // The answers every command shares: a session (TransitSession) over the timetables, the
    // user's data, the options resolved from the settings and a realtime source; values out
    // (each `Encodable` as its documented JSON). No SQL; HTTP only through Fetch, behind the
    // RealtimeSource protocol.
    .target(name: "Services", dependencies: ["TransitModel", "HostSystem", "GTFS", "UserData", "History", "GTFSRealtime", "Merge", "Routing", "Fetch"]),
    // The command line: parse, ask the session, render. It reaches neither the timetables
    // (GTFS, SQLite), Merge, Routing, the history, the user's database (UserData), fetching
    // (Fetch) nor ZIP: the graph refuses the import. Besides Services and TransitModel it
    // takes GTFSRealtime to print a decoded feed (`rt dump`) and an alert's cause and effect,
    // and to hand `plan --watch` the feeds each frame reads; and HostSystem, the C library's
    // clock the watch loop and the progress bar tick on.
    .target(
      name: "TransitCLI",
      dependencies: ["TransitModel", "HostSystem", "GTFSRealtime", "Services"]),
    // The Swift runtime and FoundationEssentials linked in statically: a command starts in about
    // 3 ms less than when it loads them as shared libraries at every run (Benchmarks/startup).
    // - lld, the toolchain's linker: GNU ld warns about a glibc function the static
    //   FoundationEssentials references.
    // - Three of the toolchain's static libraries that FoundationEssentials needs and
    //   `-static-stdlib` leaves out (the link fails without them, naming their symbols).
    // - --no-export-dynamic undoes the -export-dynamic of `-static-stdlib`: nothing loads
    //   transit's own symbols, and the runtime's dladdr at start-up scanned all 7,400 of them.
    // Linux only: the library names are those of the Linux toolchain (Darwin links its own way).
    .executableTarget(
      name: "transit", dependencies: ["TransitCLI"],
      linkerSettings: [
        .unsafeFlags(
          [
            "-static-stdlib", "-use-ld=lld", "-l_FoundationCollections", "-l_FoundationCShims", "-lswiftSynchronization",
            "-Xlinker", "--no-export-dynamic",
          ], .when(platforms: [.linux]))
      ]),

    // MARK: - Tests
    // Each library's tests import that library and what builds its fixtures; only the CLI's own
    // tests (help screens, golden text and JSON, exit codes, the terminal) reach `TransitCLI`.
    // TestSupport holds what several targets share: builders of feeds and captures, the local
    // HTTP server, and the one cache of timetables ingested once per test process
    // (`IngestedFeeds`, by the library's ingest or by a suite's own).
    .target(name: "TestSupport", dependencies: ["GTFSRealtime", "TransitModel", "GTFS", "ZIP"], path: "Tests/TestSupport"),
    .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
    .testTarget(name: "ZIPTests", dependencies: ["ZIP", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(
      name: "GTFSTests", dependencies: ["GTFS", "ZIP", "SQLite", "Routing", "Services", "UserData", "TestSupport"],
      swiftSettings: optimised),
    .testTarget(name: "UserDataTests", dependencies: ["UserData"]),
    .testTarget(name: "HistoryTests", dependencies: ["History", "SQLite"]),
    .testTarget(name: "GTFSRealtimeTests", dependencies: ["GTFSRealtime", "TestSupport"]),
    .testTarget(name: "RoutingTests", dependencies: ["Routing", "TestSupport"]),
    .testTarget(name: "MergeTests", dependencies: ["Merge", "TestSupport"]),
    .testTarget(name: "FetchTests", dependencies: ["Fetch", "HostSystem", "TestSupport"]),
    // The session's answers, asked of the session itself over timetables the library ingests
    // and an in-memory realtime source.
    .testTarget(
      name: "ServicesTests", dependencies: ["Services", "HostSystem", "GTFS", "History", "Merge", "GTFSRealtime", "TestSupport"]),
    .testTarget(
      name: "TransitCLITests",
      dependencies: ["TransitCLI", "GTFS", "Services", "UserData", "History", "ZIP", "Fetch", "GTFSRealtime", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
