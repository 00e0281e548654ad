import Foundation
import SpringCore
import SpringLayout
import ToolRuntime
import TraceIO

/// A sweep's traces: read once to validate them and learn what the run needs (counts, ids,
/// intents, file hashes, the traces worth animating), then handed to the runner in blocks
/// whose weight (samples plus frames, ``weight(_:)``) is at most ``blockSamples``. When every
/// trace fits in one block they stay in memory; otherwise each pass reads the files again, so
/// memory is bounded by the block (its traces and their per-frame preparations), not the files.
public struct TraceSource: Sendable {
    /// A trace's name and label, all a report needs of it once it has run.
    public struct Tag: Sendable, Equatable {
        public var id: String
        public var intent: TraceIntent?
        /// Who made it (Reference §14): the trace's `group`, or its own id when it has none.
        public var group: String
    }

    /// Weight per block: 2²¹ ≈ 2.1 million samples and frames (a sample is 40 bytes in
    /// memory, a frame's preparation about 16), so a block holds at most about 84 MB.
    public static let defaultBlockSamples = 1 << 21

    public let files: [String]
    public let skipInvalid: Bool
    /// What the model reads of a trace (the first pointer for one-finger models).
    let input: @Sendable (Trace) -> Trace
    public let blockSamples: Int
    /// The groups kept (Reference §14: a held-out split), or nil for every trace.
    public let groups: Set<String>?
    /// The scene whose frame rate and tail count frames in ``weight(_:)``.
    let scene: Scene
    /// Every valid trace, in file order.
    public private(set) var tags: [Tag] = []
    /// What each file held, for the report's meta.
    public private(set) var fileInfo: [ReportMeta.TraceFile] = []
    /// Remarks for the user: dropped traces, ignored pointers, units that look wrong (``UnitsCheck``).
    public private(set) var notes: [String] = []
    /// The traces worth watching (``RepresentativeTraces``).
    public private(set) var representative: [(title: String, trace: Trace)] = []
    /// All traces, when they fit in one block.
    private var resident: [Trace]?
    /// Each file's size, modification time and inode when it was first read: a file that
    /// changes afterwards (its digest would no longer describe what was run) is refused.
    private var stamps: [FileStamp] = []

    /// Reads and validates `files` once (streaming). Throws the first invalid row (unless
    /// `skipInvalid`), or when no valid trace remains. With `groups`, only the traces of those
    /// groups are run (the others are still read and validated).
    public init(files: [String], kind: ModelKind, skipInvalid: Bool, scene: Scene,
                blockSamples: Int = TraceSource.defaultBlockSamples, groups: Set<String>? = nil) throws {
        self.files = files
        self.groups = groups
        self.scene = scene
        self.skipInvalid = skipInvalid
        self.input = kind.input
        self.blockSamples = max(1, blockSamples)
        var kept: [Trace]? = []
        var samples = 0
        var picker = RepresentativeTraces(estimator: scene.estimator)
        for file in files {
            let stamp = try FileStamp(file)
            var multi = 0, count = 0
            var units = UnitsCheck(scene: scene)
            let report = try TraceReader(skipInvalid: skipInvalid).forEachTrace(path: file) { read in
                count += 1
                units.consider(read)
                if read.isMultiPointer { multi += 1 }
                guard groups?.contains(read.group ?? read.id) ?? true else { return }
                let trace = kind.input(read)
                tags.append(Tag(id: trace.id, intent: trace.intent, group: trace.group ?? trace.id))
                picker.consider(trace)
                samples += weight(trace)
                if samples <= self.blockSamples { kept?.append(trace) } else { kept = nil }
            }
            if multi > 0 && !kind.type.usesAllPointers {
                notes.append("\(file): \(multi) of \(count) traces have several pointers; \(kind.name) uses the pointer that began first in each")
            }
            if let warning = units.warning(file: file) { notes.append(warning) }
            let digest = try SHA256.file(file)
            try stamp.unchanged()
            stamps.append(stamp)
            fileInfo.append(ReportMeta.TraceFile(file: file, sha256: digest, traces: count,
                                                 skipped: report.skipped.isEmpty ? nil : Echo.list(report.skipped.map { "\($0.trace.prefix(Echo.limit)): \($0.reason)" }),
                                                 imported: ImportMeta.read(for: file)))
            if !report.skipped.isEmpty {
                let first = report.skipped.prefix(3).map { "\($0.trace.prefix(60)): \($0.reason.prefix(120))" }.joined(separator: "; ")
                notes.append("\(file): dropped \(report.skipped.count) invalid trace\(report.skipped.count == 1 ? "" : "s") (--skip-invalid); first: \(first)")
            }
        }
        guard !tags.isEmpty else {
            throw ToolError(.dataError, "no valid traces in \(files.joined(separator: ", "))\(groups == nil ? "" : " of the chosen groups")")
        }
        resident = kept
        representative = picker.picks
    }

