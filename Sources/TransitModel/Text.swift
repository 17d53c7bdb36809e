/// Case, accent and width folding for comparing names: "Páirc Thíomóin" and "PAIRC THIOMOIN" both
/// become "pairc thiomoin", "Straße" "strasse", "Ｋ１" "k1". Letters with accents lose them (by
/// their Unicode decomposition, table below), a few letters with a stroke fold to their base
/// (ø → o, đ → d, ł → l, ħ → h, ŧ → t), combining marks are dropped, full-width ASCII becomes
/// ASCII, and the rest is lower-cased.
public enum TextFold {
  /// `text` folded (see the type). ASCII text is only lower-cased.
  public static func fold(_ text: some StringProtocol, widths: Bool = true) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar.value < 0x80 {
        result.append(scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(scalar.value + 32)! : scalar)
      } else if let folded = table[scalar.value] {
        result.append(contentsOf: folded.unicodeScalars)
      } else if scalar.properties.generalCategory == .nonspacingMark {
        continue
      } else if widths, scalar.value >= 0xFF01, scalar.value <= 0xFF5E, let narrow = Unicode.Scalar(scalar.value - 0xFEE0) {
        result.append(contentsOf: String(narrow).lowercased().unicodeScalars)
      } else {
        result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
      }
    }
    return String(result)
  }

  /// Letters whose folded form is not just their lower case: each entry is the letter, then what
  /// it folds to. Generated from Unicode decompositions (Latin-1, Latin Extended-A/B, Greek,
  /// Cyrillic, Latin Extended Additional, Greek Extended): the base letters without combining
  /// marks, case-folded; plus the letters with a stroke.
  static let table: [UInt32: String] = {
    var table: [UInt32: String] = [:]
    for line in entries {
      for entry in line.split(separator: " ") {
        let scalars = entry.unicodeScalars
        table[scalars.first!.value] = String(String.UnicodeScalarView(scalars.dropFirst()))
      }
    }
    return table
  }()

  private static let entries = [
    "Àa Áa Âa Ãa Äa Åa Çc Èe Ée Êe Ëe Ìi Íi Îi Ïi Ñn Òo Óo Ôo Õo Öo Øo Ùu Úu Ûu Üu Ýy ßss àa áa âa ãa äa",
    "åa çc èe ée êe ëe ìi íi îi ïi ñn òo óo ôo õo öo øo ùu úu ûu üu ýy ÿy Āa āa Ăa ăa Ąa ąa Ćc ćc Ĉc ĉc",
    "Ċc ċc Čc čc Ďd ďd Đd đd Ēe ēe Ĕe ĕe Ėe ėe Ęe ęe Ěe ěe Ĝg ĝg Ğg ğg Ġg ġg Ģg ģg Ĥh ĥh Ħh ħh Ĩi ĩi Īi",
    "īi Ĭi ĭi Įi įi İi ıi Ĵj ĵj Ķk ķk Ĺl ĺl Ļl ļl Ľl ľl Łl łl Ńn ńn Ņn ņn Ňn ňn ŉʼn Ōo ōo Ŏo ŏo Őo őo Ŕr",
    "ŕr Ŗr ŗr Řr řr Śs śs Ŝs ŝs Şs şs Šs šs Ţt ţt Ťt ťt Ŧt ŧt Ũu ũu Ūu ūu Ŭu ŭu Ůu ůu Űu űu Ųu ųu Ŵw ŵw",
    "Ŷy ŷy Ÿy Źz źz Żz żz Žz žz ſs Ơo ơo Ưu ưu Ǎa ǎa Ǐi ǐi Ǒo ǒo Ǔu ǔu Ǖu ǖu Ǘu ǘu Ǚu ǚu Ǜu ǜu Ǟa ǟa Ǡa",
    "ǡa Ǣæ ǣæ Ǧg ǧg Ǩk ǩk Ǫo ǫo Ǭo ǭo Ǯʒ ǯʒ ǰj Ǵg ǵg Ǹn ǹn Ǻa ǻa Ǽæ ǽæ Ǿø ǿø Ȁa ȁa Ȃa ȃa Ȅe ȅe Ȇe ȇe Ȉi",
    "ȉi Ȋi ȋi Ȍo ȍo Ȏo ȏo Ȑr ȑr Ȓr ȓr Ȕu ȕu Ȗu ȗu Șs șs Țt țt Ȟh ȟh Ȧa ȧa Ȩe ȩe Ȫo ȫo Ȭo ȭo Ȯo ȯo Ȱo ȱo",
    "Ȳy ȳy ʹʹ Άα Έε Ήη Ίι Όο Ύυ Ώω ΐι Ϊι Ϋυ άα έε ήη ίι ΰυ ςσ ϊι ϋυ όο ύυ ώω ϐβ ϑθ ϓϒ ϔϒ ϕφ ϖπ ϰκ ϱρ ϵε",
    "Ѐе Ёе Ѓг Їі Ќк Ѝи Ўу Йи йи ѐе ёе ѓг їі ќк ѝи ўу Ѷѵ ѷѵ Ӂж ӂж Ӑа ӑа Ӓа ӓа Ӗе ӗе Ӛә ӛә Ӝж ӝж Ӟз ӟз Ӣи",
    "ӣи Ӥи ӥи Ӧо ӧо Ӫө ӫө Ӭэ ӭэ Ӯу ӯу Ӱу ӱу Ӳу ӳу Ӵч ӵч Ӹы ӹы Ḁa ḁa Ḃb ḃb Ḅb ḅb Ḇb ḇb Ḉc ḉc Ḋd ḋd Ḍd ḍd",
    "Ḏd ḏd Ḑd ḑd Ḓd ḓd Ḕe ḕe Ḗe ḗe Ḙe ḙe Ḛe ḛe Ḝe ḝe Ḟf ḟf Ḡg ḡg Ḣh ḣh Ḥh ḥh Ḧh ḧh Ḩh ḩh Ḫh ḫh Ḭi ḭi Ḯi",
    "ḯi Ḱk ḱk Ḳk ḳk Ḵk ḵk Ḷl ḷl Ḹl ḹl Ḻl ḻl Ḽl ḽl Ḿm ḿm Ṁm ṁm Ṃm ṃm Ṅn ṅn Ṇn ṇn Ṉn ṉn Ṋn ṋn Ṍo ṍo Ṏo ṏo",
    "Ṑo ṑo Ṓo ṓo Ṕp ṕp Ṗp ṗp Ṙr ṙr Ṛr ṛr Ṝr ṝr Ṟr ṟr Ṡs ṡs Ṣs ṣs Ṥs ṥs Ṧs ṧs Ṩs ṩs Ṫt ṫt Ṭt ṭt Ṯt ṯt Ṱt",
    "ṱt Ṳu ṳu Ṵu ṵu Ṷu ṷu Ṹu ṹu Ṻu ṻu Ṽv ṽv Ṿv ṿv Ẁw ẁw Ẃw ẃw Ẅw ẅw Ẇw ẇw Ẉw ẉw Ẋx ẋx Ẍx ẍx Ẏy ẏy Ẑz ẑz",
    "Ẓz ẓz Ẕz ẕz ẖh ẗt ẘw ẙy ẚaʾ ẛs ẞss Ạa ạa Ảa ảa Ấa ấa Ầa ầa Ẩa ẩa Ẫa ẫa Ậa ậa Ắa ắa Ằa ằa Ẳa ẳa Ẵa ẵa",
    "Ặa ặa Ẹe ẹe Ẻe ẻe Ẽe ẽe Ếe ếe Ềe ềe Ểe ểe Ễe ễe Ệe ệe Ỉi ỉi Ịi ịi Ọo ọo Ỏo ỏo Ốo ốo Ồo ồo Ổo ổo Ỗo",
    "ỗo Ộo ộo Ớo ớo Ờo ờo Ởo ởo Ỡo ỡo Ợo ợo Ụu ụu Ủu ủu Ứu ứu Ừu ừu Ửu ửu Ữu ữu Ựu ựu Ỳy ỳy Ỵy ỵy Ỷy ỷy",
    "Ỹy ỹy ἀα ἁα ἂα ἃα ἄα ἅα ἆα ἇα Ἀα Ἁα Ἂα Ἃα Ἄα Ἅα Ἆα Ἇα ἐε ἑε ἒε ἓε ἔε ἕε Ἐε Ἑε Ἒε Ἓε Ἔε Ἕε ἠη ἡη ἢη",
    "ἣη ἤη ἥη ἦη ἧη Ἠη Ἡη Ἢη Ἣη Ἤη Ἥη Ἦη Ἧη ἰι ἱι ἲι ἳι ἴι ἵι ἶι ἷι Ἰι Ἱι Ἲι Ἳι Ἴι Ἵι Ἶι Ἷι ὀο ὁο ὂο ὃο",
    "ὄο ὅο Ὀο Ὁο Ὂο Ὃο Ὄο Ὅο ὐυ ὑυ ὒυ ὓυ ὔυ ὕυ ὖυ ὗυ Ὑυ Ὓυ Ὕυ Ὗυ ὠω ὡω ὢω ὣω ὤω ὥω ὦω ὧω Ὠω Ὡω Ὢω Ὣω Ὤω",
    "Ὥω Ὦω Ὧω ὰα άα ὲε έε ὴη ήη ὶι ίι ὸο όο ὺυ ύυ ὼω ώω ᾀα ᾁα ᾂα ᾃα ᾄα ᾅα ᾆα ᾇα ᾈα ᾉα ᾊα ᾋα ᾌα ᾍα ᾎα ᾏα",
    "ᾐη ᾑη ᾒη ᾓη ᾔη ᾕη ᾖη ᾗη ᾘη ᾙη ᾚη ᾛη ᾜη ᾝη ᾞη ᾟη ᾠω ᾡω ᾢω ᾣω ᾤω ᾥω ᾦω ᾧω ᾨω ᾩω ᾪω ᾫω ᾬω ᾭω ᾮω ᾯω ᾰα",
    "ᾱα ᾲα ᾳα ᾴα ᾶα ᾷα Ᾰα Ᾱα Ὰα Άα ᾼα ιι ῂη ῃη ῄη ῆη ῇη Ὲε Έε Ὴη Ήη ῌη ῐι ῑι ῒι ΐι ῖι ῗι Ῐι Ῑι Ὶι Ίι ῠυ",
    "ῡυ ῢυ ΰυ ῤρ ῥρ ῦυ ῧυ Ῠυ Ῡυ Ὺυ Ύυ Ῥρ ῲω ῳω ῴω ῶω ῷω Ὸο Όο Ὼω Ώω ῼω",
  ]
}

