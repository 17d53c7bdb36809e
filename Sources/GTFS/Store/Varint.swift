extension [UInt8] {
  /// Appends `value` as a LEB128 varint: seven bits a byte, low bits first, the high bit set
  /// on every byte but the last (the pattern keys of ingest, the files kept beside the
  /// timetables).
  @inline(__always)
  mutating func appendVarint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    append(UInt8(rest))
  }
}
