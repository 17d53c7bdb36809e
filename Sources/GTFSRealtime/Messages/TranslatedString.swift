// The messages of gtfs-realtime.proto (google/transit, proto2), one struct per message.
// Field docs quote or condense the .proto's comments.

/// An internationalized message containing per-language versions of a snippet of text or a URL.
///
/// The proto's `TranslatedString`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct TranslatedString: Sendable, Equatable {
  /// At least one translation must be provided.
  ///
  /// Proto field 1: `repeated Translation translation`.
  public var translations: [Translation] = []

  /// A `TranslatedString` with every field unset.
  public init() {}

  /// A `TranslatedString` with the given fields; those not given are unset.
  public init(
    translations: [Translation] = []
  ) {
    self.translations = translations
  }

  /// One language's version of a text.
  ///
  /// The proto's `TranslatedString.Translation`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  public struct Translation: Sendable, Equatable {
    /// The text (required by the proto).
    ///
    /// Proto field 1: `required string text`.
    public var text: String?
    /// BCP-47 language code.
    ///
    /// Proto field 2: `optional string language`.
    public var language: String?

    /// A `Translation` with every field unset.
    public init() {}

    /// A `Translation` with the given fields; those not given are unset.
    public init(
      text: String? = nil,
      language: String? = nil
    ) {
      self.text = text
      self.language = language
    }
  }
}

/// An image in several languages, with its media type.
///
/// The proto's `TranslatedImage`. Optional properties are nil when the field is absent
/// (proto2 "has" semantics: unset differs from the default).
public struct TranslatedImage: Sendable, Equatable {
  /// At least one localized image must be provided.
  ///
  /// Proto field 1: `repeated LocalizedImage localized_image`.
  public var localizedImages: [LocalizedImage] = []

  /// A `TranslatedImage` with every field unset.
  public init() {}

  /// A `TranslatedImage` with the given fields; those not given are unset.
  public init(
    localizedImages: [LocalizedImage] = []
  ) {
    self.localizedImages = localizedImages
  }

  /// One language's version of an image.
  ///
  /// The proto's `TranslatedImage.LocalizedImage`. Optional properties are nil when the field is absent
  /// (proto2 "has" semantics: unset differs from the default).
  public struct LocalizedImage: Sendable, Equatable {
    /// A URL of the image (required by the proto).
    ///
    /// Proto field 1: `required string url`.
    public var url: String?
    /// IANA media type as to specify the type of image to be displayed.
    ///
    /// Proto field 2: `required string media_type`.
    public var mediaType: String?
    /// BCP-47 language code.
    ///
    /// Proto field 3: `optional string language`.
    public var language: String?

    /// A `LocalizedImage` with every field unset.
    public init() {}

    /// A `LocalizedImage` with the given fields; those not given are unset.
    public init(
      url: String? = nil,
      mediaType: String? = nil,
      language: String? = nil
    ) {
      self.url = url
      self.mediaType = mediaType
      self.language = language
    }
  }
}
