import Services
import TransitModel

/// `--format TEMPLATE` and `--json` of `--line` (issue 39): the status line's parts as named
/// fields, so a status bar or prompt can lay them out its own way, and waybar's JSON protocol.
///
/// A template is text with fields in braces, `{route} {clock} {delay}`; `{{` and `}}` are a
/// literal brace. Every field is checked when the command line is read: an unknown one, or a
/// brace left open, is a usage error naming it (exit 2).
struct LineTemplate: Sendable, Equatable {
  /// The fields a template may name, in the order help lists them.
  enum Field: String, CaseIterable, Sendable {
    case route, headsign, clock, min, delay, status, leave, note, stop
  }

  /// Literal text, or a field to fill in.
  enum Piece: Sendable, Equatable {
    case text(String)
    case field(Field)
  }

  let pieces: [Piece]

  /// `{route} {headsign} ...`, for messages and help.
  static let fieldList = Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")

  /// Parses `template`, given as `option`.
  /// - Throws: `UsageError` for an unknown field, or a `{` or `}` that is not part of a field
  ///   or written twice.
  init(parsing template: String, option: String = "--format") throws(UsageError) {
    var pieces: [Piece] = []
    var literal = ""
    var index = template.startIndex
    func flush() {
      if !literal.isEmpty { pieces.append(.text(literal)) }
      literal = ""
    }
    while index < template.endIndex {
      let character = template[index]
      let next = template.index(after: index)
      if character == "}" {
        guard next < template.endIndex, template[next] == "}" else {
          throw UsageError("\(option): '}' without an opening '{' (write }} for a brace)")
        }
        literal.append("}")
        index = template.index(after: next)
        continue
      }
      guard character == "{" else {
        literal.append(character)
        index = next
        continue
      }
      if next < template.endIndex, template[next] == "{" {
        literal.append("{")
        index = template.index(after: next)
        continue
      }
      guard let close = template[next...].firstIndex(of: "}") else {
        throw UsageError("\(option): '{' without a closing '}' (write {{ for a brace)")
      }
      let name = String(template[next..<close])
      guard let field = Field(rawValue: name) else {
        let names = Field.allCases.map(\.rawValue)
        let hint = Suggestion.nearest(to: name, among: names).map { "; did you mean {\($0)}?" } ?? ""
        throw UsageError("\(option): unknown field {\(name)}\(hint) (the fields: \(Self.fieldList))")
      }
      flush()
      pieces.append(.field(field))
      index = template.index(after: close)
    }
    flush()
    self.pieces = pieces
  }

  /// The template with each field replaced by its value in `fields`.
  func filled(_ fields: StatusLine.Fields) -> String {
    pieces.map { piece in
      switch piece {
      case .text(let text): text
      case .field(let field): fields.value(of: field)
      }
    }.joined()
  }
}

extension StatusLine {
  static let format = Option<LineTemplate?>.single(
    OptionSpec(
      "--format", value: "TEMPLATE",
      help:
        "With --line: lay the line out from fields, e.g. '{route} {clock} {delay}': \(LineTemplate.fieldList) (see above)")
  ) { text, option throws(UsageError) in try LineTemplate(parsing: text, option: option) }

  /// What help says about --format and --line --json (the departures and commute screens).
  static let formatDiscussion = """
    --format TEMPLATE lays the --line out from fields: {route} (27), {headsign} (Crumlin
    Hospital), {clock} (07:53), {min} (minutes until it leaves: 13), {delay} (+3, -1, sched,
    or nothing when on the minute), {status} (on time, late, early, scheduled, added),
    {leave} (leave in 6 min, leave now, run; or the countdown: in 13 min, now) and {note}
    (feed 5 min old, offline; or nothing), {stop} (on a board of several stops or a complex:
    which one it leaves from, where the route does not tell; else nothing); {{ and }} are
    braces. The default is '{route} {clock} {delay} · {stop} · {leave} · {note}' without the
    parts that are empty. When nothing leaves, the line is the "no 27 before 09:40" message
    whatever the template.
    --line --json prints one line of JSON for waybar's custom module: text (the line, or the
    template's), tooltip, and class and alt (on-time, late, early, scheduled, added, none).
    """
}
