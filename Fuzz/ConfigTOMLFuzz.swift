// libFuzzer target for `config.toml` (Settings.parse); built and run by Fuzz/run.
//
// Any input must parse or throw a SettingsError naming the file and line; nothing may trap. The
// file the settings write parses back to the same file.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigTOML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
  let settings: Settings
  do {
    settings = try Settings.parse(text, path: "config.toml")
  } catch {
    precondition(error.message.hasPrefix("config.toml:"))
    return 0
  }
  let written = settings.fileText
  let again = try! Settings.parse(written, path: "config.toml")
  precondition(again.fileText == written, "the written file does not read back the same")
  return 0
}
