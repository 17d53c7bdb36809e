import GTFS
import Merge
import TransitModel

// MARK: - JSON

extension PlanAnswer: Encodable {
  /// `plan --json`: the two ends, now, the time asked (`depart` or `arrive_by`), the realtime
  /// object and the journeys, each with its legs and its changes' live buffers.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: JSONKey.self)
    try encodeEndpoint(from, into: &members, forKey: "from")
    try encodeEndpoint(to, into: &members, forKey: "to")
    try members.encode(zone.isoText(now), forKey: "now")
    try members.encode(zone.isoText(requested), forKey: isArriveBy ? "arrive_by" : "depart")
    try members.encode(RealtimeAnswer(hasRealtime ? report : RealtimeReport(), zone: zone), forKey: "realtime")
    var list = members.nestedUnkeyedContainer(forKey: "journeys")
    for option in options {
      var item = list.nestedContainer(keyedBy: JSONKey.self)
      let journey = option.journey
      try item.encode(zone.isoText(journey.departure), forKey: "departure")
      try item.encode(zone.isoText(journey.arrival), forKey: "arrival")
      try item.encode(journey.arrival - journey.departure, forKey: "duration_seconds")
      try item.encode(journey.transfers, forKey: "transfers")
      try item.encode(journey.departure - now, forKey: "leave_in_seconds")
      var legs = item.nestedUnkeyedContainer(forKey: "legs")
      for (index, leg) in journey.legs.enumerated() {
        var object = legs.nestedContainer(keyedBy: JSONKey.self)
        switch leg {
        case .walk(let start, let end, let departure, let seconds, let meters):
          try object.encode("walk", forKey: "type")
          try encodeWalkEnd(start, into: &object, forKey: "from")
          try encodeWalkEnd(end, into: &object, forKey: "to")
          try object.encode(zone.isoText(departure), forKey: "departure")
          try object.encode(zone.isoText(departure + seconds), forKey: "arrival")
          try object.encode(seconds, forKey: "duration_seconds")
          try object.encode(meters.map { Int($0.rounded()) }, forKey: "distance_m")
        case .ride(let ride, let departure, let arrival):
          try encodeRide(ride, departure: departure, arrival: arrival, access: option.access[index], into: &object)
        }
      }
      try item.encode(option.guarded.transfers.map(TransferAnswer.init), forKey: "changes")
    }
  }

  private func encodeRide(
    _ ride: RoutingRide, departure: UnixTime, arrival: UnixTime, access: RideAccess?, into object: inout KeyedEncodingContainer<JSONKey>
  ) throws {
    if namesFeed { try object.encode(ride.feed.rawValue, forKey: "feed") }
    try object.encode("ride", forKey: "type")
    try object.encode(ride.tripID.rawValue, forKey: "trip_id")
    try object.encode(ride.route.id.rawValue, forKey: "route_id")
    try object.encode(ride.route.shortName, forKey: "route_short_name")
    try object.encode(ride.route.mode.rawValue, forKey: "mode")
    try object.encode(ride.headsign, forKey: "headsign")
    try object.encode(ride.serviceDate.description, forKey: "service_date")
    try object.encode(ride.startTime?.description, forKey: "start_time")
    if let first = ride.stops.first {
      try encodeWalkEnd(.stop(first.stop), into: &object, forKey: "from")
    } else {
      try object.encodeNil(forKey: "from")
    }
    if let last = ride.stops.last {
      try encodeWalkEnd(.stop(last.stop), into: &object, forKey: "to")
    } else {
      try object.encodeNil(forKey: "to")
    }
    try object.encode(ride.stops.first?.stopSequence, forKey: "from_stop_sequence")
    try object.encode(ride.stops.last?.stopSequence, forKey: "to_stop_sequence")
    try object.encode(zone.isoText(departure), forKey: "departure")
    try object.encode(zone.isoText(arrival), forKey: "arrival")
    try object.encode(arrival - departure, forKey: "duration_seconds")
    try object.encode(max(0, ride.stops.count - 1), forKey: "stops")
    try object.encode(ride.isLive, forKey: "live")
    try object.encode(access?.tripValue, forKey: "wheelchair_accessible")
    try object.encode(access?.boardValue, forKey: "from_wheelchair_boarding")
    try object.encode(access?.board.rawValue, forKey: "from_wheelchair_access")
    try object.encode(access?.alightValue, forKey: "to_wheelchair_boarding")
    try object.encode(access?.alight.rawValue, forKey: "to_wheelchair_access")
    try object.encode(access?.isAccessible, forKey: "accessible")
  }

  private func encodeStop(_ stop: TransitModel.Stop, into object: inout KeyedEncodingContainer<JSONKey>) throws {
    if namesFeed { try object.encode(stop.feed.rawValue, forKey: "feed") }
    try object.encode(stop.id.rawValue, forKey: "stop_id")
    try object.encode(stop.code, forKey: "stop_code")
    try object.encode(stop.name, forKey: "name")
    try object.encode(stop.coordinate?.latitude, forKey: "lat")
    try object.encode(stop.coordinate?.longitude, forKey: "lon")
  }

  private func encodeEndpoint(
    _ endpoint: JourneyEndpoint, into container: inout KeyedEncodingContainer<JSONKey>, forKey key: JSONKey
  ) throws {
    var object = container.nestedContainer(keyedBy: JSONKey.self, forKey: key)
    switch endpoint {
    case .stop(let stop):
      try object.encode("stop", forKey: "type")
      try encodeStop(stop, into: &object)
    case .complex(let complex):
      try object.encode("complex", forKey: "type")
      try ComplexAnswer(complex, namesFeed: true).encode(into: &object, forKey: "complex")
    case .place(let point, let name):
      try object.encode("place", forKey: "type")
      try object.encode(name, forKey: "name")
      try object.encode(point.latitude, forKey: "lat")
      try object.encode(point.longitude, forKey: "lon")
    case .onBoard(let start):
      try object.encode("on_board", forKey: "type")
      try object.encode(start.ride.tripID.rawValue, forKey: "trip_id")
      if let next = start.ride.stops.first {
        var nested = object.nestedContainer(keyedBy: JSONKey.self, forKey: "next_stop")
        try encodeStop(next.stop, into: &nested)
      }
    }
  }

  private func encodeWalkEnd(
    _ end: JourneyPlanner.WalkEnd, into container: inout KeyedEncodingContainer<JSONKey>, forKey key: JSONKey
  )
    throws
  {
    switch end {
    case .stop(let stop):
      var object = container.nestedContainer(keyedBy: JSONKey.self, forKey: key)
      try object.encode("stop", forKey: "type")
      try encodeStop(stop, into: &object)
    case .origin: try encodeEndpoint(from, into: &container, forKey: key)
    case .destination: try encodeEndpoint(to, into: &container, forKey: key)
    }
  }
}
