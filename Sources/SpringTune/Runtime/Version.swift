import Foundation

public enum SpringTuneVersion {
    /// The version this build was made from. `make` writes `BuildVersion.swift` beside this file
    /// (gitignored) with `git describe --tags --always --dirty` and compiles with
    /// `-DSPRINGTUNE_BUILD_VERSION`; a plain `swift build` uses `fallback`.
    public static let current = described

    /// The last released version, for builds made without `make` (no git information).
    public static let fallback = "0.1.0+unknown"

    /// The running executable's size and modification time: a rebuilt binary may compute other
    /// numbers, so a sweep's checkpoint only resumes under the same build. (Cheaper than a
    /// digest of the file, which cost every sweep 0.1 s.)
    public static let build: String = {
        let path = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
        guard let stamp = try? FileStamp(path) else { return current }
        return "\(stamp.size)-\(stamp.mtime)"
    }()
}

#if !SPRINGTUNE_BUILD_VERSION
extension SpringTuneVersion {
    static let described = fallback
}
#endif
