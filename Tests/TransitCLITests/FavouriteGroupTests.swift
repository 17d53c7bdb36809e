import Foundation
import TestSupport
import Testing

/// Favourites of several stops under one name, and of a station complex (issue 32).
@Suite struct FavouriteGroupTests {
  let home = DemoHome()
  let tuesday = "2026-12-01T07:40:00Z"

  func json(_ result: CLIResult) throws -> Any { try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) }

  @Test func aGroupIsOneFavouriteWithOneBoard() throws {
    let added = home.run(["fav", "add", "corner", "4529", "4530", "--name", "Main Rd corner"])
    #expect(added.code == 0, "\(added.stderr)")
    #expect(added.stdout == "added favourite corner: Main Rd corner (4529, 4530)\n")
    let list = try #require(try json(home.run(["fav", "list", "--json"])) as? [[String: Any]])
    #expect(list.count == 1)
    #expect(list.first?["group"] as? String == "corner")
    #expect(list.first?["label"] as? String == "Main Rd corner")
    #expect(((list.first?["stops"] as? [[String: Any]]) ?? []).compactMap { $0["stop_id"] as? String } == ["TD4529", "TD4530"])

    // The card's departures are the first three of the two stops' one board.
    let card = try #require(try json(home.run(["--json", "--now", tuesday])) as? [String: Any])
    let favourites = try #require(card["favourites"] as? [[String: Any]])
    #expect(favourites.count == 1)
    let board = try #require(
      try json(home.run(["departures", "4529", "4530", "--json", "--now", tuesday, "--window", "1440", "--limit", "3"]))
        as? [String: Any])
    func keys(_ rows: Any?) -> [String] {
      ((rows as? [[String: Any]]) ?? []).map { "\($0["trip_id"] as? String ?? "") \($0["stop_id"] as? String ?? "")" }
    }
    #expect(keys(favourites[0]["departures"]) == keys(board["departures"]))
    #expect(keys(favourites[0]["departures"]).count == 3)

    let removed = home.run(["fav", "remove", "Corner"])
    #expect(removed.stdout == "removed favourite corner (2 stops)\n")
    #expect(try (json(home.run(["fav", "list", "--json"])) as? [Any])?.isEmpty == true)
  }

  @Test func aComplexIsSavedAsAGroupOfItsStops() throws {
    let added = home.run(["fav", "add", "Belgard Road"])
    #expect(added.code == 0, "\(added.stderr)")
    #expect(added.stdout == "added favourite Belgard Road: Belgard Road (4564, 4565)\n")
    let text = home.run(["--now", tuesday, "--from", "53.2875,-6.3664"])
    #expect(text.stdout.contains("\nBelgard Road · 2 stops · "))
  }

  @Test func groupsNeedANameThatIsNotAStop() {
    let result = home.run(["fav", "add", "4529", "4530"])
    #expect(result.code == 2)
    #expect(result.stderr.hasPrefix("transit: favourite name '4529' must start with a letter"))
    let label = home.run(["fav", "add", "4529", "--name", "x"])
    #expect(label.code == 2)
  }
}
