import Foundation
import TestSupport
import Testing

/// `Scripts/install` and `Scripts/package` (issue 39), run as a user runs them, with the
/// `transit` the tests were built with (`TRANSIT_BINARY`), so no release build is needed: the
/// installed binary is run, its man page rendered by `man` and groff, its completions loaded by
/// each shell that is installed; uninstalling leaves the prefix as it was. The .deb is built
/// when dpkg-deb is there, read back with dpkg-deb, extracted, and its binary run.
@Suite struct InstallTests {
  static let install = packageRoot + "/Scripts/install"
  static let package = packageRoot + "/Scripts/package"
  static var canRun: Bool { transitExecutable != nil && CompletionsTests.shell("bash") != nil }

  /// Runs `arguments[0]` with the rest; the environment is a plain one (no PATH entry of the
  /// prefix), with HOME in a scratch folder so nothing lands in the real one.
  static func launch(_ arguments: [String], home: String, environment: [String: String] = [:]) throws -> CLIResult {
    var env = [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TRANSIT_BINARY": transitExecutable ?? "",
      "TERM": "dumb",
    ]
    for (key, value) in environment { env[key] = value }
    return try CompletionsTests.launch(arguments[0], Array(arguments.dropFirst()), environment: env, directory: packageRoot)
  }

  /// Every file, folder and link under `root`, relative, with its kind and (for files) its bytes'
  /// hash: what "the prefix as it was" compares.
  static func listing(_ root: String) throws -> [String] {
    let files = FileManager.default
    guard let walker = files.enumerator(atPath: root) else { return [] }
    var entries: [String] = []
    while let path = walker.nextObject() as? String {
      let full = root + "/" + path
      let type = try files.attributesOfItem(atPath: full)[.type] as? FileAttributeType
      switch type {
      case .typeDirectory?: entries.append("dir " + path)
      case .typeSymbolicLink?: entries.append("link " + path)
      default: entries.append("file \(path) \(try Data(contentsOf: URL(fileURLWithPath: full)).hashValue)")
      }
    }
    return entries.sorted()
  }

  static let installedPaths = [
    "bin/transit", "share/man/man1/transit.1", "share/bash-completion/completions/transit", "share/zsh/site-functions/_transit",
    "share/fish/vendor_completions.d/transit.fish", "lib/systemd/user/transit-refresh.service",
    "lib/systemd/user/transit-refresh.timer",
  ]

  // MARK: - Scripts/install

  @Test(.enabled(if: canRun))
  func installsRunsAndUninstallsLeavingThePrefixAsItWas() throws {
    let scratch = TemporaryFolder()
    let prefix = scratch.path + "/prefix"
    // What was there before: a bin/ with another program, and a share/ file of someone else's.
    try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: prefix + "/share/man", withIntermediateDirectories: true)
    try "#!/bin/sh\n".write(toFile: prefix + "/bin/other", atomically: true, encoding: .utf8)
    try "theirs\n".write(toFile: prefix + "/share/man/notes", atomically: true, encoding: .utf8)
    let before = try Self.listing(prefix)

    let installed = try Self.launch([Self.install, "--prefix", prefix, "--systemd"], home: scratch.path)
    try #require(installed.code == 0, "\(installed.stdout)\(installed.stderr)")
    // It says what it put where, and that bin/ is not on PATH.
    for path in Self.installedPaths {
      #expect(installed.stdout.contains(" \(prefix)/\(path)\n"), "\(path) not said: \(installed.stdout)")
      #expect(FileManager.default.fileExists(atPath: prefix + "/" + path), "\(path)")
    }
    #expect(installed.stdout.contains("note: \(prefix)/bin is not on your PATH; add it: export PATH=\"\(prefix)/bin:$PATH\"\n"))
    let manifest = try String(contentsOfFile: prefix + "/share/transit/install-manifest", encoding: .utf8)
    // Each installed file once, and the folders it made (bin/ and share/man/ were there).
    #expect(manifest.split(separator: "\n").filter { $0.hasPrefix("file ") }.count == Self.installedPaths.count)
    #expect(manifest.contains("\ndir \(prefix)/lib\n"))
    #expect(!manifest.contains("dir \(prefix)/bin\n") && !manifest.contains("dir \(prefix)/share/man\n"))

