/// Where transit keeps its files: XDG folders, or one folder from `--data-dir` / `TRANSIT_HOME`.
public struct Paths: Sendable, Equatable {
  /// Timetables (one SQLite file per feed) and `user.sqlite`.
  public var data: String
  /// `config.toml`-style settings and feed definitions.
  public var config: String
  /// Realtime snapshots and HTTP validators.
  public var cache: String

  public init(data: String, config: String, cache: String) {
    self.data = data
    self.config = config
    self.cache = cache
  }

  /// Resolves the folders: `--data-dir` first, then `TRANSIT_HOME`, then the XDG variables and
  /// their defaults under `$HOME`.
  public static func resolve(dataDir: String?, environment: [String: String], currentDirectory: String) -> Paths {
    if let root = dataDir ?? environment["TRANSIT_HOME"].flatMap({ $0.isEmpty ? nil : $0 }) {
      let root = absolute(root, from: currentDirectory)
      return Paths(data: root, config: root, cache: root + "/cache")
    }
    let home = environment["HOME"] ?? "/tmp"
    func xdg(_ variable: String, _ fallback: String) -> String {
      if let value = environment[variable], value.hasPrefix("/") { return value + "/transit" }
      return home + "/" + fallback + "/transit"
    }
    return Paths(
      data: xdg("XDG_DATA_HOME", ".local/share"), config: xdg("XDG_CONFIG_HOME", ".config"),
      cache: xdg("XDG_CACHE_HOME", ".cache"))
  }

  /// `path` made absolute against `directory`.
  public static func absolute(_ path: String, from directory: String) -> String {
    if path.hasPrefix("/") { return path }
    if path.hasPrefix("~/") { return (Environment.home ?? "") + path.dropFirst() }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
  }
}

enum Environment {
  static var home: String? {
    guard let pointer = getenv("HOME") else { return nil }
    return String(cString: pointer)
  }
}

#if canImport(Glibc)
  import Glibc
#endif
