import GTFSRealtime

/// Alert texts for people: the translation in the language wanted, and HTML made plain.
///
/// Feeds send HTML in `description_text` although the spec asks for plain text, so every text
/// shown goes through `plain(_:)`. Written by hand: `Merge` has no Foundation.
public enum AlertText {
  /// The translation of `string` in `language`, else the one without a language (the
  /// untranslated text), else the first; nil when there is none.
  ///
  /// A BCP 47 tag matches exactly (ignoring case), else by its primary subtag: "en" picks
  /// "en-US", and "en-GB" picks "en" when no "en-GB" is sent.
  public static func translation(_ string: TranslatedString?, language: String?) -> String? {
    guard let translations = string?.translations.filter({ $0.text != nil }), !translations.isEmpty else { return nil }
    if let language, !language.isEmpty {
      let wanted = language.lowercased().replacing("_", with: "-")
      if let exact = translations.first(where: { $0.language?.lowercased().replacing("_", with: "-") == wanted }) {
        return exact.text
      }
      let primary = primarySubtag(wanted)
      if let close = translations.first(where: { $0.language.map { primarySubtag($0.lowercased()) } == primary }) {
        return close.text
      }
    }
    return (translations.first { $0.language == nil || $0.language == "" } ?? translations[0]).text
  }

  /// "en" of "en-us".
  static func primarySubtag(_ tag: String) -> String {
    String(tag.prefix { $0 != "-" && $0 != "_" })
  }

  // MARK: - HTML to text