    // The installed binary runs, and is the one built.
    let version = try CompletionsTests.launch(prefix + "/bin/transit", ["--version"])
    let built = try CompletionsTests.launch(try #require(transitExecutable), ["--version"])
    #expect(version.code == 0)
    #expect(version.stdout.hasPrefix("transit ") && version.stdout == built.stdout)

    // The units run the installed binary by its path (a user's systemd has no ~/.local/bin).
    let service = try String(contentsOfFile: prefix + "/lib/systemd/user/transit-refresh.service", encoding: .utf8)
    #expect(
      service.contains(
        "ExecStart=/bin/sh -c '\(prefix)/bin/transit ingest --if-changed --quiet; \(prefix)/bin/transit ingest --check --quiet'\n"))
    #expect(service.hasPrefix("[Unit]\n") && service.hasSuffix("--quiet'\n"), "\(service)")
    let timer = try String(contentsOfFile: prefix + "/lib/systemd/user/transit-refresh.timer", encoding: .utf8)
    #expect(timer.hasPrefix("[Unit]\n") && timer.hasSuffix("WantedBy=timers.target\n"), "\(timer)")

    try checkManPage(prefix: prefix, home: scratch.path)
    try checkCompletions(prefix: prefix, home: scratch.path)

    // Again: the same files, the same manifest.
    let listed = try Self.listing(prefix)
    let again = try Self.launch([Self.install, "--prefix", prefix], home: scratch.path)
    #expect(again.code == 0, "\(again.stderr)")
    #expect(try Self.listing(prefix) == listed)

