import Merge
import Services
import Testing

@Suite struct ServiceOptionsTests {
  /// Rule 12 with thresholds from the settings: -60 s early, +900 s late.
  @Test(
    arguments: [(-61, DepartureStatus.early), (-60, .early), (-59, .onTime), (899, .onTime), (900, .late)] as [(Int64, DepartureStatus)])
  func delayClass(delay: Int64, expected: DepartureStatus) {
    var reconciler = ReconcilerOptions()
    reconciler.lateThresholdSeconds = 900
    #expect(ServiceOptions(reconciler: reconciler).status(delaySeconds: delay) == expected)
  }
}
