/// An OpenStreetMap object's tags: its key/value pairs in the file's order, found by comparing keys. An import keeps
/// a handful of keys an object (a country's file has ~600,000 tagged ways): hashing every key into a dictionary of
/// its own, and every key asked for, was a third of the time spent on them, where comparing a few short keys is not.
public struct OSMTags: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One tag.
    public struct Tag: Sendable, Hashable {
        /// Its key and value.
        public var key: String, value: String
    }

    private var tags: [Tag]

    /// No tags.
    public init() { tags = [] }

    /// The tags of a literal, in its order (a repeated key keeps its last value, as a dictionary would).
    public init(dictionaryLiteral elements: (String, String)...) {
        tags = []
        for (key, value) in elements { self[key] = value }
    }

    /// The tags of a dictionary, in key order.
    public init(_ dictionary: [String: String]) {
        tags = dictionary.sorted { $0.key < $1.key }.map { Tag(key: $0.key, value: $0.value) }
    }

    /// Whether there are none.
    public var isEmpty: Bool { tags.isEmpty }

    /// How many there are.
    public var count: Int { tags.count }

    /// The value of `key`, if tagged. Setting replaces it in place or adds it at the end; nil removes it.
    public subscript(key: String) -> String? {
        get {
            for tag in tags where tag.key == key { return tag.value }
            return nil
        }
        set {
            if let i = tags.firstIndex(where: { $0.key == key }) {
                if let newValue { tags[i].value = newValue } else { tags.remove(at: i) }
            } else if let newValue {
                tags.append(Tag(key: key, value: newValue))
            }
        }
    }

    /// The tags that `isIncluded` keeps, in order.
    public func filter(_ isIncluded: (Tag) throws -> Bool) rethrows -> OSMTags {
        var kept = OSMTags()
        kept.tags = try tags.filter(isIncluded)
        return kept
    }

    /// The tags as a dictionary.
    public var dictionary: [String: String] {
        Dictionary(tags.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    public func makeIterator() -> IndexingIterator<[Tag]> { tags.makeIterator() }

    /// Equal when they hold the same tags, in any order (as dictionaries compare).
    public static func == (a: OSMTags, b: OSMTags) -> Bool {
        a.count == b.count && a.tags.allSatisfy { b[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-free, as equality is.
        var sum = 0
        for tag in tags { sum &+= tag.hashValue }
        hasher.combine(sum)
        hasher.combine(count)
    }

    public var description: String { dictionary.description }
}
