import Foundation

public enum SpringTuneVersion {
    public static let current = "0.1.0"

    /// The running executable's size and modification time: a rebuilt binary may compute other
    /// numbers, so a sweep's checkpoint only resumes under the same build. (Cheaper than a
    /// digest of the file, which cost every sweep 0.1 s.)
    public static let build: String = {
        let path = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
        guard let stamp = try? FileStamp(path) else { return current }
        return "\(stamp.size)-\(stamp.mtime)"
    }()
}
