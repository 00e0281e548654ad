import Foundation
import ToolRuntime

/// Opening an input that must be a regular file (Reference §11): a folder, a device
/// (`/dev/zero` grew a read to 16.8 GB), a FIFO (blocked forever) or a socket is refused with
/// one line and 66 before a byte is read; whole-file reads (presets, metas, sidecars) stop at a
/// size limit, so memory stays bounded whatever the path names.
public enum InputFile {
    /// The largest JSON file read whole (a preset, a meta, a sidecar): 16 MiB.
    public static let maxJSONBytes = 16 << 20
    /// The largest trace file copied whole (export's self-contained preset): 1 GiB.
    public static let maxTraceBytes = 1 << 30

    /// True when `a` and `b` name one existing file (same device and inode), however spelled:
    /// an output about to replace an input of the same run.
    public static func same(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Why `path` cannot be read as an input file, or nil when it is a regular file.
    public static func refusal(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot open: \(String(cString: strerror(errno)))" }
        return kindRefusal(info.st_mode)
    }

    static func kindRefusal(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a folder, not a file"
        default: "is not a regular file (a device, FIFO or socket)"
        }
    }

    /// The bytes of a regular file of at most `limit` bytes. Throws 66 when it cannot be opened
    /// or is not a regular file, 65 when it is larger than `limit`, 74 on a read error.
    public static func contents(_ path: String, limit: Int = maxJSONBytes, displayName: String? = nil) throws -> Data {
        let name = displayName ?? path
        let file = try openForReading(path, displayName: name)
        defer { fclose(file) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n == 0 { break }
            data.append(contentsOf: chunk[..<n])
            if data.count > limit { throw ToolError(.dataError, "\(name): larger than \(limit >> 20) MiB: not a springtune file") }
        }
        if ferror(file) != 0 { throw ToolError(.ioError, "\(name): read error") }
        return data
    }
}

/// Opens a regular file to read (66 when it cannot be opened, is a folder, a device, a FIFO or
/// a socket; a FIFO is opened without blocking, so refusing it never waits for a writer); a read
/// error later is 74.
func openForReading(_ path: String, displayName: String? = nil) throws -> UnsafeMutablePointer<FILE> {
    let name = displayName ?? path
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw ToolError(.noInput, "\(name): cannot open: \(String(cString: strerror(errno)))") }
    var info = stat()
    let refusal = fstat(fd, &info) == 0 ? InputFile.kindRefusal(info.st_mode) : "cannot open: \(String(cString: strerror(errno)))"
    if let refusal {
        close(fd)
        throw ToolError(.noInput, "\(name): \(refusal)")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    guard let file = fdopen(fd, "rb") else {
        close(fd)
        throw ToolError(.noInput, "\(name): cannot open: \(String(cString: strerror(errno)))")
    }
    return file
}
