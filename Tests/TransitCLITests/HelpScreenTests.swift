import Foundation
import Testing

@testable import TransitCLI

/// Whole help screens, word for word (issue 22): the text a user reads is written out here, so a
/// change to an option, a default or a paragraph shows up as a failing line. Lines longer than
/// the code's width continue with a trailing backslash (Swift joins them without a newline).
@Suite struct HelpScreenTests {
  /// Runs `words` and compares stdout with `expected` whole, naming the first line that differs.
  func expectScreen(_ words: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let result = transit(words)
    #expect(result.code == 0, sourceLocation: sourceLocation)
    #expect(result.stderr.isEmpty, sourceLocation: sourceLocation)
    guard result.stdout != expected else { return }
    let got = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let want = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var line = 0
    while line < got.count && line < want.count && got[line] == want[line] { line += 1 }
    let gotLine = line < got.count ? got[line] : "(end)"
    let wantLine = line < want.count ? want[line] : "(end)"
    let command = words.joined(separator: " ")
    Issue.record(
      "'transit \(command)' differs at line \(line + 1):\n  got:      \(gotLine)\n  expected: \(wantLine)",
      sourceLocation: sourceLocation)
  }

  @Test func overview() { expectScreen(["help"], Self.overview) }
  @Test func departures() { expectScreen(["departures", "--help"], Self.departures) }
  @Test func stopsNear() { expectScreen(["stops", "near", "--help"], Self.stopsNear) }
  @Test func plan() { expectScreen(["plan", "--help"], Self.plan) }
  @Test func vehicles() { expectScreen(["vehicles", "--help"], Self.vehicles) }
  @Test func follow() { expectScreen(["follow", "--help"], Self.follow) }
  @Test func ingest() { expectScreen(["ingest", "--help"], Self.ingest) }
  @Test func commute() { expectScreen(["commute", "--help"], Self.commute) }
  @Test func tripShow() { expectScreen(["trip", "show", "--help"], Self.tripShow) }
  @Test func timetable() { expectScreen(["timetable", "--help"], Self.timetable) }
  @Test func alerts() { expectScreen(["alerts", "--help"], Self.alerts) }
  @Test func rtDump() { expectScreen(["rt", "dump", "--help"], Self.rtDump) }

