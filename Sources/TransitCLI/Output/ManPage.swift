import FoundationEssentials

/// `transit.1`: the manual page in roff (man macros), built from the same command specs as
/// `--help` and the completion scripts, so it cannot drift from them.
enum ManPage {
  /// The whole page, dated `date` (YYYY-MM-DD): the same transit and date give the same page.
  static func roff(commands: [CommandSpec], home: CommandSpec, globals: [OptionSpec], date: String) -> String {
    var page = Page()
    page.raw(".TH TRANSIT 1 \(date) \"transit \(Transit.version)\" \"User Commands\"")
    page.section("NAME")
    page.raw("transit \\- live departures from GTFS timetables and GTFS\\-Realtime feeds")

    page.section("SYNOPSIS")
    page.raw(".B transit")
    page.raw(".I COMMAND")
    page.raw(".RI [ ARGUMENTS ]")
    page.raw(".RI [ OPTIONS ]")
    page.raw(".br")
    page.raw(".B transit")
    page.raw(".RB [ \\-\\-from")
    page.raw(".IR LAT,LON ]")
    page.raw(".br")
    page.raw(".B transit")
    page.raw(".BR \\-\\-help \" | \" \\-\\-version")

    page.section("DESCRIPTION")
    page.paragraphs(
      """
      transit loads any agency's GTFS timetable (a ZIP, a folder of .txt files, or a URL) into
      SQLite, reads the agency's GTFS-Realtime feeds (trip updates, vehicle positions, service
      alerts) with its own protobuf decoder, and merges the two into live departures, vehicle
      positions, alerts and route status. It works offline from the timetables held; realtime
      comes from local captures (--realtime FILE) or from the feeds configured with
      'transit feeds add'.

      Results go to standard output and diagnostics to standard error. Every command accepts
      --json for one JSON document instead of text (never mixed with text), and --now TIME,
      which makes any output reproducible. Colour and cursor movement are used only on a
      terminal, and never with --no-color, NO_COLOR or TERM=dumb. With TERM=dumb or a locale
      that is not UTF-8 (LC_ALL=C) the symbols drawn (·, →, arrows, lines, braille maps) are
      plain ASCII, one character for one. Long-running work (ingest,
      feeds check, record) shows a progress bar with its rate and the time left on a terminal,
      and only its final line when piped or run from cron.

      Run with no command, transit lists your favourite stops ('transit fav add'), nearest
      first, each with its next three departures.
      """)

    page.section("COMMANDS")
    page.command(home, title: "transit [options]")
    for spec in commands { page.command(spec, title: spec.usage) }

    page.section("GLOBAL OPTIONS")
    page.text("These options are accepted by every command.")
    page.options(globals)
    page.tagged("\\-\\-version", "Print the version of transit and of the SQLite, libcurl and zlib libraries it runs on.")

    page.section("ENVIRONMENT")
    let environment: [(String, String)] = [
      ("TRANSIT_HOME", "Keep timetables, user data, settings and the cache in this one folder (--data-dir overrides)."),
      ("XDG_DATA_HOME", "Timetables and user.sqlite go in $XDG_DATA_HOME/transit (default ~/.local/share/transit)."),
      ("XDG_CONFIG_HOME", "Settings (config.toml) and feeds.json go in $XDG_CONFIG_HOME/transit (default ~/.config/transit)."),
      ("XDG_CACHE_HOME", "Realtime snapshots, downloads and HTTP validators go in $XDG_CACHE_HOME/transit (default ~/.cache/transit)."),
      ("TRANSIT_LOCATION", "Where you are, as LAT,LON, when no position is given and no place 'home' is saved."),
      ("TRANSIT_CLOCK", "12 or 24: how clock times are shown (overrides 'transit config set clock')."),
      ("NO_COLOR", "When set (to anything), no colours (as --no-color)."),
      ("TERM", "dumb: no colours, no progress bar, no full-screen view, plain ASCII symbols."),
      (
        "LC_ALL, LC_MESSAGES, LANG",
        "The language of alert texts when --lang and the language setting are not given; with LC_TIME, whether clock times are 12- or 24-hour; a locale that is not UTF-8 (LC_ALL, LC_CTYPE, LANG) gets plain ASCII symbols."
      ),
      ("TRANSIT_FETCH_TIMEOUT", "Seconds a download may take in all (default: libcurl's settings in transit)."),
      ("TRANSIT_FETCH_RETRIES", "How often a failed fetch is retried (0 to 10)."),
      (
        "TRANSIT_CA_BUNDLE",
        "A PEM file of certificate authorities to trust for https instead of the system's (a private CA or a company proxy)."
      ),
      (
        "API keys",
        "A feed's header or URL may name an environment variable ('x-api-key: $MTA_KEY'); it is read only when fetching, so keys never land in feeds.json, and they are never printed."
      ),
    ]
    for (name, text) in environment { page.tagged(bold(name), escape(text)) }

    page.section("FILES")
    let files: [(String, String)] = [
      (
        "$XDG_DATA_HOME/transit/feeds/NAME.sqlite",
        "The timetable of feed NAME, replaced whole by each ingest; the previous one is kept as NAME.sqlite.prev."
      ),
      ("$XDG_DATA_HOME/transit/user.sqlite", "Your favourites, places, commutes and the alerts already seen; ingest never touches it."),
      ("$XDG_CONFIG_HOME/transit/config.toml", "Settings ('transit config')."),
      ("$XDG_CONFIG_HOME/transit/feeds.json", "Configured feeds ('transit feeds'), mode 0600."),
      ("$XDG_CACHE_HOME/transit/", "Realtime snapshots, downloaded ZIPs and HTTP validators."),
    ]
    for (name, text) in files { page.tagged(italic(name), escape(text)) }
    page.text("With --data-dir DIR or TRANSIT_HOME=DIR, all of them are in DIR (the cache in DIR/cache).")

    page.section("EXIT STATUS")
    let codes: [(String, String)] = [
      ("0", "Success (also 'ingest --if-changed' when nothing changed)."),
      ("1", "A runtime failure: a bad feed, a missing file, a network error."),
      ("2", "A usage error: an unknown command or option, a missing or malformed argument."),
      ("3", "Not found: an unknown stop, route, trip, vehicle, feed or place."),
    ]
    for (code, text) in codes { page.tagged(bold(code), escape(text)) }

    page.section("EXAMPLES")
    let examples: [(String, String)] = [
      ("Load the bundled demo network and look around Tallaght:", "transit ingest Data/gtfs\ntransit stops near 53.2875,-6.3664 --limit 5"),
      (
        "Departures from a station, with the demo's realtime snapshot:",
        "transit departures TINT --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-tripupdates.pb"
      ),
      ("A daily timetable refresh from cron:", "10 4 * * *  transit ingest --if-changed --quiet"),
      ("Install the completions for bash:", "transit completions bash > ~/.local/share/bash-completion/completions/transit"),
    ]
    for (text, commands) in examples {
      page.text(text)
      page.preformatted(commands.split(separator: "\n").map(String.init))
    }

    page.section("SEE ALSO")
    page.raw("GTFS Schedule reference: https://gtfs.org/documentation/schedule/reference/")
    page.raw(".br")
    page.raw("GTFS Realtime reference: https://gtfs.org/documentation/realtime/reference/")
    return page.text
  }

