import Foundation
import ToolRuntime

/// A run's output folder, built beside its target and swapped in whole at the end, so the
/// target holds either the complete old outputs or the complete new ones, never a mix, and a
/// reader never finds it missing (Reference §11). The swap is one `renameat2(RENAME_EXCHANGE)`
/// where the file system has it (ext4, xfs, btrfs, tmpfs); elsewhere it falls back to two
/// renames (target aside, staging in), and a kill between them leaves the target moved aside
/// as `TARGET.old-PID` until the next run into it puts it back. An exclusive lock on the
/// resolved target (`TARGET.lock` beside it, in the real parent folder, so every spelling of one
/// folder, symlinks included, takes the same lock) keeps two runs from writing one folder; the
/// lock file goes when the run ends. A symlink given as the target is followed, never replaced:
/// the folder it points to is swapped. A run killed outright leaves only `TARGET.partial-PID`,
/// which the next run into the target removes. SIGINT and SIGTERM remove the staging folder
/// (``Cleanup``, in ToolRuntime) before the process exits.
public final class OutputFolder: @unchecked Sendable {
    /// The folder the outputs end up in as the caller named it (paths printed and read back
    /// go through it), and the one they are written to meanwhile (beside ``real``).
    public let target: String
    public let staging: String
    /// The target with every symlink resolved: where the lock, staging and swap happen.
    let real: String
    private let lockPath: String
    private let lockFD: Int32
    private var open = true
    /// The exchange ``commit()`` tries first (a test replaces it to take the fallback).
    var exchanging: (String, String) -> Bool? = OutputFolder.exchange

    /// The files a sweep's output folder may be recognised by, a comparison's, and a replay's.
    public static let sweepMarkers = ["report.csv", "report.meta.json", "index.html", "round-0", ".springtune-resume"]
    public static let compareMarkers = ["compare.csv"]
    public static let replayMarkers = ["timeline.csv"]

    /// Environment variable for tests only: seconds to pause before each system call of the
    /// swap (announced on stderr), so a test can kill the run between any two of them.
    static let pauseVariable = "SPRINGTUNE_TEST_PAUSE_SWAP"

