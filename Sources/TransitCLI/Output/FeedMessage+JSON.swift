// `rt dump --json`: the FeedMessage in protobuf's JSON mapping, but keyed by the .proto's own
// field names (DESIGN.md, "JSON shapes"). Enums by name (unrecognized ones as their number),
// 64-bit integers as numbers, unset fields, unknown fields and extensions left out.

import GTFSRealtime

extension FeedMessage {
  /// This `FeedMessage` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let header { members.append(("header", header.json)) }
    if !entities.isEmpty { members.append(("entity", .array(entities.map { $0.json }))) }
    return .object(members)
  }
}

extension FeedHeader {
  /// This `FeedHeader` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let gtfsRealtimeVersion {
      members.append(("gtfs_realtime_version", .string(gtfsRealtimeVersion)))
    }
    if let incrementality { members.append(("incrementality", .protoEnum(incrementality))) }
    if let timestamp { members.append(("timestamp", .unsigned(timestamp))) }
    if let feedVersion { members.append(("feed_version", .string(feedVersion))) }
    return .object(members)
  }
}

extension FeedEntity {
  /// This `FeedEntity` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let id { members.append(("id", .string(id))) }
    if let isDeleted { members.append(("is_deleted", .bool(isDeleted))) }
    if let tripUpdate { members.append(("trip_update", tripUpdate.json)) }
    if let vehicle { members.append(("vehicle", vehicle.json)) }
    if let alert { members.append(("alert", alert.json)) }
    if let shape { members.append(("shape", shape.json)) }
    if let stop { members.append(("stop", stop.json)) }
    if let tripModifications { members.append(("trip_modifications", tripModifications.json)) }
    return .object(members)
  }
}

extension TripUpdate {
  /// This `TripUpdate` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let trip { members.append(("trip", trip.json)) }
    if let vehicle { members.append(("vehicle", vehicle.json)) }
    if !stopTimeUpdates.isEmpty {
      members.append(("stop_time_update", .array(stopTimeUpdates.map { $0.json })))
    }
    if let timestamp { members.append(("timestamp", .unsigned(timestamp))) }
    if let delay { members.append(("delay", .int(Int64(delay)))) }
    if let tripProperties { members.append(("trip_properties", tripProperties.json)) }
    return .object(members)
  }
}

extension TripUpdate.StopTimeEvent {
  /// This `StopTimeEvent` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let delay { members.append(("delay", .int(Int64(delay)))) }
    if let time { members.append(("time", .int(Int64(time)))) }
    if let uncertainty { members.append(("uncertainty", .int(Int64(uncertainty)))) }
    if let scheduledTime { members.append(("scheduled_time", .int(Int64(scheduledTime)))) }
    return .object(members)
  }
}

extension TripUpdate.StopTimeUpdate {
  /// This `StopTimeUpdate` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let stopSequence { members.append(("stop_sequence", .int(Int64(stopSequence)))) }
    if let stopID { members.append(("stop_id", .string(stopID))) }
    if let arrival { members.append(("arrival", arrival.json)) }
    if let departure { members.append(("departure", departure.json)) }
    if let departureOccupancyStatus {
      members.append(("departure_occupancy_status", .protoEnum(departureOccupancyStatus)))
    }
    if let scheduleRelationship {
      members.append(("schedule_relationship", .protoEnum(scheduleRelationship)))
    }
    if let stopTimeProperties { members.append(("stop_time_properties", stopTimeProperties.json)) }
    return .object(members)
  }
}

extension TripUpdate.StopTimeUpdate.StopTimeProperties {
  /// This `StopTimeProperties` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let assignedStopID { members.append(("assigned_stop_id", .string(assignedStopID))) }
    if let stopHeadsign { members.append(("stop_headsign", .string(stopHeadsign))) }
    if let pickupType { members.append(("pickup_type", .protoEnum(pickupType))) }
    if let dropOffType { members.append(("drop_off_type", .protoEnum(dropOffType))) }
    return .object(members)
  }
}