  /// The options a help screen lists are the ones its command accepts, in the spec's order,
  /// and each is typed (declared with `Option`, so the command reads it through its parser);
  /// the parser takes each one the help names. Every command, hidden ones too.
  @Test(arguments: (Transit.commands + Transit.hiddenCommands).map { $0.spec })
  func helpListsExactlyTheOptionsTheCommandAccepts(spec: CommandSpec) {
    let help = transit(spec.path + ["--help"]).stdout
    let listed = Self.optionNames(in: help, section: "options:")
    #expect(listed == spec.options.map(\.name), "\(spec.name)")
    #expect(Set(listed).count == listed.count, "\(spec.name) lists an option twice")
    #expect(
      Self.optionNames(in: help, section: "global options:") == ["--json", "--data-dir", "--now", "--no-color", "--realtime", "--help"])
    for option in spec.options {
      #expect(option.validate != nil, "\(spec.name) \(option.name) is not declared with Option")
      // The parser knows it: given (with a value when it takes one), it is never "unknown".
      let words = spec.path + [option.name] + (option.takesValue ? ["x"] : [])
      do {
        _ = try Transit.parse(words, for: spec, context: .capturing())
      } catch {
        #expect(!error.message.hasPrefix("unknown option"), "\(spec.name) \(option.name): \(error.message)")
      }
    }
  }

  /// The long names in a help section: lines "  --name ..." or "  -n, --name ...".
  static func optionNames(in help: String, section: String) -> [String] {
    var names: [String] = [], inSection = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == section {
        inSection = true
      } else if inSection && !line.hasPrefix("  ") {
        break
      } else if inSection, line.hasPrefix("  -") {
        let words = line.split(separator: " ")
        let name = words.first { $0.hasPrefix("--") }.map { String($0) } ?? ""
        names.append(name)
      }
    }
    return names
  }

  // MARK: - The screens

  static let overview = """
    transit: live departures from GTFS timetables and GTFS-Realtime feeds

    usage: transit COMMAND [options]

    commands:
      ingest           Load a GTFS feed (ZIP, folder of .txt files, stops.json, or a URL) into the timetables
      stops near       The stops nearest a position, with the routes serving them and wheelchair access (--accessible)
      stops search     Find stops by code or name (accents, case and small typos forgiven)
      stops show       A stop in full: code, position, station and platforms, routes, next departures
      routes           Every route, or those matching TEXT: mode, agency, colour and main destinations
      route show       A route: its stops in order, first and last departures, headways; --geojson, --map
      departures       The next departures at a stop or station: platforms, crowding, wheelchair access (--accessible)
      timetable        A stop's whole day as a printed timetable: hours down, minutes across, per route and direction
      trip show        One trip's every call: scheduled and expected times, delay, passed or ahead, vehicle, crowding
      plan             Journeys from one place to another: walks, rides and transfers (--accessible: wheelchair-accessible only; \
    --watch: each change live)
      rt dump          Decode a GTFS-Realtime feed and show it
      rt check         Check a GTFS-Realtime feed against the timetables: matches and validator rules
      alerts           Service alerts in force: by route, most severe first
      status           Green / yellow / red per route from the alerts in force
      feeds add        Configure a feed: its GTFS ZIP URL, realtime URLs and request headers
      feeds list       List the configured feeds (API keys are never shown)
      feeds remove     Forget a configured feed (its timetable stays until 'transit ingest --remove NAME')
      feeds check      Fetch each configured URL once: status, size, age and publish period
      fav add          Add a favourite stop, station complex or group of stops (shown by 'transit' with no arguments)
      fav list         The favourite stops
      fav remove       Remove a favourite stop
      config list      Every setting and its value
      config get       One setting's value
      config set       Change a setting ('default' resets it)
      places add       Save a place (home, work, ...) to use wherever a position is asked for
      places list      The saved places
      places remove    Forget a saved place
      commute          When to leave for a saved commute (all of them without NAME)
      commute add      Save a commute: a stop, a deadline and the days it runs
      commute list     The saved commutes
      commute remove   Forget a commute
      vehicles         Every live vehicle: route, heading, speed, age, stop, delay and crowding, fitted to the terminal (--wide)
      follow           Follow one vehicle live: its stops ahead, delay and place on the line (--alight: a get-off alarm)
      record           Save realtime snapshots of the configured feeds for --replay
      history          How reliable a stop's departures were, from the recorded history
      history route    How reliable a route was at all its stops, from the recorded history
      history commute  How reliable a saved commute's departures were, from the recorded history
      history import   Take recorded realtime snapshots into the history
      completions      Print a shell completion script (bash, zsh or fish)

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    'transit' alone lists your favourite stops with their next departures.
    See 'transit COMMAND --help' (or 'transit help COMMAND') for a command's options and
    examples, 'man transit' for the manual, 'transit completions SHELL' for tab completion.
    Exit codes: 0 ok, 1 runtime failure, 2 usage error, 3 not found.

    """

  static let departures = """
    The next departures at a stop or station: platforms, crowding, wheelchair access (--accessible)

    usage: transit departures STOP... [options]

    A station lists the departures of all its platforms. Times are the timetable's (GTFS
    times count from noon minus 12 h of the service date in the agency's time zone, so a
    departure after midnight can come from the day before's timetable), shown on the
    agency's clock in 24-hour form unless TRANSIT_CLOCK=12 or a 12-hour locale (en_US, ...)
    is set. Trips that end here, or do not pick up here (pickup_type 1), are not departures;
    --arrivals lists them too. 'transit config set' changes the defaults: clock, window, limit,
    walking-speed and detour, and the early and late thresholds.

    A station complex is one place: stations (or stops without a station) of one name
    within 400 m, or joined by transfers.txt or pathways.txt, and across the feeds held,
    stations of one name or one stop_id within 400 m. 'Times Sq-42 St' lists the departures
    of its four stations, 'Millbrae' those of BART and Caltrain; each row names its platform,
    and its part or feed where the line does not tell. Several STOPs make one board, each
    row naming its stop. --via STOP keeps the trips that call at STOP after this stop and let
    riders off there; a name fitting several places is read as those such a trip reaches.

    With --realtime FILE (trip updates and vehicle positions, repeatable), each departure shows
    its expected time and countdown, the scheduled time when it differs, how late or early it
    runs (late from +2 min, early from -1 min), and whether the time is live, interpolated
    between predicted stops, carried forward from the last one, or scheduled; cancelled trips
    and skipped stops are listed as such, and added trips appear. A line under the title says
    how old the feed is: stale beyond 90 s, and not used at all beyond 15 min.

    The window holds expected times: a trip scheduled after it but predicted inside it is
    listed. A stop prediction more than 1 h off the timetable is not trusted: the timetable's
    time is shown, marked "prediction ignored (too far from the timetable)". A prediction of
    the arrival alone keeps the scheduled dwell: departure = predicted arrival + dwell. A
    start_date naming the calendar date of a run after midnight (24:00 or later of the day
    before) is read as that run, and a DUPLICATED trip without trip_properties as a copy
    starting at its start_time; such repairs are noted under the realtime line.

    ♿ (W in plain ASCII) after a destination marks a wheelchair-accessible trip; a station's
    platform column shows its platform_code, else what tells its name or description apart
    from the others, else the direction it serves ("towards San Francisco"). Where vehicle
    positions give crowding, a column shows it: ●○○ seats, ●●○ few seats or standing, ●●●
    crowded or full, with the feed's word or percentage (and per carriage).

    Without --realtime, the realtime feeds configured with 'transit feeds add' are used (the
    stop's own feed when it is configured): a snapshot younger than the feed's period (30 s
    unless --poll said otherwise) is reused from the cache, --refresh fetches anyway, and when
    a fetch fails the last good snapshot is used and its age said on stderr.

    --watch keeps a live board on the screen (the alternate screen, like 'follow'): realtime
    is fetched again just after the feed publishes (its --poll period, 30 s unless set),
    countdowns are redrawn every second, rows that changed are marked with * (and highlighted)
    for a few seconds, the title says how old the feed is, the stop's alerts are at the foot,
    and q, Ctrl-C or SIGTERM restore the terminal. A narrow window drops columns in a fixed
    order: the live/interpolated marker, the platform, the walk, the delay, the clock time.
    With TERM=dumb or when not on a terminal it prints a plain board at each update (--count N
    stops after N).

    --group (with or without --watch) lists the next --per-group departures (3) of each route
    and direction, so a busy station's board reaches further ahead.

    With --from LAT,LON or a place, each departure says how long the walk is and when to
    leave: "leave in 6 min" (the walk and a margin for prediction error, growing with how far
    ahead the departure is: the leave-margin setting, 10 % of the time ahead, at most 5 min),
    "leave now", "run" (only at up to 1.5 times the walking speed) or "too late".

    --line prints one line for a status bar, e.g. "27 07:53 +3 · in 13 min" ("+3": 3 min late;
    "sched": timetable only; with --from, "leave in 6 min" instead of the countdown; a stale
    feed adds its age, a failed or timed-out fetch "offline"), and "no 27 before 09:40" when
    nothing leaves in the window; it always exits 0 and waits for the network at most
    --timeout seconds.

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

    arguments:
      STOP                  A stop_id (FEED:stop_id with several feeds), a stop code, a name matching one stop, or a station \
    complex's name; several make one board

    options:
      --at TIME             From TIME instead of now: HH:MM (the agency's clock) or ISO 8601
      --date YYYY-MM-DD     On this date (with --at, or at the current time of day)
      --window MIN          Look this many minutes ahead: departures (expected, else scheduled) in [now, now + MIN), a departure \
    exactly at the end is in the next window (default: the window setting, 120)
      -n, --limit N         Show at most N departures (default: the limit setting, 10)
      --route R             Only route R (short name or route_id)
      --to DEST             Only trips going to DEST (headsign or any later stop's name)
      --via STOP            Only trips that call at STOP (a stop, station or complex) after this one and let riders off there
      --from LAT,LON        Show each departure's walk from LAT,LON or a saved place and when to leave (1.3 m/s, 1.25 × the \
    straight line, the leave-margin; see 'transit config')
      --arrivals            Also list trips ending here and calls where nobody may board
      --accessible          Only wheelchair-accessible departures: the trip (wheelchair_accessible 1) and the stop \
    (wheelchair_boarding 1, a platform inheriting its station's); what the feed says nothing about counts as not accessible
      --refresh             Fetch realtime now, even if the cached snapshot is younger than the feed's period
      --watch               A full-screen live board: refreshed with the feed, countdowns every second, q quits
      --group               The next few departures of each route and direction instead of one list
      --per-group N         With --group: departures per route and direction (default: 3)
      --count N             With --watch: stop after N updates
      --line                One short line for a status bar or prompt: the next departure (and when to leave, with --from)
      --timeout SECONDS     With --line: wait at most this long for realtime, then use the cache or the timetable (default: 2)
      --format TEMPLATE     With --line: lay the line out from fields, e.g. '{route} {clock} {delay}': {route} {headsign} \
    {clock} {min} {delay} {status} {leave} {note} {stop} (see above)

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit departures 4500
      transit departures TINT --route 27 --to crumlin
      transit departures 'Tallaght (The Square)' --at 07:30 --date 2026-12-25
      transit departures TINT --json
      transit departures 4529 4530
      transit departures 'Times Sq-42 St' --via '34 St-Herald Sq'
      transit departures TINT --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-tripupdates.pb --realtime \
    Data/realtime/demo-vehiclepositions.pb
      transit departures TINT --watch
      transit departures TINT --group --now 2026-12-01T07:40:00Z
      transit departures 4530 --from 53.2875,-6.3664 --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-tripupdates.pb
      transit departures TINT --line --route 27

    """

  static let stopsNear = """
    The stops nearest a position, with the routes serving them and wheelchair access (--accessible)

    usage: transit stops near [LAT,LON] [options]

    Without LAT,LON it uses your saved place 'home' (user.sqlite), else the TRANSIT_LOCATION
    environment variable (LAT,LON), else the middle of the network, and says which on stderr.
    Extended route types (100-1799) count as their basic mode: 700-799 bus, 900-999 tram, ...
    ♿ (W in plain ASCII) marks a stop with wheelchair boarding. A station complex (stations
    of one name within 400 m, across the feeds held too) is one line, at the walk to its
    nearest entrance (else its nearest stop).

    arguments:
      LAT,LON               Where to look from, or a saved place (default: saved place 'home', else TRANSIT_LOCATION, else the \
    network's middle)

    options:
      --radius M            Only stops within M metres, 1 to 100000 (default: the nearest, however far, up to 100 km)
      -n, --limit N         Show at most N stops (default: 10)
      --mode MODE           Only stops served by MODE: tram, subway, rail, bus, ferry, cable, gondola, funicular, trolleybus, \
    monorail (comma-separated or repeated) (repeatable)
      --stations            List a station once, with its platforms under it, instead of each platform
      --accessible          Only stops with wheelchair boarding (wheelchair_boarding 1, a platform inheriting its station's); a \
    stop the feed says nothing about counts as not accessible
      --map                 Draw a map in the terminal (braille dots; see --ascii)
      --ascii               With --map: draw with ASCII characters instead of braille

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit stops near 53.2875,-6.3664
      transit stops near --radius 300 --mode tram
      transit stops near --stations --json
      transit stops near 53.2875,-6.3664 --radius 800 --map

    """

  static let plan = """
    Journeys from one place to another: walks, rides and transfers (--accessible: wheelchair-accessible only; --watch: each \
    change live)

    usage: transit plan FROM TO [options]

    Lists a few journeys, best first: the earliest arrival, and journeys with fewer transfers
    that arrive later (each option is the best for its number of transfers), then later
    departures. With --arrive-by, the journeys that leave latest and still arrive in time.
    Each journey shows its legs: the walk to the first stop, each ride (route, direction,
    where to board and get off, times and number of stops), transfer walks and the last walk,
    then how long until you must leave.

    Walks count 1.25 times the straight line at the walking speed ('transit config set
    walking-speed', 'detour'). Transfers walk between stops at most 400 m apart (linked at
    ingest), or as transfers.txt says (min_transfer_time; transfer_type 3 forbids one).
    FROM and TO may be a station: any of its platforms will do.

    With --realtime FILE (or the configured realtime feeds), trips with predictions use
    their expected times, cancelled trips and skipped stops are not used, and live legs are
    marked. ♿ (W in plain ASCII) after a ride's destination marks a wheelchair-accessible
    trip boarded and left at stops with wheelchair boarding. With --accessible the search
    itself rides only such trips and boards and alights only at such stops (a platform
    whose wheelchair_boarding is 0 or empty inherits its station's); what the feed does not
    say counts as not accessible, so a feed without the fields finds no journey. --json
    prints the journeys as one JSON document (rides carry the raw wheelchair values);
    --geojson prints a GeoJSON FeatureCollection (lon,lat order, RFC 7946) for any map tool.
    In --json each journey's "changes" give each transfer's live buffer_seconds and state.

    --watch keeps the journey (--pick N: the Nth listed) live until you arrive: each ride's
    expected departure and arrival, and at each change the buffer (the next ride's expected
    departure minus the arrival plus the walk) and its state: safe (at least the
    transfer-margin setting, 3 min), tight, at risk (under 1 min) or missed (also when the next
    ride is cancelled or skips the stop). Where you are is worked out from the clock and the
    rides' expected times. When a change's state moves, the terminal bell rings (notify-send
    too, in a desktop session; --no-bell keeps quiet) and the next journey from the change
    stop is offered, re-planned live. --replay DIR plays back snapshots saved by 'transit
    record' (from --now, or the first); --json writes one JSON object per update.

    arguments:
      FROM                  A stop (id, code or name), a saved place (home, work) or LAT,LON
      TO                    Where to go, in the same forms

    options:
      --depart TIME         Leave at TIME or later (default: now): HH:MM (the agency's clock) or ISO 8601
      --arrive-by TIME      Arrive by TIME, leaving as late as possible
      --date YYYY-MM-DD     On this date (with --depart or --arrive-by HH:MM)
      --max-transfers N     Change trips at most N times (default: 3)
      --walk-speed M/S      Walking speed in metres per second (default: the walking-speed setting, 1.3)
      --max-walk M          Walk at most M metres to the first stop and from the last (and at most 400 m between stops) \
    (default: 800)
      --mode MODE           Only ride MODE: tram, subway, rail, bus, ferry, cable, gondola, funicular, trolleybus, monorail \
    (comma-separated or repeated) (repeatable)
      -n, --limit N         Show at most N journeys (default: 3)
      --accessible          Plan with wheelchair-accessible trips only (wheelchair_accessible 1), boarding and alighting at \
    stops with wheelchair boarding (wheelchair_boarding 1, or a platform's station's); what the feed does not say counts as not \
    accessible
      --geojson             Write the journeys' geometry as GeoJSON (trip shapes between stops, walks as straight lines)
      --from-trip TRIP      Start on board trip TRIP (the one you are on): give only TO; get off at any stop still ahead
      --on VEHICLE          Start on board VEHICLE (an id or label from 'transit vehicles'): give only TO
      --pick N              Only the Nth journey found; with --watch, the one kept live (default: 1)
      --watch               Keep the journey live: each change's buffer (next departure - arrival - walk) and state; the bell \
    rings when one changes
      --replay DIR          With --watch: play back snapshots saved by 'transit record'
      --speed X             With --replay: play X times faster (default: 1)
      --count N             With --watch: stop after N updates
      --no-bell             With --watch: no bell and no desktop notification
      --refresh             Fetch realtime now, even if the cached snapshot is younger than the feed's period

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit plan 'Red Cow' Fettercairn
      transit plan home work --arrive-by 09:00
      transit plan 53.2875,-6.3664 TINT --depart 07:30 --date 2026-12-01 --max-transfers 1
      transit plan home work --json
      transit plan home work --geojson > journey.geojson
      transit plan home work --pick 2 --watch

    """

  static let vehicles = """
    Every live vehicle: route, heading, speed, age, stop, delay and crowding, fitted to the terminal (--wide)

    usage: transit vehicles [options]

    With --watch, the list stays on the screen and is fetched again in step with the feed
    (q quits); --count N stops after N updates.

    With --map, a map under the list shows each vehicle as its route number (and, with
    --route, the route's shapes, stops and termini; with --near, where you are as @).
    Numbers that would overprint each other are gathered: 27×3 for three 27s together,
    27+2 for a 27 and two others.

    Lists each vehicle of the realtime feeds once (--realtime FILE, else the configured feeds):
    route and destination, a heading arrow, speed in km/h, how long ago it reported, the stop
    it is at or heading to, and its delay there. Where it is comes from its own
    current_stop_sequence or stop_id, else the first stop its trip update still lists, else
    its position against the trip's stops. A trip update without a vehicle position is a
    live vehicle too (the vehicle id it names, placed between stops by its predicted times,
    marked 'placed by its trip update'). Trips the timetable has running that no vehicle
    or trip update covers are listed too, placed between stops by their times and marked
    'estimated' (--live-only leaves them out). Delays are early or late by the 'early' and
    'late' settings, as in departures. The second line says how many trip updates and
    vehicles matched the timetable; a feed matching nothing (or less than half) is warned
    about on stderr.

    Where vehicle positions give crowding (occupancy_status, occupancy_percentage, per
    carriage), a column shows it: ●○○ seats, ●●○ few seats or standing, ●●● crowded or full,
    with the feed's word or percentage. On a terminal (or with COLUMNS set) the table fits its
    width: the marker shortens first, then the heading, speed and age columns go, crowding
    keeps only its gauge, destination and stop shorten, the vehicle column goes; --wide keeps
    all (as piped output does).

    options:
      --route R             Only route R (short name or route_id)
      --near LAT,LON        Only vehicles within --radius of LAT,LON or a saved place ('home')
      --radius M            Metres around --near (default: 500)
      --live-only           Leave out trips placed by the timetable (no vehicle in the feed)
      --wide                Every column at full width, however wide the terminal
      --replay DIR          Use the snapshot saved by 'transit record' at --now (else the last one)
      --refresh             Fetch realtime now, even if the cached snapshot is younger than the feed's period
      --map                 Draw a map in the terminal (braille dots; see --ascii)
      --ascii               With --map: draw with ASCII characters instead of braille
      --watch               Keep the list on the screen, refreshed with the feed; q quits
      --count N             With --watch: stop after N updates

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit vehicles --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb --realtime \
    Data/realtime/demo-tripupdates.pb
      transit vehicles --route 27 --near 53.2875,-6.3664 --radius 800 --now 2026-12-01T07:40:00Z --realtime \
    Data/realtime/demo-vehiclepositions.pb
      transit vehicles --json
      transit vehicles --route 27 --map

    """

  static let follow = """
    Follow one vehicle live: its stops ahead, delay and place on the line (--alight: a get-off alarm)

    usage: transit follow VEHICLE [options]

    Shows the route, destination, vehicle, speed, how long since it reported, its delay and
    crowding (where the feed gives occupancy), the stop it is at or heading to, every stop
    still ahead with the expected time and countdown, and a strip of the line with the
    vehicle's place; a terminal at least 110 columns wide also gets a map of the trip's line
    with its first and last stops named. When its trip ends it is followed onto the next
    trip of its block (even under another route number); when it drops out of the feed the
    timetable's estimate is shown and said, until it reappears.

    With --alight STOP, STOP is read among the stops the trip still calls at (a name shared
    with stops elsewhere means the one on this trip), marked in the list, and an alarm rings
    when it is --before stops (default 2) or minutes ('3min') away, and again when it is the
    next stop: the terminal bell, notify-send when it is on PATH and a desktop session is
    there, and a line such as "get off at Tallaght (The Square): next stop, 07:49". Each
    rings once.
    It needs no position of the rider: the trip's updates, else (said so) the timetable.
    --once prints the stops left and the expected arrival; --json adds an "alight" object.

    On a terminal the view fills the screen and refreshes in step with the feed; q or Ctrl-C
    quits. Otherwise each update is printed as a frame; --json writes one JSON object per
    update (JSON Lines). With --replay, --now starts from the snapshot at or before it.

    arguments:
      VEHICLE               A vehicle id or label from 'transit vehicles' (named by a vehicle position or a trip update)

    options:
      --trip TRIP           Follow the vehicle on trip TRIP (the timetable's until one shows up; also a trip the realtime feed \
    adds)
      --route R             With --stop: the next vehicle of route R to reach STOP
      --stop S              With --route: the stop it is to reach
      --alight STOP         Get off at STOP (id, code or name of a stop the trip calls at later): marked in the view, with an \
    alarm
      --before N|Nmin       With --alight: ring N stops (or N minutes, '3min') before STOP, then at the next stop (default: 2)
      --once                Print one frame and exit
      --replay DIR          Play back snapshots saved by 'transit record' by their recorded clock
      --speed X             With --replay: play X times faster (default: 1)
      --refresh             Fetch realtime now, even if the cached snapshot is younger than the feed's period

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit follow V27-3 --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb --realtime \
    Data/realtime/demo-tripupdates.pb --once
      transit follow --trip 27-WK-0-0720 --now 2026-12-01T07:25:00Z --once
      transit follow --route 27 --stop TINT
      transit follow V27-1 --replay Data/replay --speed 20
      transit follow V27-1 --alight 'Tallaght (The Square)' --replay Data/replay --speed 60

    """

  static let ingest = """
    Load a GTFS feed (ZIP, folder of .txt files, stops.json, or a URL) into the timetables

    usage: transit ingest [PATH|URL] [options]

    Each feed is held in its own timetable file and replaced whole: the new timetable is built
    beside the current one, checked, and swapped in atomically, keeping the previous one as
    NAME.sqlite.prev. If anything goes wrong the current timetable stays as it was.
    Queries span every feed held.

    Without PATH, downloads and loads the GTFS ZIP of each feed configured with 'transit feeds
    add' (only the one named by --feed, if given); with a URL, downloads that. Downloads go to
    the cache folder and are loaded from there; a failed download leaves the current timetable
    answering. With --if-changed, the request is conditional (ETag / Last-Modified from the
    last download) and a 304, or content whose SHA-256 matches the loaded timetable's, is a
    no-op; the output says "changed" or "unchanged" (exit 0 either way; --quiet prints
    nothing on success, for cron).

    A timetable already held is replaced only when the new one passes the swap checks: its
    service has not ended and starts within 60 days (swap-days-ahead); it shares an agency
    (agency_id or name) with the held one; its stops, routes and trips shrink by at most 50 %
    (swap-shrink); it has departures in the next 7 days where the held one has some
    (swap-lookahead). Otherwise the held timetable stays, one line names the check and its
    figures, and the exit code is 4; --force swaps anyway. The thresholds are settings
    ('transit config set swap-shrink 70'). --rollback NAME swaps the previous timetable back.
    A second ingest waits for the first (up to --wait seconds); queries never wait.

    Exit codes: 0 done (or unchanged), 1 a bad feed or a failed download, 2 a usage error,
    3 no such feed, 4 the swap checks refused the new timetable, 5 (--check) a held
    timetable has ended, ends within 7 days or has not started.

    From cron, refresh every night and hear about it only when something needs you:
      17 4 * * *  transit ingest --if-changed --quiet; transit ingest --check --quiet
    cron mails what a command prints: --quiet prints nothing on success, a refused or
    failed refresh prints one line on stderr (exit 4 or 1), and --check prints a line for
    each timetable that has ended or ends within 7 days (exit 5). With systemd instead,
    'transit ingest --print-systemd-units' prints a user service and timer to install.

    arguments:
      PATH|URL              A GTFS .zip, a folder of GTFS .txt files, a stops.json list, or a ZIP's URL (default: each \
    configured feed's --gtfs URL)

    options:
      --feed NAME           Hold the feed under NAME (default: from its agency, else the file name); without PATH, \
    download only the configured feed NAME
      --list                List the feeds held, with their service dates and when each was loaded
      --remove NAME         Drop the feed NAME
      -q, --quiet           Print nothing but errors
      --if-changed          Do nothing when the server says 304 or the content's SHA-256 is the one already loaded
      --force               Replace the held timetable even when the new one fails a swap check
      --rollback NAME       Swap the previous timetable of feed NAME back in (the current one becomes the previous)
      --wait SECONDS        Wait this long for another ingest to finish before giving up (default: 300)
      --check               Exit 5 when a held timetable has ended, ends within 7 days or has not started (for monitoring)
      --print-systemd-units
                            Print a systemd user service and timer for a nightly refresh

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit ingest Data/gtfs
      transit ingest ~/Downloads/google_transit.zip --feed dublin-bus
      transit ingest --list
      transit ingest --if-changed --quiet
      transit ingest https://example.org/gtfs.zip --feed example --if-changed
      transit ingest --remove dublin-bus
      transit ingest --rollback dublin-bus
      transit ingest --check --quiet

    """

  static let commute = """
    When to leave for a saved commute (all of them without NAME)

    usage: transit commute [NAME] [options]

    For the day, the recommended departure (the latest that gets you there by the deadline:
    its arrival at --to plus the --then-walk; without --to, the latest that leaves by it;
    from the departures of the 2 h before it), the two before it and the one after, each with
    the time to leave (the departure minus the --walk) and, today, how long until then. Realtime
    is used where there is some. On a day the commute does not run, says so and shows the
    next day it does. Add commutes with 'transit commute add'.

    With --ics, prints an iCalendar file (RFC 5545) for NAME: for each day the commute runs
    in the next --days days, an event from the leave-by time of the recommended departure to
    its arrival, with a reminder 5 minutes before leaving; times in UTC, from the timetable.

    With --watch, the day's recommended departure and its alternatives stay on the screen,
    refreshed with the feed, each with "leave in N min", "leave now", "run" or "too late" (the
    --walk and a margin for prediction error: the leave-margin setting); when it is time to
    leave for the recommended one the terminal bell rings once (and notify-send shows it, when
    it is installed and a desktop session is there); --no-bell keeps quiet. q quits. With
    --to, the arrival is guarded as 'plan --watch' guards a change: the buffer between getting
    there (the expected arrival and the --then-walk) and the deadline is safe, tight (under the
    transfer-margin setting), at risk (under 1 min) or missed, and the bell rings when it moves.

    With --line, one line for a status bar: "27 07:53 +3 · leave in 6 min" (+3: 3 min late;
    "sched": timetable only; a stale feed adds its age, a failed fetch "offline"), or "no 27
    before 08:30" when nothing gets there in time; it always exits 0 and waits for the network
    at most --timeout seconds.

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

    arguments:
      NAME                  The commute's name

    options:
      --date YYYY-MM-DD     For this date (default: today); with --ics, the first day
      --ics                 Print an iCalendar file of leave-by reminders (timetable times) instead
      --days N              With --ics: this many days from --date or today (default: 7)
      --refresh             Fetch realtime now, even if the cached snapshot is younger than the feed's period
      --watch               Watch it live; ring the bell once when it is time to leave
      --bell                With --watch: ring the terminal bell at leave time (the default)
      --no-bell             With --watch: no bell and no desktop notification
      --count N             With --watch: stop after N updates
      --line                One short line for a status bar: the recommended departure and when to leave
      --timeout SECONDS     With --line: wait at most this long for realtime, then use the cache or the timetable (default: 2)
      --format TEMPLATE     With --line: lay the line out from fields, e.g. '{route} {clock} {delay}': {route} {headsign} \
    {clock} {min} {delay} {status} {leave} {note} {stop} (see above)

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit commute
      transit commute work --date 2026-12-07
      transit commute work --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-tripupdates.pb
      transit commute work --ics --days 7 > work.ics
      transit commute work --watch
      transit commute work --line

    """

  static let tripShow = """
    One trip's every call: scheduled and expected times, delay, passed or ahead, vehicle, crowding

    usage: transit trip show [TRIP] [options]

    Lists every call of the trip: the scheduled time, the expected time and delay when the
    realtime has them (live, interpolated or carried forward, as in departures), and where
    each stands: passed, skipped, next (the stop the vehicle is at or heading to) or ahead.
    With a live vehicle its position decides; without one, the expected (else scheduled)
    times against now do. The header names the vehicle, how full it is (●○○ seats, ●●○
    few seats or standing, ●●● crowded or full; per carriage where the feed says) and ♿ when
    the trip is wheelchair accessible (wheelchair_accessible 1; W in plain ASCII); ♿ beside a
    stop is its wheelchair_boarding (a platform without a value inherits its station's). The
    last line names the trip the same vehicle runs next (block_id).

    TRIP is tried as a trip_id, then as a vehicle id or label in the realtime, then as a
    trip_short_name. Instead of TRIP, --route R --stop STOP --at TIME picks the trip of
    route R leaving STOP at TIME (or the first after it).

    arguments:
      TRIP                  A trip_id, a trip_short_name (train number), or a live vehicle's id or label

    options:
      --route R             With --stop and --at: the trip of route R leaving STOP at (or first after) TIME
      --stop STOP           The stop the --route departure leaves from (a station: any platform; a complex: any station)
      --at TIME             The --route departure's time: HH:MM (the agency's clock) or ISO 8601 (default: now)
      --date YYYY-MM-DD     The service day (default: the run nearest now, or the one the realtime follows)
      --refresh             Fetch realtime now, even if the cached snapshot is younger than the feed's period

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit trip show 27-WK-1-0750
      transit trip show V27-3 --now 2026-12-01T07:40:00Z --realtime Data/realtime/demo-vehiclepositions.pb --realtime \
    Data/realtime/demo-tripupdates.pb
      transit trip show --route 27 --stop TINT --at 07:50
      transit trip show 27-WK-1-0750 --date 2026-12-25 --json

    """

  static let timetable = """
    A stop's whole day as a printed timetable: hours down, minutes across, per route and direction

    usage: transit timetable STOP... [options]

    One block per route and direction (a station: all its platforms), headed by the
    destination most departures show. Each row is an hour of the timetable's clock, with the
    minutes of its departures across; hours after midnight that belong to the day's service
    (GTFS times from 24:00) come last. A letter after a minute points to a footnote under the
    block: a trip going somewhere else ("a: to Millbrae"), one that ends here, one nobody may
    board here, an express ("b: skips Hayward Park and Belmont": stops ahead that the usual
    pattern calls at, the usual pattern being the stop sequence most of the route and
    direction's trips follow that day), or (with --realtime FILE) one the realtime cancels
    or that skips the stop. --via STOP keeps the trips that call at STOP later on.
    A station complex ('Times Sq-42 St') or several STOPs make one timetable: each
    block's departures leave from one of its stations or stops, named in the heading where
    the route does not tell.
    Rows wrap to fit the terminal (COLUMNS overrides; 80 when piped). Times are the
    timetable's; configured realtime feeds are not fetched.

    arguments:
      STOP                  A stop_id (FEED:stop_id with several feeds), a stop code, a name matching one stop, or a station \
    complex's name; several make one timetable

    options:
      --date YYYY-MM-DD     The service day (default: today)
      --route R             Only route R (short name or route_id)
      --direction 0|1       Only trips of this direction_id
      --via STOP            Only trips that call at STOP (a stop, station or complex) after this one and let riders off there

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit timetable TINT
      transit timetable 4530 --route 27 --direction 0 --date 2026-12-25
      transit timetable TINT --json
      transit timetable 4530 --via 4521
      transit timetable 4529 4530 --route 27

    """

  static let alerts = """
    Service alerts in force: by route, most severe first

    usage: transit alerts [options]

    Reads alerts from --realtime FILE (repeatable), else from the configured feeds'
    realtime URLs. An alert is in force when one of its active periods holds now, or when
    it has none; --all lists the others too. Each alert shows its effect and cause in
    words, when it applies, its header and description (HTML made plain) in your language
    (--lang, else LC_ALL / LC_MESSAGES / LANG, else the untranslated text) and its link.

    Matching follows GTFS-Realtime: the fields of one informed entity must all match (AND),
    any of an alert's informed entities will do (OR). A route_type matches every route of
    that mode, a stop also its station and platforms, a trip also its route. --stop also
    shows alerts of the routes calling at the stop; --route does not show alerts of single
    stops unless they name the route. Filters combine. Without a timetable, R, S and T are
    compared with the feed's ids as given.

    Alerts listed are remembered in user.sqlite (by id and content, so an edited alert is new
    again) unless --peek is given; --unseen lists only new ones and --count prints how many
    there are. With --json: [{id, effect, cause, header, description, url, active_periods:
    [{start, end}], informed: [{agency_id, route_id, route_type, stop_id, trip_id}], seen}],
    seen meaning shown before this run.

    options:
      --route R             Only alerts affecting route R (short name or route_id)
      --stop S              Only alerts affecting stop S (its station and platforms too; a complex: each of its stations) or a \
    route calling there
      --trip T              Only alerts affecting trip T (or its route)
      --mode M              Only alerts affecting mode M: tram, subway, rail, bus, ferry, cable, gondola, funicular, trolleybus, \
    monorail
      --all                 Also alerts not in force now (past and upcoming), with their periods
      --unseen              Only alerts not shown before (an edited alert counts as new)
      --count               Print only the number of unseen alerts in force (for a status bar or prompt)
      --peek                List without remembering the alerts as seen
      --lang L              Texts in language L (BCP 47: en, fr, es-MX); default: the language setting, else the locale
      --refresh             Fetch realtime now, even if the cached snapshot is younger than the feed's period

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit alerts --realtime Data/realtime/demo-alerts.pb
      transit alerts --route 77X --realtime Data/realtime/demo-alerts.pb
      transit alerts --stop TINT --unseen --realtime Data/realtime/demo-alerts.pb
      transit alerts --count --realtime Data/realtime/demo-alerts.pb
      transit alerts --all --lang fr --json --realtime Data/realtime/demo-alerts.pb

    """

  static let rtDump = """
    Decode a GTFS-Realtime feed and show it

    usage: transit rt dump FILE|URL... [options]

    Decodes any FeedMessage: trip updates, vehicle positions, alerts, or a mix. The text shows
    the header (version, incrementality, timestamp and its age), the entity counts by kind, then
    one line per entity; vehicle ages count back from the feed's own timestamp. Fields the feed
    leaves unset are not shown, even where the proto gives a default.

    With --json, prints the whole FeedMessage in protobuf's JSON mapping with the .proto's own
    field names (trip_update, stop_time_update), enums by name (an unknown value as its
    number), 64-bit integers as numbers, and unset fields, unknown fields and extensions left
    out, but NYCT's extension (field 1001), shown under its bracketed name as in protobuf's
    JSON mapping ([nyct_trip_descriptor]). Given several files, --json prints an array with
    one FeedMessage per file, in order.

    arguments:
      FILE|URL              A .pb capture (gzip-compressed is fine) or an http(s) URL; several are shown in turn

    options:
      --summary             Only the header line and the entity counts
      --refresh             Fetch realtime now, even if the cached snapshot is younger than the feed's period

    global options:
      --json                Print one JSON document instead of text
      --data-dir DIR        Keep all files in DIR (else TRANSIT_HOME, else the XDG folders)
      --now TIME            Pretend the time is TIME (ISO 8601, or @unix-seconds)
      --no-color            No colours (also NO_COLOR=1 or TERM=dumb)
      --realtime FILE       Use a GTFS-Realtime capture instead of the configured feeds (repeatable)
      -h, --help            Show help for this command

    examples:
      transit rt dump Data/realtime/demo-vehiclepositions.pb
      transit rt dump Data/realtime/demo-tripupdates.pb --json
      transit rt dump Data/realtime/demo-alerts.pb Data/realtime/demo-tripupdates.pb --summary
      transit rt dump https://example.org/gtfs-rt/vehicle-positions --refresh

    """
}
