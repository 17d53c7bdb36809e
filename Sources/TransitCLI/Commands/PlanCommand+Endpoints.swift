import FoundationEssentials
import Services
import TransitModel

/// How `plan` reads FROM and TO: each a position, a saved place, else a stop, station or
/// complex (`TransitSession.place`); a name fitting several places is narrowed by the other
/// end, and the candidates are listed on stderr as everywhere else.
enum PlanEndpoints {
  /// FROM and TO read together: TO narrowed to those a trip from FROM reaches, else FROM to
  /// those reaching TO (`TransitSession.readsDestinationFirst`).
  static func read(
    _ fromText: String, _ toText: String, session: TransitSession, invocation: Invocation
  ) throws -> (JourneyEndpoint, JourneyEndpoint) {
    let fromFixed = try fixed(fromText, role: "FROM", invocation: invocation)
    let toFixed = try fixed(toText, role: "TO", invocation: invocation)
    switch (fromFixed, toFixed) {
    case (let from?, let to?):
      return (from, to)
    case (let from?, nil):
      return (from, try stop(toText, role: "TO", origin: from.stops, originName: fromText, session: session, invocation: invocation))
    case (nil, let to?):
      return (
        try stop(fromText, role: "FROM", destination: to.stops, destinationName: toText, session: session, invocation: invocation), to
      )
    case (nil, nil):
      if try session.readsDestinationFirst(from: fromText.trimmingSpaces(), to: toText.trimmingSpaces()) {
        let to = try stop(toText, role: "TO", session: session, invocation: invocation)
        return (
          try stop(fromText, role: "FROM", destination: to.stops, destinationName: toText, session: session, invocation: invocation),
          to
        )
      }
      let from = try stop(fromText, role: "FROM", session: session, invocation: invocation)
      return (from, try stop(toText, role: "TO", origin: from.stops, originName: fromText, session: session, invocation: invocation))
    }
  }

  /// A position or a saved place; nil when `text` is neither (a stop, then).
  static func fixed(_ text: String, role: String, invocation: Invocation) throws -> JourneyEndpoint? {
    let trimmed = text.trimmingSpaces()
    // Two numbers with a comma are a position (stop ids and codes may be plain numbers, and
    // names may hold commas).
    let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
    if parts.count == 2, parts.allSatisfy({ Double($0.trimmingSpaces()) != nil }) {
      return .place(try ValueParser.coordinate(trimmed, option: role), name: nil)
    }
    if let place = try StopCommandSupport.savedPlace(named: trimmed, invocation: invocation) {
      return .place(place, name: trimmed.lowercased())
    }
    return nil
  }

  /// FROM or TO as a stop, station or complex, narrowed by the other end when given (`origin`:
  /// the journey's start, for TO; `destination`: its end, for FROM); a one-line error (exit 3)
  /// when none fits.
  static func stop(
    _ text: String, role: String, origin: [Stop] = [], originName: String? = nil, destination: [Stop] = [],
    destinationName: String? = nil, session: TransitSession, invocation: Invocation
  ) throws -> JourneyEndpoint {
    let trimmed = text.trimmingSpaces()
    let lookup = try session.place(named: trimmed)
    if case .notFound = lookup.outcome {
      // Offered as typed back it resolves: the name when it is one stop's, else its code or id
      // (the name beside it).
      let hint =
        try lookup.candidates.first.map { candidate in
          let typed = try session.typedName(of: candidate.stop)
          return "; did you mean '\(typed)'\(typed == candidate.stop.name ? "" : " (\(candidate.stop.name))")?"
        } ?? ""
      throw NotFoundError("\(role) '\(text)' is not a stop (id, code or name), a saved place or LAT,LON\(hint)")
    }
    return JourneyEndpoint(
      try StopCommandSupport.resolvePlace(
        trimmed, session: session, context: invocation.context, reachableFrom: destination.isEmpty ? origin : [],
        originName: originName, reaching: destination, destinationName: destinationName))
  }
}