    let removed = try Self.launch([Self.install, "--uninstall", "--prefix", prefix], home: scratch.path)
    #expect(removed.code == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("removed \(prefix)/bin/transit\n"))
    #expect(try Self.listing(prefix) == before)
  }

  /// `man -M PREFIX/share/man transit` finds and formats the page, groff warning about nothing.
  func checkManPage(prefix: String, home: String) throws {
    let page = prefix + "/share/man/man1/transit.1"
    if let groff = ManPageTests.tool("groff") {
      let rendered = try CompletionsTests.launch(groff, ["-man", "-Tutf8", "-ww", "-z", page])
      #expect(rendered.code == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
    }
    guard let man = ManPageTests.tool("man") else { return }
    // --warnings: man-db passes groff -ww; MANWIDTH keeps the lines the same on any terminal.
    let shown = try Self.launch(
      [man, "--warnings=w", "-M", prefix + "/share/man", "transit"], home: home, environment: ["MANWIDTH": "80", "MANPAGER": "cat"])
    #expect(shown.code == 0, "\(shown.stderr)")
    #expect(shown.stderr.isEmpty, "\(shown.stderr)")
    #expect(shown.stdout.hasPrefix("TRANSIT(1)"), "\(shown.stdout.prefix(200))")
    #expect(shown.stdout.contains("SYNOPSIS") && shown.stdout.contains("transit departures"))
  }

  /// Each installed shell loads the completion from where it looks under the prefix.
  func checkCompletions(prefix: String, home: String) throws {
    let path = prefix + "/bin:/usr/bin:/bin"
    if let bash = CompletionsTests.shell("bash") {
      // bash-completion, when installed, finds it by itself under XDG_DATA_DIRS (which holds
      // /usr/local/share and /usr/share; ~/.local/share is its user folder); else it is sourced.
      let loader = "/usr/share/bash-completion/bash_completion"
      let script =
        FileManager.default.fileExists(atPath: loader)
        ? "source \(loader); __load_completion transit; complete -p transit"
        : "source '\(prefix)/share/bash-completion/completions/transit' && complete -p transit"
      let result = try Self.launch(
        [bash, "--norc", "--noprofile", "-c", script], home: home,
        environment: ["PATH": path, "XDG_DATA_DIRS": prefix + "/share:/usr/share"])
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stdout.hasPrefix("complete ") && result.stdout.hasSuffix(" transit\n"), "\(result.stdout)")
      #expect(result.stdout.contains("-F _transit"), "\(result.stdout)")
    }
    if let zsh = CompletionsTests.shell("zsh") {
      // A clean ZDOTDIR (no .zshrc); compinit reads fpath, the prefix's site-functions first.
      let zdotdir = home + "/zdotdir"
      try FileManager.default.createDirectory(atPath: zdotdir, withIntermediateDirectories: true)
      let script =
        "fpath=('\(prefix)/share/zsh/site-functions' $fpath); autoload -Uz compinit; compinit -u -d '\(zdotdir)/.zcompdump'; print -r -- ${_comps[transit]}"
      let result = try Self.launch([zsh, "-c", script], home: home, environment: ["PATH": path, "ZDOTDIR": zdotdir])
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stdout == "_transit\n", "\(result.stdout)\(result.stderr)")
    }
    if let fish = CompletionsTests.shell("fish") {
      // fish reads vendor_completions.d under each XDG_DATA_DIRS folder.
      let result = try Self.launch(
        [fish, "-c", "complete -C 'transit dep'"], home: home,
        environment: ["PATH": path, "XDG_DATA_DIRS": prefix + "/share:/usr/share", "XDG_CONFIG_HOME": home + "/config"])
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("departures") }, "\(result.stdout)")
    }
  }

  @Test(.enabled(if: canRun))
  func uninstallRemovesOnlyWhatItInstalledUnchanged() throws {
    let scratch = TemporaryFolder()
    let prefix = scratch.path + "/p"
    #expect(try Self.launch([Self.install, "--prefix", prefix], home: scratch.path).code == 0)
    // Someone else's file in a folder the install made; the man page edited since.
    try "mine\n".write(toFile: prefix + "/share/bash-completion/completions/other", atomically: true, encoding: .utf8)
    try "edited\n".write(toFile: prefix + "/share/man/man1/transit.1", atomically: true, encoding: .utf8)
    let removed = try Self.launch([Self.install, "--uninstall", "--prefix", prefix], home: scratch.path)
    #expect(removed.code == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("kept (changed since it was installed): \(prefix)/share/man/man1/transit.1\n"))
    #expect(
      try Self.listing(prefix) == [
        "dir share", "dir share/bash-completion", "dir share/bash-completion/completions", "dir share/man", "dir share/man/man1",
        "file share/bash-completion/completions/other \(Data("mine\n".utf8).hashValue)",
        "file share/man/man1/transit.1 \(Data("edited\n".utf8).hashValue)",
      ])
    // Nothing left to uninstall: said, exit 1.
    let twice = try Self.launch([Self.install, "--uninstall", "--prefix", prefix], home: scratch.path)
    #expect(twice.code == 1)
    #expect(twice.stderr.hasPrefix("install: no install manifest at \(prefix)/share/transit/install-manifest"), "\(twice.stderr)")
  }

  @Test(.enabled(if: canRun))
  func defaultPrefixIsHomeLocalAndUnitsGoWhereSystemdLooks() throws {
    guard getuid() != 0 else {
      // As root the default is /usr/local: not a place for a test to write. The decision is
      // the script's first lines; the ~/.local case is checked with --prefix ~/.local instead.
      let scratch = TemporaryFolder()
      let prefix = scratch.path + "/.local"
      let result = try Self.launch([Self.install, "--prefix", prefix, "--systemd"], home: scratch.path)
      #expect(result.code == 0, "\(result.stderr)")
      #expect(FileManager.default.fileExists(atPath: prefix + "/share/systemd/user/transit-refresh.timer"))
      #expect(result.stdout.contains("systemd: systemctl --user daemon-reload && systemctl --user enable --now transit-refresh.timer"))
      return
    }
    let scratch = TemporaryFolder()
    let result = try Self.launch([Self.install, "--systemd"], home: scratch.path)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: scratch.path + "/.local/bin/transit"))
    #expect(FileManager.default.fileExists(atPath: scratch.path + "/.local/share/systemd/user/transit-refresh.timer"))
  }

  @Test(.enabled(if: canRun))
  func badArgumentsAreUsageErrors() throws {
    let scratch = TemporaryFolder()
    let unknown = try Self.launch([Self.install, "--prefx", scratch.path], home: scratch.path)
    #expect(unknown.code == 2)
    #expect(unknown.stderr.hasPrefix("install: unknown argument '--prefx'\nusage: Scripts/install"), "\(unknown.stderr)")
    #expect(try Self.launch([Self.install, "--prefix"], home: scratch.path).code == 2)
    let missing = try Self.launch(
      [Self.install, "--prefix", scratch.path], home: scratch.path, environment: ["TRANSIT_BINARY": "/nonexistent"])
    #expect(missing.code == 1)
    #expect(try Self.listing(scratch.path) == [])
  }

  // MARK: - Scripts/package

  static var canPackage: Bool { canRun && ManPageTests.tool("dpkg-deb") != nil && ManPageTests.tool("readelf") != nil }

  /// The version as Sources/TransitCLI/Transit.swift declares it, read from the source.
  static func sourceVersion() throws -> String {
    let source = try String(contentsOfFile: packageRoot + "/Sources/TransitCLI/Transit.swift", encoding: .utf8)
    let line = try #require(source.split(separator: "\n").first { $0.contains("public static let version = \"") })
    return String(try #require(line.split(separator: "\"").dropFirst().first))
  }

  @Test(.enabled(if: canPackage))
  func packageHoldsEverythingAndItsBinaryRuns() throws {
    let scratch = TemporaryFolder()
    // gzip and no lintian: xz takes half a minute on the debug binary, lintian minutes.
    let built = try Self.launch([Self.package, "--output", scratch.path, "--compression", "gzip", "--no-lintian"], home: scratch.path)
    try #require(built.code == 0, "\(built.stdout)\(built.stderr)")
    let arch = try CompletionsTests.launch(try #require(ManPageTests.tool("dpkg")), ["--print-architecture"]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let version = try Self.sourceVersion()
    let deb = scratch.path + "/transit_\(version)_\(arch).deb"
    #expect(built.stdout.hasPrefix("built \(deb)\n"), "\(built.stdout)")
    let dpkgDeb = try #require(ManPageTests.tool("dpkg-deb"))

    // Contents: each file where Debian looks, owned by root, the binary executable.
    let contents = try CompletionsTests.launch(dpkgDeb, ["-c", deb])
    #expect(contents.code == 0)
    let rows = contents.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
    let files = Dictionary(rows.compactMap { row in row.last.map { (String($0), row) } }, uniquingKeysWith: { a, _ in a })
    for path in [
      "./usr/bin/transit", "./usr/share/man/man1/transit.1.gz", "./usr/share/bash-completion/completions/transit",
      "./usr/share/zsh/vendor-completions/_transit", "./usr/share/fish/vendor_completions.d/transit.fish",
      "./usr/lib/systemd/user/transit-refresh.service", "./usr/lib/systemd/user/transit-refresh.timer",
      "./usr/share/doc/transit/copyright", "./usr/share/doc/transit/changelog.gz",
    ] {
      let row = try #require(files[path], "\(path) not in\n\(contents.stdout)")
      #expect(row[1] == "root/root", "\(row)")
      #expect(row[0] == (path == "./usr/bin/transit" ? "-rwxr-xr-x" : "-rw-r--r--"), "\(row)")
    }
    #expect(rows.allSatisfy { $0[1] == "root/root" })

    // Control fields.
    func field(_ name: String) throws -> String {
      try CompletionsTests.launch(dpkgDeb, ["-f", deb, name]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try field("Package") == "transit")
    #expect(try field("Version") == version)
    #expect(try field("Architecture") == arch)
    #expect(try !field("Maintainer").isEmpty)
    #expect(try !field("Description").isEmpty)
    // What the binary links at start (readelf -d: libsqlite3.so.0, libz.so.1, libc.so.6,
    // libm.so.6 and the loader, and libstdc++.so.6 and libgcc_s.so.1 for the statically linked
    // Swift runtime): five packages, each once; libcurl, opened at first fetch, recommended.
    let depends = try field("Depends").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(
      depends.map { String($0.prefix { $0 != " " }) } == ["libc6", "libgcc-s1", "libsqlite3-0", "libstdc++6", "zlib1g"], "\(depends)")
    // With the minimum version of the shlibs files, where they give one (libc6's and sqlite's do).
    #expect(depends[0].hasPrefix("libc6 (>= 2.") && depends[2].hasPrefix("libsqlite3-0 (>= 3."), "\(depends)")
    #expect(try field("Recommends") == "libcurl4")
    #expect(Int(try field("Installed-Size")) ?? 0 > 1000)

    // Extracted into a temporary root, the binary runs from there.
    let root = scratch.path + "/root"
    #expect(try CompletionsTests.launch(dpkgDeb, ["-x", deb, root]).code == 0)
    let run = try CompletionsTests.launch(root + "/usr/bin/transit", ["--version"])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("transit \(version)\n"), "\(run.stdout)")
    // ... and works: the demo loaded and asked (the stripped binary still has all it needs).
    let data = scratch.path + "/data"
    #expect(
      try CompletionsTests.launch(root + "/usr/bin/transit", ["ingest", packageRoot + "/Data/gtfs", "--quiet", "--data-dir", data]).code
        == 0)
    let line = try CompletionsTests.launch(
      root + "/usr/bin/transit",
      ["departures", "TINT", "--line", "--route", "27", "--now", "2026-12-01T07:40:00Z", "--data-dir", data])
    #expect(line.stdout == "27 07:50 sched · in 10 min\n", "\(line.stderr)")
    let copyright = try String(contentsOfFile: root + "/usr/share/doc/transit/copyright", encoding: .utf8)
    #expect(copyright.contains("\nLicense: Expat\n Permission is hereby granted, free of charge,"))
    let service = try String(contentsOfFile: root + "/usr/lib/systemd/user/transit-refresh.service", encoding: .utf8)
    #expect(
      service.contains("ExecStart=/bin/sh -c '/usr/bin/transit ingest --if-changed --quiet; /usr/bin/transit ingest --check --quiet'"))
  }
}
