// Fully populated messages for round-trip and output tests: every field of every message of
// gtfs-realtime.proto is set, with negative int32s (10-byte varints), non-ASCII text and an
// enum value the proto does not define.

import GTFSRealtime

extension FeedMessage {
  /// A `FeedMessage` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      header: .sample,
      entities: [.sample, .sample]
    )
  }
}

extension FeedHeader {
  /// A `FeedHeader` with every field set (repeated fields twice).
  package static var sample: Self {
    var header = Self(
      gtfsRealtimeVersion: "2.0",
      incrementality: .differential,
      timestamp: 1_699_405_603,
      feedVersion: "feed_version 4"
    )
    header.nyctFeedHeader = .sample
    return header
  }
}

extension FeedEntity {
  /// A `FeedEntity` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      id: "id 1",
      isDeleted: true,
      tripUpdate: .sample,
      vehicle: .sample,
      alert: .sample,
      shape: .sample,
      stop: .sample,
      tripModifications: .sample
    )
  }
}

extension TripUpdate {
  /// A `TripUpdate` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      trip: .sample,
      vehicle: .sample,
      stopTimeUpdates: [.sample, .sample],
      timestamp: 1_699_405_604,
      delay: -190,
      tripProperties: .sample
    )
  }
}

extension TripUpdate.StopTimeEvent {
  /// A `StopTimeEvent` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      delay: -38,
      time: 1_699_405_502,
      uncertainty: -114,
      scheduledTime: 1_699_405_504
    )
  }
}

extension TripUpdate.StopTimeUpdate {
  /// A `StopTimeUpdate` with every field set (repeated fields twice).
  package static var sample: Self {
    var update = Self(
      stopSequence: 1001,
      stopID: "stop_id 2",
      arrival: .sample,
      departure: .sample,
      departureOccupancyStatus: .notBoardable,
      scheduleRelationship: .unscheduled,
      stopTimeProperties: .sample
    )
    update.nyctStopTimeUpdate = NyctStopTimeUpdate(scheduledTrack: "scheduled_track 1", actualTrack: "actual_track 2")
    return update
  }
}

extension TripUpdate.StopTimeUpdate.StopTimeProperties {
  /// A `StopTimeProperties` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      assignedStopID: "assigned_stop_id 1",
      stopHeadsign: "stop_headsign 2",
      pickupType: .coordinateWithDriver,
      dropOffType: .coordinateWithDriver
    )
  }
}

extension TripUpdate.TripProperties {
  /// A `TripProperties` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      tripID: "trip_id 1",
      startDate: "start_date 2",
      startTime: "start_time 3",
      shapeID: "shape_id 4",
      tripHeadsign: "trip_headsign 5",
      tripShortName: "trip_short_name 6"
    )
  }
}

extension VehiclePosition {
  /// A `VehiclePosition` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      trip: .sample,
      vehicle: .sample,
      position: .sample,
      currentStopSequence: 3004,
      stopID: "stop_id 5",
      currentStatus: .inTransitTo,
      timestamp: 1_699_405_607,
      congestionLevel: .severeCongestion,
      occupancyStatus: .notBoardable,
      occupancyPercentage: 10010,
      multiCarriageDetails: [.sample, .sample]
    )
  }
}

extension VehiclePosition.CarriageDetails {
  /// A `CarriageDetails` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      id: "id 1",
      label: "label 2",
      occupancyStatus: .notBoardable,
      occupancyPercentage: -152,
      carriageSequence: 5005
    )
  }
}

extension Alert {
  /// A `Alert` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      activePeriods: [.sample, .sample],
      informedEntities: [.sample, .sample],
      cause: .specialEvent,
      effect: .accessibilityIssue,
      url: .sample,
      headerText: .sample,
      descriptionText: .sample,
      ttsHeaderText: .sample,
      ttsDescriptionText: .sample,
      severityLevel: .severe,
      image: .sample,
      imageAlternativeText: .sample,
      causeDetail: .sample,
      effectDetail: .sample
    )
  }
}

extension TimeRange {
  /// A `TimeRange` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      start: 1_699_405_601,
      end: 1_699_405_602
    )
  }
}

extension Position {
  /// A `Position` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      latitude: 47.6062,
      longitude: -122.3321,
      bearing: 3.325,
      odometer: 4234.45,
      speed: 5.525
    )
  }
}

