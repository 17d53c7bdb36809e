import Testing

@testable import Fetch

/// `ContentHasher`, the content hash's SHA-256 through libcrypto (issue 37), gives the digests
/// the Swift `SHA256` gives, however the bytes are cut.
@Suite struct ContentHasherTests {
  static func digest(_ pieces: [[UInt8]], system: Bool) -> String {
    let hasher = ContentHasher(system: system)
    for piece in pieces { hasher.update(piece) }
    return SHA256.hexString(hasher.finish())
  }

  @Test func knownAnswersBothWays() {
    for system in [true, false] {
      #expect(Self.digest([], system: system) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
      #expect(Self.digest([Array("abc".utf8)], system: system) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
      let million = [[UInt8]](repeating: Array(repeating: UInt8(ascii: "a"), count: 1000), count: 1000)
      #expect(Self.digest(million, system: system) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
    #expect(!ContentHasher(system: false).isSystem)
  }

  @Test(arguments: [1, 63, 64, 65, 1000, 65_537])
  func sameDigestAsSwiftWhateverTheCuts(pieceSize: Int) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var bytes: [UInt8] = []
    for _ in 0..<200_003 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes.append(UInt8(truncatingIfNeeded: state >> 56))
    }
    let pieces = stride(from: 0, to: bytes.count, by: pieceSize).map { Array(bytes[$0..<min($0 + pieceSize, bytes.count)]) }
    var swift = SHA256()
    swift.update(bytes)
    let expected = SHA256.hexString(swift.finish())
    #expect(Self.digest(pieces, system: true) == expected)
    #expect(Self.digest(pieces, system: false) == expected)
  }
}
