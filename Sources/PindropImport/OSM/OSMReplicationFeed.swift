import Foundation
import PindropCore

/// The layout OpenStreetMap's replication servers publish (planet.openstreetmap.org/replication/minute, Geofabrik's
/// updates): `state.txt` naming the newest sequence, and each sequence's change file and state at `000/001/234.osc.gz`
/// and `000/001/234.state.txt`.
public enum OSMReplicationFeed {
    /// The address of a sequence's file with this suffix (".osc.gz", ".state.txt") under the feed's base URL.
    public static func url(_ base: String, sequence: Int, suffix: String) -> String {
        let digits = String(sequence), padded = String(repeating: "0", count: max(0, 9 - digits.count)) + digits
        let path = [padded.prefix(3), padded.dropFirst(3).prefix(3), padded.dropFirst(6)].joined(separator: "/")
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + path + suffix
    }

    /// A state file's sequence and timestamp (`sequenceNumber=4711`, `timestamp=2024-05-01T12\:00\:00Z`).
    public static func state(_ text: String) throws(PindropError) -> (sequence: Int, timestamp: Date) {
        let state = try replicationState(text)
        guard let sequence = state.sequence else { throw .unreadableData("a replication state without a sequenceNumber") }
        return (sequence, state.timestamp)
    }

    /// A state file's timestamp and sequence, if it has one (a state reached by change files applied outside a feed
    /// has none).
    static func replicationState(_ text: String) throws(PindropError) -> ReplicationState {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals]).trimmingCharacters(in: .whitespaces)] =
                String(line[line.index(after: equals)...]).replacingOccurrences(of: "\\", with: "").trimmingCharacters(in: .whitespaces)
        }
        let sequence = values["sequenceNumber"].flatMap { Int($0) }
        if values["sequenceNumber"] != nil, (sequence ?? -1) < 0 { throw .unreadableData("a replication state with a bad sequenceNumber") }
        guard let seconds = values["timestamp"].flatMap(OSMTimestamp.seconds) else {
            throw .unreadableData("a replication state without a readable timestamp")
        }
        return ReplicationState(sequence: sequence, timestamp: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// A state file's text.
    static func stateText(_ state: ReplicationState) -> String {
        let time = OSMTimestamp.text(Int64(state.timestamp.timeIntervalSince1970)).replacingOccurrences(of: ":", with: "\\:")
        return (state.sequence.map { "sequenceNumber=\($0)\n" } ?? "") + "timestamp=\(time)\n"
    }
}
