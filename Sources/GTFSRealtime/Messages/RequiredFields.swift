// Proto2 `required` fields are decoded leniently (real feeds leave them out); these walks
// list what a decoded message lacks, by field path, for output to report.

extension FeedMessage {
  /// Appends the paths of required fields missing from this `FeedMessage`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    if header == nil { missing.append(prefix + "header") }
    header?.collectMissingRequiredFields(at: prefix + "header", into: &missing)
    for (index, element) in entities.enumerated() {
      element.collectMissingRequiredFields(at: prefix + "entity[\(index)]", into: &missing)
    }
  }
}

extension FeedHeader {
  /// Appends the paths of required fields missing from this `FeedHeader`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    if gtfsRealtimeVersion == nil { missing.append(prefix + "gtfs_realtime_version") }
  }
}

extension FeedEntity {
  /// Appends the paths of required fields missing from this `FeedEntity`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    if id == nil { missing.append(prefix + "id") }
    tripUpdate?.collectMissingRequiredFields(at: prefix + "trip_update", into: &missing)
    vehicle?.collectMissingRequiredFields(at: prefix + "vehicle", into: &missing)
    alert?.collectMissingRequiredFields(at: prefix + "alert", into: &missing)
    stop?.collectMissingRequiredFields(at: prefix + "stop", into: &missing)
  }
}

extension TripUpdate {
  /// Appends the paths of required fields missing from this `TripUpdate`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    if trip == nil { missing.append(prefix + "trip") }
  }
}

extension VehiclePosition {
  /// Appends the paths of required fields missing from this `VehiclePosition`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    position?.collectMissingRequiredFields(at: prefix + "position", into: &missing)
  }
}

extension Alert {
  /// Appends the paths of required fields missing from this `Alert`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    url?.collectMissingRequiredFields(at: prefix + "url", into: &missing)
    headerText?.collectMissingRequiredFields(at: prefix + "header_text", into: &missing)
    descriptionText?.collectMissingRequiredFields(at: prefix + "description_text", into: &missing)
    ttsHeaderText?.collectMissingRequiredFields(at: prefix + "tts_header_text", into: &missing)
    ttsDescriptionText?.collectMissingRequiredFields(
      at: prefix + "tts_description_text", into: &missing)
    image?.collectMissingRequiredFields(at: prefix + "image", into: &missing)
    imageAlternativeText?.collectMissingRequiredFields(
      at: prefix + "image_alternative_text", into: &missing)
    causeDetail?.collectMissingRequiredFields(at: prefix + "cause_detail", into: &missing)
    effectDetail?.collectMissingRequiredFields(at: prefix + "effect_detail", into: &missing)
  }
}

extension Position {
  /// Appends the paths of required fields missing from this `Position`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    if latitude == nil { missing.append(prefix + "latitude") }
    if longitude == nil { missing.append(prefix + "longitude") }
  }
}

extension TranslatedString {
  /// Appends the paths of required fields missing from this `TranslatedString`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    for (index, element) in translations.enumerated() {
      element.collectMissingRequiredFields(at: prefix + "translation[\(index)]", into: &missing)
    }
  }
}

extension TranslatedString.Translation {
  /// Appends the paths of required fields missing from this `Translation`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    if text == nil { missing.append(prefix + "text") }
  }
}

extension TranslatedImage {
  /// Appends the paths of required fields missing from this `TranslatedImage`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    for (index, element) in localizedImages.enumerated() {
      element.collectMissingRequiredFields(at: prefix + "localized_image[\(index)]", into: &missing)
    }
  }
}

extension TranslatedImage.LocalizedImage {
  /// Appends the paths of required fields missing from this `LocalizedImage`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    if url == nil { missing.append(prefix + "url") }
    if mediaType == nil { missing.append(prefix + "media_type") }
  }
}

extension Stop {
  /// Appends the paths of required fields missing from this `Stop`, under `path`.
  func collectMissingRequiredFields(at path: String, into missing: inout [String]) {
    let prefix = path.isEmpty ? "" : path + "."
    stopCode?.collectMissingRequiredFields(at: prefix + "stop_code", into: &missing)
    stopName?.collectMissingRequiredFields(at: prefix + "stop_name", into: &missing)
    ttsStopName?.collectMissingRequiredFields(at: prefix + "tts_stop_name", into: &missing)
    stopDesc?.collectMissingRequiredFields(at: prefix + "stop_desc", into: &missing)
    stopURL?.collectMissingRequiredFields(at: prefix + "stop_url", into: &missing)
    platformCode?.collectMissingRequiredFields(at: prefix + "platform_code", into: &missing)
  }
}

extension FeedMessage {
  /// The paths of proto2 `required` fields this feed leaves out, such as `entity[3].id` or
  /// `entity[0].vehicle.position.latitude`; empty for a well-formed feed.
  ///
  /// The decoder accepts such feeds (real ones break the rule) and leaves the fields nil.
  /// - Complexity: O(n) in the number of decoded messages.
  public var missingRequiredFields: [String] {
    var missing: [String] = []
    collectMissingRequiredFields(at: "", into: &missing)
    return missing
  }
}