extension StringProtocol {
  /// The text without spaces and tabs at either end (Foundation's `.whitespaces`: tab and the
  /// Unicode space separators).
  public func trimmingSpaces() -> String { trimming(Self.isSpace) }

  /// The text without spaces, tabs and line breaks at either end (`.whitespacesAndNewlines`).
  public func trimmingSpacesAndNewlines() -> String {
    trimming { Self.isSpace($0) || (0x0A...0x0D).contains($0.value) || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x2029 }
  }

  private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !drop($0) })!
    return String(String.UnicodeScalarView(scalars[first...last]))
  }

  private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
  }
}

extension StringProtocol {
  /// Whether `other` occurs in the text, comparing UTF-8 bytes (what Foundation's `contains`
  /// did for these ASCII needles, without the generic string-processing machinery, whose first
  /// use costs a process some 300,000 instructions).
  public func containsText(_ other: some StringProtocol) -> Bool {
    let needle = Array(other.utf8)
    guard !needle.isEmpty else { return true }
    let haystack = Array(utf8)
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
      if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
    }
    return false
  }
}

/// The order Finder and `localizedStandardCompare` give names: numbers by value ("2" before
/// "10"), case and accents ignored, punctuation before digits before letters; names equal in all
/// that are ordered by their text, a lower-case letter before its capital.
public enum NaturalOrder {
  /// Whether `a` comes before `b`. Folds both: to sort many names, sort by `Key`, which folds
  /// each once.
  public static func less(_ a: String, _ b: String) -> Bool { Key(a) < Key(b) }