extension TripUpdate.TripProperties {
  /// This `TripProperties` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let tripID { members.append(("trip_id", .string(tripID))) }
    if let startDate { members.append(("start_date", .string(startDate))) }
    if let startTime { members.append(("start_time", .string(startTime))) }
    if let shapeID { members.append(("shape_id", .string(shapeID))) }
    if let tripHeadsign { members.append(("trip_headsign", .string(tripHeadsign))) }
    if let tripShortName { members.append(("trip_short_name", .string(tripShortName))) }
    return .object(members)
  }
}

extension VehiclePosition {
  /// This `VehiclePosition` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let trip { members.append(("trip", trip.json)) }
    if let vehicle { members.append(("vehicle", vehicle.json)) }
    if let position { members.append(("position", position.json)) }
    if let currentStopSequence {
      members.append(("current_stop_sequence", .int(Int64(currentStopSequence))))
    }
    if let stopID { members.append(("stop_id", .string(stopID))) }
    if let currentStatus { members.append(("current_status", .protoEnum(currentStatus))) }
    if let timestamp { members.append(("timestamp", .unsigned(timestamp))) }
    if let congestionLevel { members.append(("congestion_level", .protoEnum(congestionLevel))) }
    if let occupancyStatus { members.append(("occupancy_status", .protoEnum(occupancyStatus))) }
    if let occupancyPercentage {
      members.append(("occupancy_percentage", .int(Int64(occupancyPercentage))))
    }
    if !multiCarriageDetails.isEmpty {
      members.append(("multi_carriage_details", .array(multiCarriageDetails.map { $0.json })))
    }
    return .object(members)
  }
}

extension VehiclePosition.CarriageDetails {
  /// This `CarriageDetails` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let id { members.append(("id", .string(id))) }
    if let label { members.append(("label", .string(label))) }
    if let occupancyStatus { members.append(("occupancy_status", .protoEnum(occupancyStatus))) }
    if let occupancyPercentage {
      members.append(("occupancy_percentage", .int(Int64(occupancyPercentage))))
    }
    if let carriageSequence { members.append(("carriage_sequence", .int(Int64(carriageSequence)))) }
    return .object(members)
  }
}

extension Alert {
  /// This `Alert` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if !activePeriods.isEmpty {
      members.append(("active_period", .array(activePeriods.map { $0.json })))
    }
    if !informedEntities.isEmpty {
      members.append(("informed_entity", .array(informedEntities.map { $0.json })))
    }
    if let cause { members.append(("cause", .protoEnum(cause))) }
    if let effect { members.append(("effect", .protoEnum(effect))) }
    if let url { members.append(("url", url.json)) }
    if let headerText { members.append(("header_text", headerText.json)) }
    if let descriptionText { members.append(("description_text", descriptionText.json)) }
    if let ttsHeaderText { members.append(("tts_header_text", ttsHeaderText.json)) }
    if let ttsDescriptionText { members.append(("tts_description_text", ttsDescriptionText.json)) }
    if let severityLevel { members.append(("severity_level", .protoEnum(severityLevel))) }
    if let image { members.append(("image", image.json)) }
    if let imageAlternativeText {
      members.append(("image_alternative_text", imageAlternativeText.json))
    }
    if let causeDetail { members.append(("cause_detail", causeDetail.json)) }
    if let effectDetail { members.append(("effect_detail", effectDetail.json)) }
    return .object(members)
  }
}

extension TimeRange {
  /// This `TimeRange` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let start { members.append(("start", .unsigned(start))) }
    if let end { members.append(("end", .unsigned(end))) }
    return .object(members)
  }
}

extension Position {
  /// This `Position` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let latitude { members.append(("latitude", .protoFloat(latitude))) }
    if let longitude { members.append(("longitude", .protoFloat(longitude))) }
    if let bearing { members.append(("bearing", .protoFloat(bearing))) }
    if let odometer { members.append(("odometer", .protoDouble(odometer))) }
    if let speed { members.append(("speed", .protoFloat(speed))) }
    return .object(members)
  }
}

