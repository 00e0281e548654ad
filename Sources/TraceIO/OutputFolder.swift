import Foundation

/// A run's output folder, built beside its target and swapped in whole at the end, so the
/// target holds either the complete old outputs or the complete new ones, never a mix; an
/// exclusive lock (`TARGET.lock` beside it) keeps two runs from writing one folder. A run killed
/// outright leaves only `TARGET.partial-PID`, which the next run into the target removes.
/// SIGINT and SIGTERM remove the staging folder (``Cleanup``, in ToolRuntime) before the process exits.
public final class OutputFolder: @unchecked Sendable {
    /// The folder the outputs end up in, and the one they are written to meanwhile.
    public let target: String
    public let staging: String
    private let lockFD: Int32
    private var open = true

    /// The files a springtune output folder may be recognised by.
    static let markers = ["report.csv", "report.meta.json", "index.html", "round-0", ".springtune-resume"]

    public init(_ target: String) throws {
        guard !target.isEmpty else { throw ToolError(.usage, "the output folder must not be empty") }
        let url = URL(fileURLWithPath: target).standardizedFileURL
        self.target = url.path
        guard url.path != "/" else { throw ToolError(.usage, "refusing to write outputs into /") }
        let parent = url.deletingLastPathComponent().path, base = url.lastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw ToolError(.cantCreate, "\(parent): cannot create folder: \(error.localizedDescription)")
        }
        lockFD = Foundation.open("\(url.path).lock", O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else { throw ToolError(.cantCreate, "\(url.path).lock: cannot create the lock file: \(String(cString: strerror(errno)))") }
        guard flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
            close(lockFD)
            throw ToolError(.cantCreate, "\(url.path): another springtune run is writing this folder (\(base).lock is held); wait for it or choose another --out")
        }
        staging = "\(url.path).partial-\(getpid())"
        do {
            try Self.recover(parent: parent, base: base)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) {
                let entries = isDir.boolValue ? try FileManager.default.contentsOfDirectory(atPath: url.path) : ["?"]
                guard isDir.boolValue, entries.isEmpty || entries.contains(where: Self.markers.contains) else {
                    throw ToolError(.cantCreate, "\(url.path): exists and is not a springtune output folder (it is replaced whole); choose a new or empty --out")
                }
            }
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        } catch {
            flock(lockFD, LOCK_UN); close(lockFD)
            if let e = error as? ToolError { throw e }
            throw ToolError(.cantCreate, "\(staging): cannot create: \(error.localizedDescription)")
        }
        Cleanup.shared.register(staging)
    }

    /// Leftovers of killed runs into this target: staging folders are removed; a target that a
    /// kill left moved aside (between the two renames of a swap) is put back.
    static func recover(parent: String, base: String) throws {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        let target = "\(parent)/\(base)"
        for e in entries where e.hasPrefix(base + ".partial-") { removeStaging("\(parent)/\(e)") }
        for e in entries.sorted() where e.hasPrefix(base + ".old-") {
            if !FileManager.default.fileExists(atPath: target) {
                _ = rename("\(parent)/\(e)", target)
            } else {
                try? FileManager.default.removeItem(atPath: "\(parent)/\(e)")
            }
        }
    }

    /// Removes a killed run's staging folder. A child it started (gnuplot, drawing with its
    /// working directory there) may outlive it and add a file while the folder is being emptied,
    /// which makes one removal fail; once the folder itself is gone such a child can create
    /// nothing more, so the removal is tried again, every 10 ms for at most 2 s.
    static func removeStaging(_ path: String) {
        for _ in 0..<200 {
            try? FileManager.default.removeItem(atPath: path)
            guard FileManager.default.fileExists(atPath: path) else { return }
            usleep(10_000)
        }
    }

    /// Swaps the staging folder in: the old target (if any) moves aside, the new one takes its
    /// name, the old one is removed; then the lock is released.
    public func commit() throws {
        guard open else { return }
        defer { release() }
        let old = "\(target).old-\(getpid())"
        let hadTarget = FileManager.default.fileExists(atPath: target)
        if hadTarget, rename(target, old) != 0 {
            throw ToolError(.cantCreate, "\(target): cannot move the previous outputs aside: \(String(cString: strerror(errno)))")
        }
        guard rename(staging, target) == 0 else {
            let reason = String(cString: strerror(errno))
            if hadTarget { _ = rename(old, target) }
            throw ToolError(.cantCreate, "\(target): cannot put the new outputs in place: \(reason)")
        }
        Cleanup.shared.unregister(staging)
        if hadTarget { try? FileManager.default.removeItem(atPath: old) }
    }

    /// Drops the staging folder (a failed run) and releases the lock.
    public func abandon() {
        guard open else { return }
        try? FileManager.default.removeItem(atPath: staging)
        Cleanup.shared.unregister(staging)
        release()
    }

    private func release() {
        open = false
        flock(lockFD, LOCK_UN)
        close(lockFD)
    }

    deinit { if open { abandon() } }
}
