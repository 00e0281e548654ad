import ToolRuntime
import TraceIO

/// `sweep --shard`: which slice of the grid's config ids this process runs (Reference §10.1).
public enum ShardChoice: Sendable, Equatable {
    /// Shard `index` of `count` (1-based): config ids ⌊total·(index−1)/count⌋ … ⌊total·index/count⌋ − 1.
    case part(index: Int, count: Int)
    /// The shard of the array task this process runs in (``ShardEnvironment``).
    case auto

    /// Parses `I/N` (whole numbers, 1 ≤ I ≤ N) or `auto`; anything else is a usage error (64).
    public init(parsing text: String) throws {
        if text == "auto" {
            self = .auto
            return
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = ShardEnvironment.integer(String(parts[0])), let n = ShardEnvironment.integer(String(parts[1])),
              n >= 1, (1...n).contains(i) else {
            throw ToolError(.usage, "--shard \(text): expected I/N with 1 <= I <= N, or auto")
        }
        self = .part(index: i, count: n)
    }

    /// The shard `(index, count)`: a `part` as given; `auto` from `environment` and `shardCount`
    /// (`--shard-count`) by ``ShardEnvironment/shard(shardCount:environment:)``.
    public func resolved(shardCount: Int?, environment: [String: String]) throws -> (index: Int, count: Int) {
        switch self {
        case let .part(index, count): (index, count)
        case .auto: try ShardEnvironment.shard(shardCount: shardCount, environment: environment)
        }
    }
}