extension TripDescriptor {
  /// This `TripDescriptor` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let tripID { members.append(("trip_id", .string(tripID))) }
    if let routeID { members.append(("route_id", .string(routeID))) }
    if let directionID { members.append(("direction_id", .int(Int64(directionID)))) }
    if let startTime { members.append(("start_time", .string(startTime))) }
    if let startDate { members.append(("start_date", .string(startDate))) }
    if let scheduleRelationship {
      members.append(("schedule_relationship", .protoEnum(scheduleRelationship)))
    }
    if let modifiedTrip { members.append(("modified_trip", modifiedTrip.json)) }
    return .object(members)
  }
}

extension TripDescriptor.ModifiedTripSelector {
  /// This `ModifiedTripSelector` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let modificationsID { members.append(("modifications_id", .string(modificationsID))) }
    if let affectedTripID { members.append(("affected_trip_id", .string(affectedTripID))) }
    if let startTime { members.append(("start_time", .string(startTime))) }
    if let startDate { members.append(("start_date", .string(startDate))) }
    return .object(members)
  }
}

extension VehicleDescriptor {
  /// This `VehicleDescriptor` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let id { members.append(("id", .string(id))) }
    if let label { members.append(("label", .string(label))) }
    if let licensePlate { members.append(("license_plate", .string(licensePlate))) }
    if let wheelchairAccessible {
      members.append(("wheelchair_accessible", .protoEnum(wheelchairAccessible)))
    }
    return .object(members)
  }
}

extension EntitySelector {
  /// This `EntitySelector` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let agencyID { members.append(("agency_id", .string(agencyID))) }
    if let routeID { members.append(("route_id", .string(routeID))) }
    if let routeType { members.append(("route_type", .int(Int64(routeType)))) }
    if let trip { members.append(("trip", trip.json)) }
    if let stopID { members.append(("stop_id", .string(stopID))) }
    if let directionID { members.append(("direction_id", .int(Int64(directionID)))) }
    return .object(members)
  }
}

extension TranslatedString {
  /// This `TranslatedString` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if !translations.isEmpty {
      members.append(("translation", .array(translations.map { $0.json })))
    }
    return .object(members)
  }
}

extension TranslatedString.Translation {
  /// This `Translation` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let text { members.append(("text", .string(text))) }
    if let language { members.append(("language", .string(language))) }
    return .object(members)
  }
}

extension TranslatedImage {
  /// This `TranslatedImage` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if !localizedImages.isEmpty {
      members.append(("localized_image", .array(localizedImages.map { $0.json })))
    }
    return .object(members)
  }
}

extension TranslatedImage.LocalizedImage {
  /// This `LocalizedImage` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let url { members.append(("url", .string(url))) }
    if let mediaType { members.append(("media_type", .string(mediaType))) }
    if let language { members.append(("language", .string(language))) }
    return .object(members)
  }
}

extension Shape {
  /// This `Shape` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let shapeID { members.append(("shape_id", .string(shapeID))) }
    if let encodedPolyline { members.append(("encoded_polyline", .string(encodedPolyline))) }
    return .object(members)
  }
}

extension Stop {
  /// This `Stop` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let stopID { members.append(("stop_id", .string(stopID))) }
    if let stopCode { members.append(("stop_code", stopCode.json)) }
    if let stopName { members.append(("stop_name", stopName.json)) }
    if let ttsStopName { members.append(("tts_stop_name", ttsStopName.json)) }
    if let stopDesc { members.append(("stop_desc", stopDesc.json)) }
    if let stopLat { members.append(("stop_lat", .protoFloat(stopLat))) }
    if let stopLon { members.append(("stop_lon", .protoFloat(stopLon))) }
    if let zoneID { members.append(("zone_id", .string(zoneID))) }
    if let stopURL { members.append(("stop_url", stopURL.json)) }
    if let parentStation { members.append(("parent_station", .string(parentStation))) }
    if let stopTimezone { members.append(("stop_timezone", .string(stopTimezone))) }
    if let wheelchairBoarding {
      members.append(("wheelchair_boarding", .protoEnum(wheelchairBoarding)))
    }
    if let levelID { members.append(("level_id", .string(levelID))) }
    if let platformCode { members.append(("platform_code", platformCode.json)) }
    return .object(members)
  }
}

