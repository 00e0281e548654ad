import Foundation
import ToolRuntime
import TraceIO

/// A sweep's finished parameter-set blocks, kept in `TARGET/.springtune-resume/` while it runs
/// so that `sweep --resume` after an interruption (Ctrl-C, kill -9, power loss) runs only the
/// rest and ends with the bytes of an uninterrupted run. A block is two files, each written
/// atomically (fsync, rename) once its sets are done: its per-trace rows first
/// (`per-trace-FIRST.csv`, with `--per-trace`), then its report (`report-FIRST.csv`, a
/// `report.csv` of the block's sets), which makes it count. A block's report is read back
/// through the report decoder (``SweepReport``), against the sweep's axes and columns, so a
/// resumed run writes the rows an uninterrupted one would. The folder lives inside the target,
/// beside (never instead of) its last complete outputs, and goes with the old target when the
/// new outputs are swapped in.
public struct Checkpoint {
    public static let folderName = ".springtune-resume"

    /// What the checkpoint belongs to: a digest of everything that decides the bytes.
    struct Header: Codable, Equatable {
        var key: String
        var configs: Int
        var blockSize: Int
    }

    let dir: String
    /// The sweep's report with no rows (its axes and columns): what every block must match.
    let schema: SweepReport
    public let blockSize: Int
    /// Finished blocks' rows by their first config id.
    public private(set) var done: [Int: [SweepReport.Row]] = [:]
    /// Set when a checkpoint of a sweep with other inputs was found and dropped.
    public private(set) var discarded: String?
    /// The target folder when this run made it (it did not exist): ``discardIfEmpty()`` removes it.
    let madeTarget: String?

    /// Sets per block: at least 64, and at most about 100 blocks per run.
    public static func blockSize(configs: Int) -> Int { max(64, (configs + 99) / 100) }

    /// Opens the checkpoint of `target` for a run identified by `key` over `configs` sets of the
    /// report `schema`. With `resume`, the finished blocks of the same run are loaded (another
    /// run's checkpoint is refused). Without it, the same run's checkpoint is refused with a
    /// line saying how to resume, and another run's is dropped (``discarded`` says so).
    ///
    /// A search (``SearchJob``) checkpoints its batches the same way: `blockSize` its batch, and
    /// `listed` rows whose parameter values are their own (not a grid's).
    public init(target: String, key: String, configs: Int, schema: SweepReport, resume: Bool, batch: Int? = nil, listed: Bool = false) throws {
        dir = "\(target)/\(Self.folderName)"
        self.schema = schema
        let headerPath = "\(dir)/run.json"
        let fm = FileManager.default
        madeTarget = fm.fileExists(atPath: target) ? nil : target
        if let data = fm.contents(atPath: headerPath), let header = try? JSONDecoder().decode(Header.self, from: data) {
            let same = header.key == key && header.configs == configs
            let files = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix("report-") && $0.hasSuffix(".csv") }
            var blocks: [Int: [SweepReport.Row]] = [:]
            for file in files {
                // This sweep's blocks must match its axes and columns (one that does not is run
                // again); another sweep's are only counted.
                let expected = same ? SweepReport.Expected(axes: schema.axes, specs: schema.specs, listed: listed) : nil
                if let block = try? SweepReport(decoding: "\(dir)/\(file)", expected: expected), let first = block.rows.first?.configId {
                    blocks[first] = block.rows
                }
            }
            let sets = blocks.values.reduce(0) { $0 + $1.count }
            switch (same, resume) {
            case (true, true):
                blockSize = header.blockSize
                done = blocks
                return
            case (true, false):
                throw ToolError(.usage, "\(target) holds this sweep interrupted (\(sets) of \(header.configs) sets done): add --resume to finish it, or remove the folder \(dir) to start over")
            case (false, true):
                throw ToolError(.dataError, "\(target): the interrupted sweep there was run with other inputs (preset, grid, traces, scene, shard, --per-trace or version); run without --resume to start over")
            case (false, false):
                discarded = "\(target): dropped the checkpoint of an interrupted sweep with other inputs (\(sets) of \(header.configs) sets done)"
            }
        }
        blockSize = batch ?? Self.blockSize(configs: configs)
        do {
            try? fm.removeItem(atPath: dir)
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw ToolError(.cantCreate, "\(dir): cannot create: \(error.localizedDescription)")
        }
        do {
            try AtomicFile.write(try JSONCoding.encode(Header(key: key, configs: configs, blockSize: blockSize)), to: headerPath)
        } catch {
            discardIfEmpty()
            throw error
        }
    }

    /// After a run that failed (a full disk, an unreadable trace): a checkpoint with no finished
    /// block is removed, and so is the target folder when this run made it and nothing else is
    /// in it, so that a refused run leaves nothing behind. Finished blocks stay for `--resume`.
    public func discardIfEmpty() {
        guard done.isEmpty else { return }
        try? FileManager.default.removeItem(atPath: dir)
        if let madeTarget { rmdir(madeTarget) }
    }

    /// The blocks of `ids`, in order.
    public func blocks(of ids: Range<Int>) -> [Range<Int>] {
        stride(from: ids.lowerBound, to: ids.upperBound, by: blockSize).map { $0..<min(ids.upperBound, $0 + blockSize) }
    }

    /// The rows of the finished block of `ids`, when its file holds exactly those sets in order.
    public func finished(_ ids: Range<Int>) -> [SweepReport.Row]? {
        guard let rows = done[ids.lowerBound], rows.map(\.configId) == Array(ids) else { return nil }
        return rows
    }

    /// Records the finished block `rows` (fsync'd before it counts), after its per-trace rows
    /// when given. The per-trace rows stay on disk only (they can be large); ``perTrace(of:)``
    /// reads them back.
    public mutating func save(_ rows: [SweepReport.Row], perTrace: String?) throws {
        guard let first = rows.first?.configId else { return }
        if let perTrace { try AtomicFile.write(perTrace, to: perTracePath(first)) }
        var block = schema
        block.rows = rows
        try AtomicFile.write(block.csv(), to: "\(dir)/report-\(first).csv")
        done[first] = rows
    }

    private func perTracePath(_ first: Int) -> String { "\(dir)/per-trace-\(first).csv" }

    /// The per-trace CSV rows of the finished block starting at `first`, read from its file.
    public func perTrace(of first: Int) throws -> Data {
        guard let data = FileManager.default.contents(atPath: perTracePath(first)) else {
            throw ToolError(.ioError, "\(perTracePath(first)): cannot read the checkpoint block back")
        }
        return data
    }

    /// A digest of the inputs that decide a sweep's bytes (`parts`, in order).
    public static func key(_ parts: [String]) -> String {
        SHA256.hex(Data(parts.joined(separator: "\u{1F}").utf8))
    }
}
