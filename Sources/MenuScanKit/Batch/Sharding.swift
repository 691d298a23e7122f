import Crypto
import Foundation

/// `--shard K/N`: this process takes the photos whose relative path hashes to
/// K modulo N (K counts from 0, like Kubernetes' JOB_COMPLETION_INDEX). The
/// assignment depends only on the path, so adding files never moves others
/// between shards.
public struct Shard: Equatable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// "K/N", e.g. "0/3".
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }
    /// Used in file names: "shard-0-of-3".
    public var label: String { "shard-\(index)-of-\(count)" }

    /// The shard the environment asks for when `--shard` is not given:
    /// Kubernetes Indexed Jobs set JOB_COMPLETION_INDEX (the count comes from
    /// `shards` or MENUSCAN_SHARDS, as Kubernetes does not export it); Slurm
    /// job arrays set SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (and
    /// SLURM_ARRAY_TASK_MIN, subtracted so `--array=1-3` works too).
    public static func fromEnvironment(_ env: [String: String], shards: Int?) -> Result<Shard?, ShardError> {
        if let raw = env["JOB_COMPLETION_INDEX"], !raw.isEmpty {
            guard let k = Int(raw) else { return .failure(.init("JOB_COMPLETION_INDEX=\(raw) is not a number")) }
            guard let n = shards ?? env["MENUSCAN_SHARDS"].flatMap({ Int($0) }) else {
                return .failure(.init("JOB_COMPLETION_INDEX is set but the shard count is not: pass --shards N (the Job's completions) or set MENUSCAN_SHARDS"))
            }
            guard let shard = Shard(index: k, count: n) else { return .failure(.init("JOB_COMPLETION_INDEX=\(k) is outside 0..<\(n)")) }
            return .success(shard)
        }
        if let rawID = env["SLURM_ARRAY_TASK_ID"], !rawID.isEmpty {
            guard let id = Int(rawID) else { return .failure(.init("SLURM_ARRAY_TASK_ID=\(rawID) is not a number")) }
            guard let n = shards ?? env["SLURM_ARRAY_TASK_COUNT"].flatMap({ Int($0) }) else {
                return .failure(.init("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: pass --shards N"))
            }
            let k = id - (env["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0)
            guard let shard = Shard(index: k, count: n) else {
                return .failure(.init("Slurm array task \(id) does not map into 0..<\(n) (use a contiguous --array range)"))
            }
            return .success(shard)
        }
        if let shards {
            return .failure(.init("--shards \(shards) needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID; or pass --shard K/N"))
        }
        return .success(nil)
    }

    /// Whether the photo with this relative path belongs to this shard.
    public func contains(relativePath: String) -> Bool {
        Self.bucket(of: relativePath, count: count) == index
    }

    public static func bucket(of relativePath: String, count: Int) -> Int {
        let digest = Array(SHA256.hash(data: Data(relativePath.utf8)))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(count))
    }
}

public struct ShardError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