  /// `text` with HTML tags removed, `<br>`, `<p>`, `<div>` and list items turned into line
  /// breaks, common character references decoded (`&amp;`, `&nbsp;`, `&#8217;`, `&#x2019;`),
  /// runs of spaces collapsed and blank lines limited to one. Text without tags keeps its own
  /// line breaks; in text with tags, line breaks in the source are spaces, as in a browser.
  public static func plain(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    let isHTML = containsTag(scalars)
    var out: [Unicode.Scalar] = []
    var index = 0
    var skipping: String?  // inside <script> or <style>
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<", let (tag, end) = readTag(scalars, from: index) {
        index = end
        if let open = skipping {
          if tag.isClosing && tag.name == open { skipping = nil }
          continue
        }
        switch tag.name {
        case "script", "style":
          if !tag.isClosing && !tag.isSelfClosing { skipping = tag.name }
        case "br":
          out.append("\n")
        case "p", "div", "ul", "ol", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote":
          out.append(contentsOf: ["\n", "\n"])
        case "li":
          if !tag.isClosing { out.append(contentsOf: ["\n", "-", " "]) }
        case "td", "th":
          if !tag.isClosing { out.append(" ") }
        default:
          break
        }
        continue
      }
      index += 1
      if skipping != nil { continue }
      if scalar == "&", let (decoded, end) = readEntity(scalars, from: index - 1) {
        out.append(decoded)
        index = end
        continue
      }
      if isHTML && (scalar == "\n" || scalar == "\r" || scalar == "\t") {
        out.append(" ")
      } else if scalar == "\r" {
        if index < scalars.count && scalars[index] == "\n" { continue }
        out.append("\n")
      } else {
        out.append(scalar)
      }
    }
    return tidy(out)
  }

  /// Collapses spaces, trims each line, and keeps at most one blank line between paragraphs.
  static func tidy(_ scalars: [Unicode.Scalar]) -> String {
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    func endLine() {
      var line = String(current)
      while line.last == " " { line.removeLast() }
      lines.append(line)
      current = String.UnicodeScalarView()
    }
    for scalar in scalars {
      if scalar == "\n" {
        endLine()
      } else if scalar == " " || scalar == "\t" || scalar == "\u{A0}" {
        if let last = current.last, last != " " { current.append(" ") }
      } else {
        current.append(scalar)
      }
    }
    endLine()
    var result: [String] = []
    for line in lines {
      if line.isEmpty && (result.isEmpty || result.last == "") { continue }
      result.append(line)
    }
    while result.last == "" { result.removeLast() }
    return result.joined(separator: "\n")
  }

  struct Tag {
    var name: String
    var isClosing: Bool
    var isSelfClosing: Bool
  }

  /// Whether the text holds at least one thing that reads as a tag (`<b>`, `</p>`, `<br/>`).
  static func containsTag(_ scalars: [Unicode.Scalar]) -> Bool {
    var index = 0
    while index < scalars.count {
      if scalars[index] == "<", readTag(scalars, from: index) != nil { return true }
      index += 1
    }
    return false
  }

  /// A tag starting at `start` (`<` then a letter, `/`, or `!`), and the index after its `>`;
  /// nil when the `<` is plain text ("a < b").
  static func readTag(_ scalars: [Unicode.Scalar], from start: Int) -> (Tag, Int)? {
    var index = start + 1
    guard index < scalars.count else { return nil }
    var isClosing = false
    if scalars[index] == "!" {
      // A comment or doctype: up to "-->" or ">".
      let isComment = index + 2 < scalars.count && scalars[index + 1] == "-" && scalars[index + 2] == "-"
      var end = index
      while end < scalars.count {
        if scalars[end] == ">" && (!isComment || (end >= 2 && scalars[end - 1] == "-" && scalars[end - 2] == "-")) {
          return (Tag(name: "!", isClosing: false, isSelfClosing: true), end + 1)
        }
        if !isComment && scalars[end] == "<" { return nil }
        end += 1
      }
      // An unterminated comment hides the rest, as in a browser (and keeps this linear).
      return isComment ? (Tag(name: "!", isClosing: false, isSelfClosing: true), scalars.count) : nil
    }
    if scalars[index] == "/" {
      isClosing = true
      index += 1
    }
    guard index < scalars.count, scalars[index].properties.isAlphabetic, scalars[index].isASCII else { return nil }
    var name = ""
    while index < scalars.count, scalars[index].isASCII, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
      name.unicodeScalars.append(scalars[index])
      index += 1
    }
    guard index < scalars.count else { return nil }
    let next = scalars[index]
    guard next == ">" || next == "/" || next == " " || next == "\t" || next == "\n" || next == "\r" else { return nil }
    var quote: Unicode.Scalar?
    while index < scalars.count {
      let scalar = scalars[index]
      if let open = quote {
        if scalar == open { quote = nil }
      } else if scalar == "\"" || scalar == "'" {
        quote = scalar
      } else if scalar == ">" {
        let selfClosing = index > start && scalars[index - 1] == "/"
        return (Tag(name: name.lowercased(), isClosing: isClosing, isSelfClosing: selfClosing), index + 1)
      } else if scalar == "<" {
        return nil
      }
      index += 1
    }
    return nil
  }

  /// Named references decoded; others are left as written.
  static let entities: [String: Unicode.Scalar] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "\u{2013}",
    "mdash": "\u{2014}", "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
    "hellip": "\u{2026}", "bull": "\u{2022}", "middot": "\u{B7}", "copy": "\u{A9}", "reg": "\u{AE}",
    "deg": "\u{B0}", "eacute": "\u{E9}", "egrave": "\u{E8}", "aacute": "\u{E1}", "oacute": "\u{F3}",
    "iacute": "\u{ED}", "uacute": "\u{FA}", "ntilde": "\u{F1}", "ccedil": "\u{E7}", "uuml": "\u{FC}",
    "ouml": "\u{F6}", "auml": "\u{E4}", "rarr": "\u{2192}", "larr": "\u{2190}", "harr": "\u{2194}",
  ]

  /// A character reference at `start` (`&name;`, `&#NNN;`, `&#xHH;`) and the index after it.
  static func readEntity(_ scalars: [Unicode.Scalar], from start: Int) -> (Unicode.Scalar, Int)? {
    var index = start + 1
    var body = ""
    while index < scalars.count, scalars[index] != ";", body.unicodeScalars.count < 10 {
      guard scalars[index].isASCII, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) || scalars[index] == "#"
      else { return nil }
      body.unicodeScalars.append(scalars[index])
      index += 1
    }
    guard index < scalars.count, scalars[index] == ";", !body.isEmpty else { return nil }
    if body.hasPrefix("#") {
      let digits = body.dropFirst()
      let value: UInt32?
      if digits.hasPrefix("x") || digits.hasPrefix("X") {
        value = UInt32(digits.dropFirst(), radix: 16)
      } else {
        value = UInt32(digits, radix: 10)
      }
      guard let value, let scalar = Unicode.Scalar(value) else { return nil }
      return (scalar == "\u{A0}" ? " " : scalar, index + 1)
    }
    guard let scalar = entities[body] ?? entities[body.lowercased()] else { return nil }
    return (scalar, index + 1)
  }
}