extension TripDescriptor {
  /// A `TripDescriptor` with every field set (repeated fields twice).
  package static var sample: Self {
    var descriptor = Self(
      tripID: "trip_id 1",
      routeID: "route_id 2",
      directionID: 6003,
      startTime: "25:10:00",
      startDate: "20231107",
      scheduleRelationship: .unrecognized(42),
      modifiedTrip: .sample
    )
    descriptor.nyctTripDescriptor = NyctTripDescriptor(trainID: "train_id 1", isAssigned: true, direction: .unrecognized(7))
    return descriptor
  }
}

extension TripDescriptor.ModifiedTripSelector {
  /// A `ModifiedTripSelector` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      modificationsID: "modifications_id 1",
      affectedTripID: "affected_trip_id 2",
      startTime: "start_time 3",
      startDate: "start_date 4"
    )
  }
}

extension VehicleDescriptor {
  /// A `VehicleDescriptor` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      id: "id 1",
      label: "label 2",
      licensePlate: "license_plate 3",
      wheelchairAccessible: .wheelchairInaccessible
    )
  }
}

extension EntitySelector {
  /// A `EntitySelector` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      agencyID: "agency_id 1",
      routeID: "route_id 2",
      routeType: -114,
      trip: .sample,
      stopID: "stop_id 5",
      directionID: 6006
    )
  }
}

extension TranslatedString {
  /// A `TranslatedString` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      translations: [.sample, .sample]
    )
  }
}

extension TranslatedString.Translation {
  /// A `Translation` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      text: "Délai de 5 min — ligne ⚠︎ 42",
      language: "fr"
    )
  }
}

extension TranslatedImage {
  /// A `TranslatedImage` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      localizedImages: [.sample, .sample]
    )
  }
}

extension TranslatedImage.LocalizedImage {
  /// A `LocalizedImage` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      url: "url 1",
      mediaType: "media_type 2",
      language: "language 3"
    )
  }
}

extension Shape {
  /// A `Shape` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      shapeID: "shape_id 1",
      encodedPolyline: "encoded_polyline 2"
    )
  }
}

extension Stop {
  /// A `Stop` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      stopID: "stop_id 1",
      stopCode: .sample,
      stopName: .sample,
      ttsStopName: .sample,
      stopDesc: .sample,
      stopLat: 6.625,
      stopLon: 7.725,
      zoneID: "zone_id 8",
      stopURL: .sample,
      parentStation: "parent_station 10",
      stopTimezone: "stop_timezone 11",
      wheelchairBoarding: .notAvailable,
      levelID: "level_id 13",
      platformCode: .sample
    )
  }
}

extension TripModifications {
  /// A `TripModifications` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      selectedTrips: [.sample, .sample],
      startTimes: ["start_times 1", "start_times 2"],
      serviceDates: ["service_dates 1", "service_dates 2"],
      modifications: [.sample, .sample]
    )
  }
}

extension TripModifications.Modification {
  /// A `Modification` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      startStopSelector: .sample,
      endStopSelector: .sample,
      propagatedModificationDelay: -114,
      replacementStops: [.sample, .sample],
      serviceAlertID: "service_alert_id 5",
      lastModifiedTime: 1_699_405_606
    )
  }
}

extension TripModifications.SelectedTrips {
  /// A `SelectedTrips` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      tripIDs: ["trip_ids 1", "trip_ids 2"],
      shapeID: "shape_id 2"
    )
  }
}

extension StopSelector {
  /// A `StopSelector` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      stopSequence: 1001,
      stopID: "stop_id 2"
    )
  }
}

extension ReplacementStop {
  /// A `ReplacementStop` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      travelTimeToStop: -38,
      stopID: "stop_id 2"
    )
  }
}

extension NyctFeedHeader {
  /// A `NyctFeedHeader` with every field set (repeated fields twice).
  package static var sample: Self {
    Self(
      nyctSubwayVersion: "1.0",
      tripReplacementPeriods: [
        TripReplacementPeriod(routeID: "route_id 1", replacementPeriod: .sample),
        TripReplacementPeriod(routeID: "route_id 2", replacementPeriod: .sample),
      ])
  }
}
