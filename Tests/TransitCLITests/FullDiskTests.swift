import Foundation
import TestSupport
import Testing

/// Issue 38: a full disk. Reading the user's database still works (its WAL's shared-memory
/// file cannot be made), and a download that cannot be written says the disk is full.
@Suite(.serialized) struct FullDiskTests {
  /// A tmpfs of `kilobytes` mounted on a fresh folder, when this machine lets the test mount one
  /// (root, a kernel with tmpfs); nil otherwise. Unmounted by `unmount`.
  static func tinyDisk(kilobytes: Int) -> String? {
    let folder = NSTemporaryDirectory() + "transit-full-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/bin/mount")
    mount.arguments = ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder]
    mount.standardError = FileHandle.nullDevice
    guard (try? mount.run()) != nil else { return nil }
    mount.waitUntilExit()
    return mount.terminationStatus == 0 ? folder : nil
  }

  static func unmount(_ folder: String) {
    let umount = Process()
    umount.executableURL = URL(fileURLWithPath: "/bin/umount")
    umount.arguments = [folder]
    try? umount.run()
    umount.waitUntilExit()
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Writes zeros to `folder/filler` until the disk refuses more.
  static func fill(_ folder: String) {
    let fd = open(folder + "/filler", O_WRONLY | O_CREAT, 0o600)
    defer { close(fd) }
    let block = [UInt8](repeating: 0, count: 4096)
    while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// The user's favourites and places are read though no `-shm` file can be made: here a
  /// folder stands where SQLite would create it, which fails as a full disk does.
  @Test func favouritesAndPlacesAreReadWhenTheSharedMemoryFileCannotBeMade() throws {
    let home = TemporaryFolder()
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path]) }
    #expect(run(["places", "add", "home", "53.2875,-6.3664"]).code == 0)
    #expect(!FileManager.default.fileExists(atPath: home.path + "/user.sqlite-shm"))
    try FileManager.default.createDirectory(atPath: home.path + "/user.sqlite-shm", withIntermediateDirectories: false)
    let list = run(["places", "list"])
    #expect(list.code == 0, "\(list.stderr)")
    #expect(list.stdout.contains("home"))
    let favourites = run(["fav", "list"])
    #expect(favourites.code == 0, "\(favourites.stderr)")
    // A write cannot succeed; it fails with one line, and the place is still there.
    let add = run(["places", "add", "work", "53.29,-6.40"])
    #expect(add.code != 0)
    #expect(add.stderr.split(separator: "\n").count == 1, "\(add.stderr)")
    #expect(run(["places", "list"]).stdout.contains("home"))
  }

  @Test func favouritesAreReadOnARealFullDisk() throws {
    guard let disk = Self.tinyDisk(kilobytes: 256) else { return }  // no tmpfs to be had: covered above
    defer { Self.unmount(disk) }
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", disk + "/home"]) }
    #expect(run(["places", "add", "home", "53.2875,-6.3664"]).code == 0)
    Self.fill(disk)
    let list = run(["places", "list"])
    #expect(list.code == 0, "\(list.stderr)")
    #expect(list.stdout.contains("home"))
  }

  @Test func aDownloadOntoAFullDiskSaysSo() throws {
    guard let disk = Self.tinyDisk(kilobytes: 64) else { return }
    defer { Self.unmount(disk) }
    let body = [UInt8](repeating: 0x50, count: 1 << 20)
    let server = try TestHTTPServer { _, _ in .init(headers: [("Content-Type", "application/zip")], body: body) }
    defer { server.stop() }
    let result = transit(["ingest", server.baseURL + "/gtfs.zip", "--feed", "full", "--data-dir", disk + "/home"])
    #expect(result.code == 1)
    #expect(result.stderr.contains("the disk is full"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
  }
}

/// Asking about the user's data does not create it: a read of an empty data folder answers
/// "none yet" and leaves no user.sqlite behind (only a write makes one).
@Suite struct UserDataReadsCreateNothingTests {
  @Test(arguments: [["places", "list"], ["fav", "list"], ["commute", "list"], ["commute"], ["commute", "remove", "x"]])
  func aReadLeavesNoUserDatabase(_ command: [String]) throws {
    let home = TemporaryFolder()
    let result = transit(command + ["--data-dir", home.path])
    #expect(result.code == (command.last == "x" ? 3 : 0), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: home.path + "/user.sqlite"))
    // A write makes it.
    #expect(transit(["places", "add", "home", "53.2875,-6.3664", "--data-dir", home.path]).code == 0)
    #expect(FileManager.default.fileExists(atPath: home.path + "/user.sqlite"))
  }
}
