import Foundation
import TraceIO

public enum SpringTuneVersion {
    public static let current = "0.1.0"

    /// The running executable's SHA-256 (its first 16 hex digits): a rebuilt binary may compute
    /// other numbers, so a sweep's checkpoint only resumes under the same build.
    public static let build: String = {
        let path = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
        return (try? SHA256.file(path)).map { String($0.prefix(16)) } ?? current
    }()
}
