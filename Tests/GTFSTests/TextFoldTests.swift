import Testing
import TransitModel

/// The text helpers that stand in for Foundation's folding, trimming, ordering and path calls;
/// expected values written out by hand.
@Suite struct TextFoldTests {
  @Test func foldsCaseAccentsAndWidths() {
    #expect(TextFold.fold("Páirc Thíomóin") == "pairc thiomoin")
    #expect(TextFold.fold("STRAẞE Straße") == "strasse strasse")
    #expect(TextFold.fold("København Ørestad") == "kobenhavn orestad")
    #expect(TextFold.fold("Łódź Đakovo") == "lodz dakovo")
    #expect(TextFold.fold("Crème Brûlée ÇA") == "creme brulee ca")
    #expect(TextFold.fold("Cafe\u{301}") == "cafe")  // a combining accent, not a precomposed letter
    #expect(TextFold.fold("ＡＢＣ１２") == "abc12")
    #expect(TextFold.fold("ＡＢＣ", widths: false) == "ａｂｃ")
    #expect(TextFold.fold("Ἀθῆναι ΆΘΉΝΑ") == "αθηναι αθηνα")
    #expect(TextFold.fold("Йошкар-Ола Ёлки") == "иошкар-ола елки")
    #expect(TextFold.fold("Plain ASCII 42") == "plain ascii 42")
    #expect(TextFold.fold("東京") == "東京")
  }

  @Test func trimsSpacesAndTabsOnly() {
    #expect(" \t a b \u{00A0}".trimmingSpaces() == "a b")
    #expect("\n a \n".trimmingSpaces() == "\n a \n")
    #expect("\n a \r\n".trimmingSpacesAndNewlines() == "a")
    #expect("   ".trimmingSpaces() == "")
    #expect("x = 1"[...].trimmingSpaces() == "x = 1")
  }

  @Test func naturalOrderLikeFinder() {
    let sorted = ["10", "X10", "b", "2", "1A", "a", "X2", "B", "-", "Ä1", "01"].sorted(by: NaturalOrder.less)
    #expect(sorted == ["-", "01", "1A", "2", "10", "a", "Ä1", "b", "B", "X2", "X10"])
    #expect(!NaturalOrder.less("5", "5"))
  }

  @Test func pathsAsNSStringSplitThem() {
    #expect(PathText.lastComponent("/data/feeds/hart.zip") == "hart.zip")
    #expect(PathText.lastComponent("feeds/") == "feeds")
    #expect(PathText.lastComponent("/") == "/")
    #expect(PathText.deletingLastComponent("/data/feeds/hart.zip") == "/data/feeds")
    #expect(PathText.deletingLastComponent("/hart.zip") == "/")
    #expect(PathText.deletingLastComponent("hart.zip") == "")
    #expect(PathText.lastComponentWithoutExtension("/x/hart.2020.zip") == "hart.2020")
    #expect(PathText.lastComponentWithoutExtension("/x/.hidden") == ".hidden")
  }
}
