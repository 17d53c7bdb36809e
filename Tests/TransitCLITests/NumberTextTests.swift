import Fetch
import Testing

@testable import TransitCLI

/// The number formatting that replaced `String(format:)`: what printf writes, worked out by hand.
@Suite struct NumberTextTests {
  @Test func fixedDecimalsRoundAsPrintf() {
    #expect(Format.fixed(2.25, decimals: 1) == "2.2")  // exactly half: to even
    #expect(Format.fixed(0.05, decimals: 1) == "0.1")  // 0.05 is stored a little above
    #expect(Format.fixed(-0.04, decimals: 1) == "-0.0")
    #expect(Format.fixed(1234.5678, decimals: 3) == "1234.568")
    #expect(Format.fixed(0.5, decimals: 0) == "0")
    #expect(Format.fixed(1.5, decimals: 0) == "2")
    #expect(Format.fixed(53.349_805, decimals: 5) == "53.34981")
    #expect(Format.fixed(-6.260_310, decimals: 5) == "-6.26031")
    #expect(Format.fixed(1e70, decimals: 1).count == 73)  // 71 digits, the point, one decimal
  }

  @Test func zeroPaddingAndHex() {
    #expect(Format.zeroPadded(7, width: 2) == "07")
    #expect(Format.zeroPadded(-7, width: 2) == "-7")
    #expect(Format.zeroPadded(-7, width: 4) == "-007")
    #expect(Format.zeroPadded(2026, width: 4) == "2026")
    #expect(Format.zeroPadded(Int32(5), width: 4) == "0005")
    #expect(Format.zeroPadded(123_456, width: 2) == "123456")
    #expect(Format.hex(UInt8(255), width: 2) == "ff")
    #expect(Format.hex(UInt8(10), width: 2) == "0a")
    #expect(Format.hex(UInt32(0x1F600), width: 4, uppercase: true) == "1F600")
    #expect(Format.hex(UInt32(0xE9), width: 4, uppercase: true) == "00E9")
  }

  @Test func paddingToALength() {
    #expect(Format.padded("abc", toLength: 5) == "abc  ")
    #expect(Format.padded("abcdef", toLength: 4) == "abcd")
    #expect(Format.padded("abc", toLength: 3) == "abc")
  }

  @Test func httpDates() {
    // RFC 9110's example: 6 November 1994 is 9,075 days after 1970-01-01.
    let sixNovember: Int64 = 9_075 * 86_400
    let clock: Int64 = 8 * 3600 + 49 * 60 + 37
    #expect(HTTPDateText.parse("Sun, 06 Nov 1994 08:49:37 GMT") == sixNovember + clock)
    #expect(HTTPDateText.parse("Sun, 06 Nov 1994 08:49:37 +0100") == sixNovember + clock - 3600)
    #expect(HTTPDateText.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    #expect(HTTPDateText.parse("Sun, 31 Feb 1994 08:49:37 GMT") == nil)
    #expect(HTTPDateText.parse("") == nil)
  }
}