extension TripModifications {
  /// This `TripModifications` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if !selectedTrips.isEmpty {
      members.append(("selected_trips", .array(selectedTrips.map { $0.json })))
    }
    if !startTimes.isEmpty {
      members.append(("start_times", .array(startTimes.map { .string($0) })))
    }
    if !serviceDates.isEmpty {
      members.append(("service_dates", .array(serviceDates.map { .string($0) })))
    }
    if !modifications.isEmpty {
      members.append(("modifications", .array(modifications.map { $0.json })))
    }
    return .object(members)
  }
}

extension TripModifications.Modification {
  /// This `Modification` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let startStopSelector { members.append(("start_stop_selector", startStopSelector.json)) }
    if let endStopSelector { members.append(("end_stop_selector", endStopSelector.json)) }
    if let propagatedModificationDelay {
      members.append(("propagated_modification_delay", .int(Int64(propagatedModificationDelay))))
    }
    if !replacementStops.isEmpty {
      members.append(("replacement_stops", .array(replacementStops.map { $0.json })))
    }
    if let serviceAlertID { members.append(("service_alert_id", .string(serviceAlertID))) }
    if let lastModifiedTime { members.append(("last_modified_time", .unsigned(lastModifiedTime))) }
    return .object(members)
  }
}

extension TripModifications.SelectedTrips {
  /// This `SelectedTrips` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if !tripIDs.isEmpty { members.append(("trip_ids", .array(tripIDs.map { .string($0) }))) }
    if let shapeID { members.append(("shape_id", .string(shapeID))) }
    return .object(members)
  }
}

extension StopSelector {
  /// This `StopSelector` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let stopSequence { members.append(("stop_sequence", .int(Int64(stopSequence)))) }
    if let stopID { members.append(("stop_id", .string(stopID))) }
    return .object(members)
  }
}

extension ReplacementStop {
  /// This `ReplacementStop` in protobuf's JSON mapping, keyed by the .proto's field names; unset
  /// fields and empty repeated fields are left out.
  package var json: JSON {
    var members: [(String, JSON)] = []
    if let travelTimeToStop {
      members.append(("travel_time_to_stop", .int(Int64(travelTimeToStop))))
    }
    if let stopID { members.append(("stop_id", .string(stopID))) }
    return .object(members)
  }
}

// MARK: - Protobuf JSON mapping of scalars

extension JSON {
  /// An enum by its .proto name; one the proto does not define, by its number.
  static func protoEnum(_ value: some ProtoEnum) -> JSON {
    value.protoName.map(JSON.string) ?? .int(Int64(value.rawValue))
  }

  /// A uint64 as a JSON number. `JSON` holds Int64, so a value above Int64.max (never a real
  /// timestamp) is written as a double, rounded.
  static func unsigned(_ value: UInt64) -> JSON {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .double(Double(value))
  }

  /// A float as the shortest decimal that reads back as the same float (47.6062, not
  /// 47.60620117…), as protobuf's JSON printers do; NaN and infinities as the strings
  /// protobuf's JSON mapping uses.
  static func protoFloat(_ value: Float) -> JSON {
    guard value.isFinite else { return nonFinite(Double(value)) }
    return .double(Double(value.description) ?? Double(value))
  }

  /// A double; NaN and infinities as protobuf's JSON strings.
  static func protoDouble(_ value: Double) -> JSON {
    value.isFinite ? .double(value) : nonFinite(value)
  }

  private static func nonFinite(_ value: Double) -> JSON {
    .string(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity")
  }
}
