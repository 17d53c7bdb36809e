// Test-only encoder: every field of every gtfs-realtime.proto message, written in field
// number order, so tests can round-trip a fully populated FeedMessage.

import GTFSRealtime

extension FeedMessage: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let header { writer.writeMessage(1, header) }
    for element in entities { writer.writeMessage(2, element) }
  }
}

extension FeedHeader: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let gtfsRealtimeVersion { writer.writeString(1, gtfsRealtimeVersion) }
    if let incrementality { writer.writeInt32(2, incrementality.rawValue) }
    if let timestamp { writer.writeUInt64(3, timestamp) }
    if let feedVersion { writer.writeString(4, feedVersion) }
  }
}

extension FeedEntity: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let id { writer.writeString(1, id) }
    if let isDeleted { writer.writeBool(2, isDeleted) }
    if let tripUpdate { writer.writeMessage(3, tripUpdate) }
    if let vehicle { writer.writeMessage(4, vehicle) }
    if let alert { writer.writeMessage(5, alert) }
    if let shape { writer.writeMessage(6, shape) }
    if let stop { writer.writeMessage(7, stop) }
    if let tripModifications { writer.writeMessage(8, tripModifications) }
  }
}

extension TripUpdate: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let trip { writer.writeMessage(1, trip) }
    for element in stopTimeUpdates { writer.writeMessage(2, element) }
    if let vehicle { writer.writeMessage(3, vehicle) }
    if let timestamp { writer.writeUInt64(4, timestamp) }
    if let delay { writer.writeInt32(5, delay) }
    if let tripProperties { writer.writeMessage(6, tripProperties) }
  }
}

extension TripUpdate.StopTimeEvent: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let delay { writer.writeInt32(1, delay) }
    if let time { writer.writeInt64(2, time) }
    if let uncertainty { writer.writeInt32(3, uncertainty) }
    if let scheduledTime { writer.writeInt64(4, scheduledTime) }
  }
}

extension TripUpdate.StopTimeUpdate: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let stopSequence { writer.writeUInt32(1, stopSequence) }
    if let arrival { writer.writeMessage(2, arrival) }
    if let departure { writer.writeMessage(3, departure) }
    if let stopID { writer.writeString(4, stopID) }
    if let scheduleRelationship { writer.writeInt32(5, scheduleRelationship.rawValue) }
    if let stopTimeProperties { writer.writeMessage(6, stopTimeProperties) }
    if let departureOccupancyStatus { writer.writeInt32(7, departureOccupancyStatus.rawValue) }
  }
}

extension TripUpdate.StopTimeUpdate.StopTimeProperties: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let assignedStopID { writer.writeString(1, assignedStopID) }
    if let stopHeadsign { writer.writeString(2, stopHeadsign) }
    if let pickupType { writer.writeInt32(3, pickupType.rawValue) }
    if let dropOffType { writer.writeInt32(4, dropOffType.rawValue) }
  }
}

extension TripUpdate.TripProperties: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let tripID { writer.writeString(1, tripID) }
    if let startDate { writer.writeString(2, startDate) }
    if let startTime { writer.writeString(3, startTime) }
    if let shapeID { writer.writeString(4, shapeID) }
    if let tripHeadsign { writer.writeString(5, tripHeadsign) }
    if let tripShortName { writer.writeString(6, tripShortName) }
  }
}

extension VehiclePosition: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let trip { writer.writeMessage(1, trip) }
    if let position { writer.writeMessage(2, position) }
    if let currentStopSequence { writer.writeUInt32(3, currentStopSequence) }
    if let currentStatus { writer.writeInt32(4, currentStatus.rawValue) }
    if let timestamp { writer.writeUInt64(5, timestamp) }
    if let congestionLevel { writer.writeInt32(6, congestionLevel.rawValue) }
    if let stopID { writer.writeString(7, stopID) }
    if let vehicle { writer.writeMessage(8, vehicle) }
    if let occupancyStatus { writer.writeInt32(9, occupancyStatus.rawValue) }
    if let occupancyPercentage { writer.writeUInt32(10, occupancyPercentage) }
    for element in multiCarriageDetails { writer.writeMessage(11, element) }
  }
}

extension VehiclePosition.CarriageDetails: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let id { writer.writeString(1, id) }
    if let label { writer.writeString(2, label) }
    if let occupancyStatus { writer.writeInt32(3, occupancyStatus.rawValue) }
    if let occupancyPercentage { writer.writeInt32(4, occupancyPercentage) }
    if let carriageSequence { writer.writeUInt32(5, carriageSequence) }
  }
}

extension Alert: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    for element in activePeriods { writer.writeMessage(1, element) }
    for element in informedEntities { writer.writeMessage(5, element) }
    if let cause { writer.writeInt32(6, cause.rawValue) }
    if let effect { writer.writeInt32(7, effect.rawValue) }
    if let url { writer.writeMessage(8, url) }
    if let headerText { writer.writeMessage(10, headerText) }
    if let descriptionText { writer.writeMessage(11, descriptionText) }
    if let ttsHeaderText { writer.writeMessage(12, ttsHeaderText) }
    if let ttsDescriptionText { writer.writeMessage(13, ttsDescriptionText) }
    if let severityLevel { writer.writeInt32(14, severityLevel.rawValue) }
    if let image { writer.writeMessage(15, image) }
    if let imageAlternativeText { writer.writeMessage(16, imageAlternativeText) }
    if let causeDetail { writer.writeMessage(17, causeDetail) }
    if let effectDetail { writer.writeMessage(18, effectDetail) }
  }
}

