/// Delays as riders read them: whole minutes of the delay's size, rounded half up (89 s is
/// 1 min, 90 s is 2), so that every view of a departure says the same number.
public enum DelayRounding {
  /// The minutes `seconds` of delay (or earliness) are shown as, without a sign.
  public static func minutes(_ seconds: Int64) -> Int64 {
    seconds == .min ? Int64.max / 60 : (abs(seconds) + 30) / 60
  }
}
