import Foundation
import TraceIO

/// A sweep's finished parameter-set blocks, kept in `TARGET/.springtune-resume/` while it runs
/// so that `sweep --resume` after an interruption (Ctrl-C, kill -9, power loss) runs only the
/// rest and ends with the bytes of an uninterrupted run. Each block is one file, written
/// atomically (fsync, rename) once its sets are done: a file is whole or absent. The folder
/// lives inside the target, beside (never instead of) its last complete outputs, and goes
/// with the old target when the new outputs are swapped in.
public struct Checkpoint {
    public static let folderName = ".springtune-resume"

    /// What the checkpoint belongs to: a digest of everything that decides the bytes.
    struct Header: Codable, Equatable {
        var key: String
        var configs: Int
        var blockSize: Int
    }

    /// One finished block: its report rows (cells as written) and per-trace CSV rows.
    public struct Block: Codable, Sendable {
        public var first: Int
        public var rows: [[String]]
        public var perTrace: String?
    }

    let dir: String
    public let blockSize: Int
    /// Finished blocks by their first config id.
    public private(set) var done: [Int: Block] = [:]
    /// Set when a checkpoint of a sweep with other inputs was found and dropped.
    public private(set) var discarded: String?

    /// Sets per block: at least 64, and at most about 100 blocks per run.
    public static func blockSize(configs: Int) -> Int { max(64, (configs + 99) / 100) }

    /// Opens the checkpoint of `target` for a run identified by `key` over `configs` sets. With
    /// `resume`, the finished blocks of the same run are loaded (another run's checkpoint is
    /// refused). Without it, the same run's checkpoint is refused with a line saying how to
    /// resume, and another run's is dropped (``discarded`` says so).
    public init(target: String, key: String, configs: Int, resume: Bool) throws {
        dir = "\(target)/\(Self.folderName)"
        let headerPath = "\(dir)/run.json"
        let fm = FileManager.default
        if let data = fm.contents(atPath: headerPath), let header = try? JSONDecoder().decode(Header.self, from: data) {
            let files = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix("block-") && $0.hasSuffix(".json") }
            var blocks: [Int: Block] = [:]
            for file in files {
                if let data = fm.contents(atPath: "\(dir)/\(file)"), var block = try? JSONDecoder().decode(Block.self, from: data) {
                    block.perTrace = nil   // read again when written out (``perTrace(of:)``)
                    blocks[block.first] = block
                }
            }
            let sets = blocks.values.reduce(0) { $0 + $1.rows.count }
            let same = header.key == key && header.configs == configs
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
        blockSize = Self.blockSize(configs: configs)
        do {
            try? fm.removeItem(atPath: dir)
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw ToolError(.cantCreate, "\(dir): cannot create: \(error.localizedDescription)")
        }
        try AtomicFile.write(try JSONCoding.encode(Header(key: key, configs: configs, blockSize: blockSize)), to: headerPath)
    }

    /// The blocks of `ids`, in order.
    public func blocks(of ids: Range<Int>) -> [Range<Int>] {
        stride(from: ids.lowerBound, to: ids.upperBound, by: blockSize).map { $0..<min(ids.upperBound, $0 + blockSize) }
    }

    /// The finished block of `ids`, when its file holds exactly those sets in order.
    public func finished(_ ids: Range<Int>) -> Block? {
        guard let block = done[ids.lowerBound], block.rows.count == ids.count,
              block.rows.enumerated().allSatisfy({ $0.element.first == String(ids.lowerBound + $0.offset) }) else { return nil }
        return block
    }

    /// Records a finished block (fsync'd before it counts). Its per-trace rows stay on disk
    /// only (they can be large); ``perTrace(of:)`` reads them back.
    public mutating func save(_ block: Block) throws {
        try AtomicFile.write(try JSONCoding.encode(block), to: "\(dir)/block-\(block.first).json")
        done[block.first] = Block(first: block.first, rows: block.rows, perTrace: nil)
    }

    /// The per-trace CSV rows of the finished block starting at `first`, read from its file.
    public func perTrace(of first: Int) throws -> String {
        let path = "\(dir)/block-\(first).json"
        guard let data = FileManager.default.contents(atPath: path), let block = try? JSONDecoder().decode(Block.self, from: data) else {
            throw ToolError(.ioError, "\(path): cannot read the checkpoint block back")
        }
        return block.perTrace ?? ""
    }

    /// A digest of the inputs that decide a sweep's bytes (`parts`, in order).
    public static func key(_ parts: [String]) -> String {
        SHA256.hex(Data(parts.joined(separator: "\u{1F}").utf8))
    }
}