extension TimeRange: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let start { writer.writeUInt64(1, start) }
    if let end { writer.writeUInt64(2, end) }
  }
}

extension Position: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let latitude { writer.writeFloat(1, latitude) }
    if let longitude { writer.writeFloat(2, longitude) }
    if let bearing { writer.writeFloat(3, bearing) }
    if let odometer { writer.writeDouble(4, odometer) }
    if let speed { writer.writeFloat(5, speed) }
  }
}

extension TripDescriptor: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let tripID { writer.writeString(1, tripID) }
    if let startTime { writer.writeString(2, startTime) }
    if let startDate { writer.writeString(3, startDate) }
    if let scheduleRelationship { writer.writeInt32(4, scheduleRelationship.rawValue) }
    if let routeID { writer.writeString(5, routeID) }
    if let directionID { writer.writeUInt32(6, directionID) }
    if let modifiedTrip { writer.writeMessage(7, modifiedTrip) }
  }
}

extension TripDescriptor.ModifiedTripSelector: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let modificationsID { writer.writeString(1, modificationsID) }
    if let affectedTripID { writer.writeString(2, affectedTripID) }
    if let startTime { writer.writeString(3, startTime) }
    if let startDate { writer.writeString(4, startDate) }
  }
}

extension VehicleDescriptor: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let id { writer.writeString(1, id) }
    if let label { writer.writeString(2, label) }
    if let licensePlate { writer.writeString(3, licensePlate) }
    if let wheelchairAccessible { writer.writeInt32(4, wheelchairAccessible.rawValue) }
  }
}

extension EntitySelector: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let agencyID { writer.writeString(1, agencyID) }
    if let routeID { writer.writeString(2, routeID) }
    if let routeType { writer.writeInt32(3, routeType) }
    if let trip { writer.writeMessage(4, trip) }
    if let stopID { writer.writeString(5, stopID) }
    if let directionID { writer.writeUInt32(6, directionID) }
  }
}

extension TranslatedString: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    for element in translations { writer.writeMessage(1, element) }
  }
}

extension TranslatedString.Translation: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let text { writer.writeString(1, text) }
    if let language { writer.writeString(2, language) }
  }
}

extension TranslatedImage: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    for element in localizedImages { writer.writeMessage(1, element) }
  }
}

extension TranslatedImage.LocalizedImage: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let url { writer.writeString(1, url) }
    if let mediaType { writer.writeString(2, mediaType) }
    if let language { writer.writeString(3, language) }
  }
}

extension Shape: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let shapeID { writer.writeString(1, shapeID) }
    if let encodedPolyline { writer.writeString(2, encodedPolyline) }
  }
}

extension Stop: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let stopID { writer.writeString(1, stopID) }
    if let stopCode { writer.writeMessage(2, stopCode) }
    if let stopName { writer.writeMessage(3, stopName) }
    if let ttsStopName { writer.writeMessage(4, ttsStopName) }
    if let stopDesc { writer.writeMessage(5, stopDesc) }
    if let stopLat { writer.writeFloat(6, stopLat) }
    if let stopLon { writer.writeFloat(7, stopLon) }
    if let zoneID { writer.writeString(8, zoneID) }
    if let stopURL { writer.writeMessage(9, stopURL) }
    if let parentStation { writer.writeString(11, parentStation) }
    if let stopTimezone { writer.writeString(12, stopTimezone) }
    if let wheelchairBoarding { writer.writeInt32(13, wheelchairBoarding.rawValue) }
    if let levelID { writer.writeString(14, levelID) }
    if let platformCode { writer.writeMessage(15, platformCode) }
  }
}

extension TripModifications: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    for element in selectedTrips { writer.writeMessage(1, element) }
    for element in startTimes { writer.writeString(2, element) }
    for element in serviceDates { writer.writeString(3, element) }
    for element in modifications { writer.writeMessage(4, element) }
  }
}

extension TripModifications.Modification: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let startStopSelector { writer.writeMessage(1, startStopSelector) }
    if let endStopSelector { writer.writeMessage(2, endStopSelector) }
    if let propagatedModificationDelay { writer.writeInt32(3, propagatedModificationDelay) }
    for element in replacementStops { writer.writeMessage(4, element) }
    if let serviceAlertID { writer.writeString(5, serviceAlertID) }
    if let lastModifiedTime { writer.writeUInt64(6, lastModifiedTime) }
  }
}

extension TripModifications.SelectedTrips: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    for element in tripIDs { writer.writeString(1, element) }
    if let shapeID { writer.writeString(2, shapeID) }
  }
}

extension StopSelector: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let stopSequence { writer.writeUInt32(1, stopSequence) }
    if let stopID { writer.writeString(2, stopID) }
  }
}

extension ReplacementStop: WireEncodable {
  package func encode(to writer: inout WireWriter) {
    if let travelTimeToStop { writer.writeInt32(1, travelTimeToStop) }
    if let stopID { writer.writeString(2, stopID) }
  }
}