  /// A name with its folded form worked out once, ordered as `less` orders names.
  public struct Key: Comparable, Sendable {
    public let text: String
    let folded: [Unicode.Scalar]

    public init(_ text: String) {
      self.text = text
      folded = Array(TextFold.fold(text).unicodeScalars)
    }

    public static func == (a: Key, b: Key) -> Bool { a.text == b.text }

    public static func < (a: Key, b: Key) -> Bool {
      if let less = compare(a.folded, b.folded) { return less }
      // Equal but for case and accents: lowercase first, then by code point.
      for (x, y) in zip(a.text.unicodeScalars, b.text.unicodeScalars) where x != y {
        let lowerX = x.properties.isLowercase, lowerY = y.properties.isLowercase
        return lowerX != lowerY ? lowerX : x.value < y.value
      }
      return a.text.unicodeScalars.count < b.text.unicodeScalars.count
    }
  }

  /// Whether folded `x` sorts before folded `y`; nil when they are equal so.
  static func compare(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Bool? {
    var i = 0, j = 0
    while i < x.count, j < y.count {
      if isDigit(x[i]), isDigit(y[j]) {
        let startI = i, startJ = j
        while i < x.count, isDigit(x[i]) { i += 1 }
        while j < y.count, isDigit(y[j]) { j += 1 }
        let left = x[startI..<i].drop { $0 == "0" }, right = y[startJ..<j].drop { $0 == "0" }
        if left.count != right.count { return left.count < right.count }
        for (l, r) in zip(left, right) where l != r { return l.value < r.value }
        continue
      }
      if x[i] != y[j] {
        let rankX = rank(x[i]), rankY = rank(y[j])
        return rankX != rankY ? rankX < rankY : x[i].value < y[j].value
      }
      i += 1
      j += 1
    }
    if i < x.count || j < y.count { return j < y.count }
    return nil
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

  /// Spaces and punctuation 0, digits 1, everything else (letters) 2.
  private static func rank(_ scalar: Unicode.Scalar) -> Int {
    if isDigit(scalar) { return 1 }
    let category = scalar.properties.generalCategory
    switch category {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber,
      .otherNumber:
      return 2
    default: return 0
    }
  }
}

/// File-name arithmetic on `/`-separated paths, as `NSString` did it.
public enum PathText {
  /// The last component: `a/b.zip` gives `b.zip`, `a/b/` gives `b`, `/` gives `/`.
  public static func lastComponent(_ path: String) -> String {
    let parts = path.split(separator: "/")
    guard let last = parts.last else { return path.hasPrefix("/") ? "/" : "" }
    return String(last)
  }

  /// All but the last component: `a/b.zip` gives `a`, `/a` gives `/`, `a` gives an empty path.
  public static func deletingLastComponent(_ path: String) -> String {
    var parts = path.split(separator: "/")
    guard !parts.isEmpty else { return path.hasPrefix("/") ? "/" : "" }
    parts.removeLast()
    let joined = parts.joined(separator: "/")
    return path.hasPrefix("/") ? "/" + joined : joined
  }

  /// The last component without its extension: `a/b.tar.zip` gives `b.tar`; `.hidden` stays.
  public static func lastComponentWithoutExtension(_ path: String) -> String {
    let name = lastComponent(path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }
}
