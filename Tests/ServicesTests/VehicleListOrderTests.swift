import Services
import Testing
import TransitModel

/// The vehicle list's one order (vehicles, vehicles --watch, --json): live before estimated,
/// then route with numbers in numeric order, destination, vehicle.
@Suite struct VehicleListOrderTests {
  func view(_ route: String, _ headsign: String, _ vehicle: String?, estimated: Bool = false) -> VehicleView {
    var view = VehicleView()
    view.routeShortName = route
    view.headsign = headsign
    view.vehicleID = vehicle
    view.isEstimated = estimated
    return view
  }

  @Test func liveFirstThenRouteNumbersInNumericOrder() {
    let views = [
      view("10", "Zoo", "7"), view("2", "Airport", "9", estimated: true), view("2", "Town", "3"),
      view("2", "Airport", "5"), view("L3", "San Francisco", "310"), view("2", "Airport", "4"),
    ]
    let sorted = views.sorted(by: VehicleView.listOrder).map { "\($0.routeShortName!) \($0.headsign!) \($0.vehicleID!)" }
    #expect(sorted == ["2 Airport 4", "2 Airport 5", "2 Town 3", "10 Zoo 7", "L3 San Francisco 310", "2 Airport 9"])
    // The list's own sort (route names folded once) gives the same order.
    #expect(
      VehicleView.sortedForList(views).map { "\($0.routeShortName!) \($0.headsign!) \($0.vehicleID!)" }
        == ["2 Airport 4", "2 Airport 5", "2 Town 3", "10 Zoo 7", "L3 San Francisco 310", "2 Airport 9"])
  }
}
