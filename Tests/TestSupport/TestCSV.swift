/// A CSV line split into its fields the simple way tests need (quotes toggle, no escaped
/// quotes inside a field): the tests' own reading of a feed's files, independent of the
/// project's CSV reader.
public enum TestCSV {
  public static func fields<Line: StringProtocol>(of line: Line) -> [String] {
    var fields: [String] = []
    var field = ""
    var quoted = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
      } else if character == "," && !quoted {
        fields.append(field)
        field = ""
      } else {
        field.append(character)
      }
    }
    fields.append(field)
    return fields
  }
}
