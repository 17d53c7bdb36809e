import Merge
import Services
import Testing
import TransitModel

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

@Suite struct DefaultThresholdsTests {
  /// Rule 12's defaults, the ones a rider gets until `config set early|late`: early at or below
  /// -60 s, late at or above +120 s (DelayThresholds.standard, the one place that decides).
  @Test(
    arguments: [(-61, DepartureStatus.early), (-60, .early), (-59, .onTime), (0, .onTime), (119, .onTime), (120, .late)]
      as [(Int64, DepartureStatus)])
  func defaults(delay: Int64, expected: DepartureStatus) {
    #expect(ServiceOptions().status(delaySeconds: delay) == expected)
  }
}