    /// Traces already in memory (tests, fuzzing): one block.
    public init(traces: [Trace], kind: ModelKind) {
        files = []
        groups = nil
        scene = Scene()
        skipInvalid = false
        input = kind.input
        blockSamples = Int.max
        resident = traces.map(kind.input)
        tags = resident!.map { Tag(id: $0.id, intent: $0.intent, group: $0.group ?? $0.id) }
    }

    /// A trace's cost in a block: its samples plus its frames (touch-down to the end of the tail).
    func weight(_ trace: Trace) -> Int {
        trace.samples.count + FrameClock(trace: trace, scene: scene).lastFrame + 1
    }

    /// True when every trace is held in memory (one block).
    public var isResident: Bool { resident != nil }

    /// Calls `body` with consecutive blocks of traces, in file order; together they are
    /// exactly ``tags``. Files that changed since the first read are refused.
    public func forEachBlock(_ body: ([Trace]) throws -> Void) throws {
        if let resident { return try body(resident) }
        var block: [Trace] = [], samples = 0, index = 0
        for (file, stamp) in zip(files, stamps) {
            try stamp.unchanged()
            try TraceReader(skipInvalid: skipInvalid).forEachTrace(path: file) { read in
                guard groups?.contains(read.group ?? read.id) ?? true else { return }
                let trace = input(read)
                guard index < tags.count, tags[index].id == trace.id else {
                    throw ToolError(.dataError, "\(file) changed while the sweep was reading it")
                }
                index += 1
                let w = weight(trace)
                if !block.isEmpty && samples + w > blockSamples {
                    try body(block)
                    block = []
                    samples = 0
                }
                block.append(trace)
                samples += w
            }
        }
        guard index == tags.count else { throw ToolError(.dataError, "\(files.joined(separator: ", ")) changed while the sweep was reading it") }
        for stamp in stamps { try stamp.unchanged() }
        if !block.isEmpty { try body(block) }
    }

    /// Checks that no trace file changed since it was first read (call after the run).
    public func checkUnchanged() throws {
        for stamp in stamps { try stamp.unchanged() }
    }
}

/// A file's identity and version as `stat` sees it: size, modification time (ns), inode.
struct FileStamp {
    let path: String
    let size: Int64, mtime: Int64, inode: UInt64

    init(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ToolError(.noInput, "\(path): cannot open: \(String(cString: strerror(errno)))") }
        self.path = path
        size = Int64(info.st_size)
        #if os(Linux)
        let time = info.st_mtim
        #else
        let time = info.st_mtimespec
        #endif
        mtime = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        inode = UInt64(info.st_ino)
    }

    /// Throws when the file now has another size, modification time or inode.
    func unchanged() throws {
        let now = try FileStamp(path)
        guard now.size == size, now.mtime == mtime, now.inode == inode else {
            throw ToolError(.dataError, "\(path) changed while the sweep was reading it; run again once it is complete")
        }
    }
}

/// Up to three traces worth watching, chosen in one pass: the fastest release, the longest
/// travel (with a list, the deepest pull past an edge), the slowest drag among those that
/// travel at least 20 pt (among all when none of those is left). The first of equals wins; a trace is
/// picked at most once, so when one leads two kinds the later kind takes its runner-up (three
/// traces whenever there are three).
public struct RepresentativeTraces {
    private struct Pick {
        var index: Int
        var value: Double
        var trace: Trace
    }

    /// Runners-up kept per kind: enough for each of the three kinds to find a trace of its own.
    private static let kept = 3

    let estimator: VelocityEstimator
    private var count = 0
    /// Each kind's leaders, best first.
    private var fastest: [Pick] = [], longest: [Pick] = [], slowestMoving: [Pick] = [], slowest: [Pick] = []

    public init(estimator: VelocityEstimator) { self.estimator = estimator }

    /// Looks at the next trace.
    public mutating func consider(_ trace: Trace) {
        let s = TraceStats(file: "", trace: trace, estimator: estimator)
        let travel = (s.dx * s.dx + s.dy * s.dy).squareRoot()
        func keep(_ picks: inout [Pick], _ value: Double, if better: (Double, Double) -> Bool) {
            // After every pick it is not better than (the first of equals stays ahead).
            let at = picks.firstIndex { better(value, $0.value) } ?? picks.count
            guard at < Self.kept else { return }
            picks.insert(Pick(index: count, value: value, trace: trace), at: at)
            if picks.count > Self.kept { picks.removeLast() }
        }
        keep(&fastest, s.release.magnitude, if: >)
        keep(&longest, travel, if: >)
        keep(&slowest, s.peakSpeed, if: <)
        if travel >= 20 { keep(&slowestMoving, s.peakSpeed, if: <) }
        count += 1
    }

    /// The picks with their titles.
    public var picks: [(title: String, trace: Trace)] {
        var seen = Set<Int>()
        return [("fastest release", fastest), ("longest travel", longest), ("slowest drag", slowestMoving + slowest)]
            .compactMap { title, leaders in
                guard let pick = leaders.first(where: { !seen.contains($0.index) }) else { return nil }
                seen.insert(pick.index)
                return ("\(title): \(pick.trace.id)", pick.trace)
            }
    }
}