    /// Opens `given` for a run whose folders hold one of `markers`: an existing folder that is
    /// neither empty nor holds one is refused (73), as it would be replaced whole.
    public init(_ given: String, markers: [String] = sweepMarkers) throws {
        guard !given.isEmpty else { throw ToolError(.usage, "the output folder must not be empty") }
        let url = URL(fileURLWithPath: given).standardizedFileURL
        target = url.path
        guard url.path != "/" else { throw ToolError(.usage, "refusing to write outputs into /") }
        let parent = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw ToolError(.cantCreate, "\(parent): cannot create folder: \(error.localizedDescription)")
        }
        real = try Self.resolve(url)
        guard real != "/" else { throw ToolError(.usage, "refusing to write outputs into /") }
        lockPath = real + ".lock"
        lockFD = try Self.lock(lockPath, target: target)
        // SIGINT and SIGTERM remove the lock file with the staging folder (the lock itself goes with the process).
        Cleanup.shared.register(lockPath)
        staging = "\(real).partial-\(getpid())"
        do {
            let realURL = URL(fileURLWithPath: real)
            try Self.recover(parent: realURL.deletingLastPathComponent().path, base: realURL.lastPathComponent)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: real, isDirectory: &isDir) {
                let entries = isDir.boolValue ? try FileManager.default.contentsOfDirectory(atPath: real) : ["?"]
                guard isDir.boolValue, entries.isEmpty || entries.contains(where: markers.contains) else {
                    throw ToolError(.cantCreate, "\(target): exists and is not a springtune output folder (it is replaced whole); choose a new or empty --out")
                }
            }
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        } catch {
            release()
            if let e = error as? ToolError { throw e }
            throw ToolError(.cantCreate, "\(staging): cannot create: \(error.localizedDescription)")
        }
        Cleanup.shared.register(staging)
    }

    /// The real path of `url`: its parent with symlinks resolved, and its last component
    /// followed when it is a symlink itself. A link to nothing is refused (73): what it would
    /// create is not where the user looks.
    static func resolve(_ url: URL) throws -> String {
        var info = stat()
        if lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            guard let real = realpath(url.path, nil) else {
                let dest = (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?"
                throw ToolError(.cantCreate, "\(url.path): is a symlink to \(dest), which does not exist; create that folder or choose another --out")
            }
            defer { free(real) }
            return String(cString: real)
        }
        let parent = url.deletingLastPathComponent().path
        guard let real = realpath(parent, nil) else {
            throw ToolError(.cantCreate, "\(parent): cannot resolve: \(String(cString: strerror(errno)))")
        }
        defer { free(real) }
        let base = String(cString: real)
        return (base == "/" ? "" : base) + "/" + url.lastPathComponent
    }

    /// Takes the exclusive lock at `path` (73 at once when another run holds it). The holder
    /// before us removes the file as it lets go, so a lock taken on a file no longer at `path`
    /// (same device and inode) locks nothing and is taken again.
    /// Runs `body`, which writes files into `folder` (a command's `-o FILE`: merge, export, …),
    /// holding the folder's own output lock: the one a sweep or search into that folder holds
    /// while it builds the folder's replacement, so a file written there is never lost to the
    /// swap (73 while a run holds it). The lock file goes when `body` ends, or at SIGINT/SIGTERM.
    public static func writing<T>(into folder: String, _ body: () throws -> T) throws -> T {
        let url = URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL
        // A folder whose parent does not exist yet has no run writing it (a run creates the parent first).
        guard let real = try? resolve(url), real != "/" else { return try body() }
        let path = real + ".lock"
        let fd = try lock(path, target: url.path)
        Cleanup.shared.register(path)
        defer {
            Cleanup.shared.unregister(path)
            unlink(path)
            flock(fd, LOCK_UN)
            close(fd)
        }
        return try body()
    }

    static func lock(_ path: String, target: String) throws -> Int32 {
        while true {
            let fd = Foundation.open(path, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw ToolError(.cantCreate, "\(path): cannot create the lock file: \(String(cString: strerror(errno)))") }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                close(fd)
                throw ToolError(.cantCreate, "\(target): another springtune run is writing this folder (\(path) is held); wait for it or choose another --out")
            }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, lstat(path, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino { return fd }
            close(fd)
        }
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

    /// Swaps the staging folder in (see the type's comment), removes the old outputs, then
    /// releases the lock.
    public func commit() throws {
        guard open else { return }
        defer { release() }
        let hadTarget = FileManager.default.fileExists(atPath: real)
        if hadTarget {
            pause(1)
            if let exchanged = exchanging(staging, real) {
                guard exchanged else {
                    throw ToolError(.cantCreate, "\(target): cannot put the new outputs in place: \(String(cString: strerror(errno)))")
                }
                Cleanup.shared.unregister(staging)
                pause(2)
                Self.removeStaging(staging)   // the old outputs, now under the staging name
                return
            }
        }
        // No exchange on this file system (or nothing to exchange with): two renames.
        let old = "\(real).old-\(getpid())"
        if hadTarget, rename(real, old) != 0 {
            throw ToolError(.cantCreate, "\(target): cannot move the previous outputs aside: \(String(cString: strerror(errno)))")
        }
        pause(2)
        guard rename(staging, real) == 0 else {
            let reason = String(cString: strerror(errno))
            if hadTarget { _ = rename(old, real) }
            throw ToolError(.cantCreate, "\(target): cannot put the new outputs in place: \(reason)")
        }
        Cleanup.shared.unregister(staging)
        pause(3)
        if hadTarget { try? FileManager.default.removeItem(atPath: old) }
    }

    /// `renameat2(a, b, RENAME_EXCHANGE)`: true when the two swapped, false on an error (errno
    /// set), nil when the C library or the file system has no exchange (the caller falls back).
    /// Looked up at run time: Glibc declares it only under _GNU_SOURCE, which Swift does not set.
    static func exchange(_ a: String, _ b: String) -> Bool? {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else { return nil }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 1 << 1   // RENAME_EXCHANGE, <stdio.h>
        if renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0 { return true }
        return errno == EINVAL || errno == ENOSYS || errno == ENOTSUP ? nil : false
    }

    /// For tests (``pauseVariable``): announces step `n` of the swap and waits.
    private func pause(_ n: Int) {
        guard let text = ProcessInfo.processInfo.environment[Self.pauseVariable], let seconds = UInt32(text) else { return }
        StandardStreams.error("springtune: test pause before swap step \(n)\n")
        sleep(seconds)
    }

    /// Drops the staging folder (a failed run) and releases the lock.
    public func abandon() {
        guard open else { return }
        Self.removeStaging(staging)
        Cleanup.shared.unregister(staging)
        release()
    }

    /// Removes the lock file while still holding the lock (see ``lock(_:target:)``), then lets go.
    private func release() {
        open = false
        Cleanup.shared.unregister(lockPath)
        unlink(lockPath)
        flock(lockFD, LOCK_UN)
        close(lockFD)
    }

    deinit { if open { abandon() } }
}
