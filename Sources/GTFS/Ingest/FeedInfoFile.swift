/// feed_info.txt: who publishes the feed, and the dates it says it covers. Kept in `feed_meta`
/// by column name. The reference requires the publisher's name, URL and language; a feed
/// without them loads all the same (the file only informs).
enum FeedInfoColumn: Int, GTFSColumns {
  case publisherName, publisherURL, language, startDate, endDate, version, contactEmail

  static let file = "feed_info.txt"

  var spec: ColumnSpec {
    switch self {
    case .publisherName: ColumnSpec("feed_publisher_name")
    case .publisherURL: ColumnSpec("feed_publisher_url")
    case .language: ColumnSpec("feed_lang")
    case .startDate: ColumnSpec("feed_start_date")
    case .endDate: ColumnSpec("feed_end_date")
    case .version: ColumnSpec("feed_version")
    case .contactEmail: ColumnSpec("feed_contact_email")
    }
  }
}

extension FeedImporter {
  /// Keeps the first row's values.
  func loadFeedInfo() throws {
    let count = try each(FeedInfoColumn.self) { r in
      guard feedInfo.isEmpty else { return }
      for column in FeedInfoColumn.allCases {
        if let value = r.text(column) { feedInfo[column.spec.name] = value }
      }
    }
    if count > 0 { summary.rows.append((FeedInfoColumn.file, count)) }
  }
}