  // MARK: - roff

  /// Escapes text for a roff text line: backslashes, minus signs (so options copy and paste
  /// as typed), a leading dot or quote (which would start a request), and anything beyond
  /// ASCII as a `\[uXXXX]` glyph.
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      case "♿": result += "[wheelchair]"  // groff has no glyph for these
      case "●": result += "*"
      case "○": result += "o"
      case _ where scalar.value > 0x7E:
        result += "\\[u" + Format.hex(scalar.value, width: 4, uppercase: true) + "]"
      default: result.unicodeScalars.append(scalar)
      }
    }
    if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
    return result
  }

  static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }
  static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

  /// A page under construction.
  struct Page {
    var text = ""
    /// Whether the last line was a heading, after which a paragraph needs no `.PP`.
    private var afterHeading = false

    mutating func raw(_ line: String) {
      text += line + "\n"
      afterHeading = line.hasPrefix(".SH") || line.hasPrefix(".SS")
    }

    mutating func section(_ title: String) { raw(".SH \(title)") }

    /// Starts a paragraph (not needed right after a heading).
    mutating func paragraph() {
      if !afterHeading { raw(".PP") }
    }

    /// One paragraph of prose, filled by the formatter (source lines kept under 80 bytes).
    mutating func text(_ paragraph: String) {
      self.paragraph()
      wrapped(ManPage.escape(paragraph))
    }

    /// Already-escaped text, broken into source lines of at most about 78 bytes.
    mutating func wrapped(_ escaped: String) {
      var line = ""
      for word in escaped.split(separator: " ", omittingEmptySubsequences: true) {
        if !line.isEmpty && line.utf8.count + 1 + word.utf8.count > 78 {
          raw(line)
          line = ""
        }
        if line.isEmpty {
          line = word.hasPrefix(".") || word.hasPrefix("'") ? "\\&" + word : String(word)
        } else {
          line += " " + word
        }
      }
      if !line.isEmpty { raw(line) }
    }

    /// Help-style text: blank lines separate paragraphs; lines indented by two spaces or
    /// more are kept as they are (commands to type), the others are filled.
    mutating func paragraphs(_ body: String) {
      var prose: [String] = [], verbatim: [String] = []
      func flush() {
        if !prose.isEmpty { text(prose.joined(separator: " ")) }
        if !verbatim.isEmpty { preformatted(verbatim.map { String($0.drop { $0 == " " }) }) }
        prose = []
        verbatim = []
      }
      for line in body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line.trimmingSpaces().isEmpty {
          flush()
        } else if line.hasPrefix("  ") {
          if !prose.isEmpty { flush() }
          verbatim.append(line)
        } else {
          if !verbatim.isEmpty { flush() }
          prose.append(line)
        }
      }
      flush()
    }

    /// Lines shown as typed, indented.
    mutating func preformatted(_ lines: [String]) {
      paragraph()
      raw(".RS 4")
      raw(".nf")
      for line in lines { raw(ManPage.escape(line)) }
      raw(".fi")
      raw(".RE")
    }

    /// A tagged paragraph: `tag` (already roff) on its own line, `body` (already roff) indented.
    mutating func tagged(_ tag: String, _ body: String) {
      raw(".TP")
      raw(tag)
      wrapped(body)
    }

    mutating func options(_ options: [OptionSpec]) {
      for option in options {
        var tag = ManPage.bold(option.name)
        if let short = option.shortName { tag = ManPage.bold(short) + ", " + tag }
        if let value = option.valueName { tag += " " + ManPage.italic(value) }
        var body = option.help
        if let value = option.defaultValue { body += " (default: \(value))" }
        if option.isRepeatable { body += " (repeatable)" }
        tagged(tag, ManPage.escape(body))
      }
    }

    /// A command's subsection: usage, summary, discussion, arguments, options, examples.
    mutating func command(_ spec: CommandSpec, title: String) {
      raw(".SS \"\(ManPage.escape(title).replacing("\"", with: "\\(dq"))\"")
      text(spec.summary + (spec.summary.hasSuffix(".") ? "" : "."))
      if !spec.discussion.isEmpty { paragraphs(spec.discussion) }
      if !spec.arguments.isEmpty {
        text("Arguments:")
        raw(".RS 4")
        for argument in spec.arguments {
          tagged(ManPage.italic(argument.name), ManPage.escape(argument.help + (argument.isOptional ? " (optional)" : "")))
        }
        raw(".RE")
      }
      if !spec.options.isEmpty {
        text("Options:")
        raw(".RS 4")
        options(spec.options)
        raw(".RE")
      }
      if !spec.examples.isEmpty {
        text("Examples:")
        preformatted(spec.examples)
      }
    }
  }
}

/// `transit __manpage`: prints `transit.1` for `Scripts/make-manpage`. Not listed in help.
enum ManPageCommand: TransitCommand {
  static let date = Option.date("--date", help: "The page's date (default: the day of --now, UTC)")

  static let path = ["__manpage"]
  static let spec = CommandSpec(
    path: path,
    summary: "Print the manual page (roff) built from the commands' help",
    options: [date.spec],
    examples: ["transit __manpage --date 2026-12-01 > transit.1", "man ./transit.1"])

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let date = try invocation.arguments.read(Self.date)?.dashed ?? String(ISOTime.format(invocation.now).prefix(10))
    invocation.context.stdout.write(
      ManPage.roff(commands: Transit.commands.map { $0.spec }, home: HomeCommand.spec, globals: GlobalOptions.specs, date: date))
    return 0
  }
}
