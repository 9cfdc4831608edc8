import PindropCore

/// Decodes one `PrimitiveBlock` message (osmformat.proto) into nodes, ways and relations.
///
/// The block's scalars (granularity, offsets, date granularity) come after its groups on the wire,
/// so the decoder first collects the string table, the scalars and the group ranges, then decodes the groups.
struct OSMPrimitiveBlockDecoder {
    /// What to keep; nil keeps every tag and relation.
    let filter: OSMDecodingFilter?
    /// The block's number in the file, for messages.
    let blockNumber: Int
    /// The elements met so far, decoded or skipped: over `OSMPBFReader.maximumBlockElements` the block is refused.
    private var elements = 0
    private var strings: [String] = []
    /// Per string of the table, once asked: whether the filter keeps tags with it as key (1) or not (2).
    private var keyVerdicts: [UInt8] = []
    private var granularity: Int64 = 100
    private var latitudeOffset: Int64 = 0
    private var longitudeOffset: Int64 = 0
    private var dateGranularity: Int64 = 1000
    // Scratch arrays reused across objects to avoid an allocation per object.
    private var keys: [Int64] = []
    private var values: [Int64] = []

    /// A decoder of block `blockNumber`, keeping what `filter` keeps (everything when nil).
    init(filter: OSMDecodingFilter? = nil, blockNumber: Int = 0) {
        self.filter = filter
        self.blockNumber = blockNumber
    }

    /// Decodes the block's elements of the `kinds` asked for, and notes in `skipped` which others it holds.
    mutating func decode(_ content: UnsafeRawBufferPointer, kinds: OSMElementKinds = .all) throws(PindropError) -> OSMPrimitiveBlock {
        var reader = OSMProtobufReader(content, context: "PrimitiveBlock")
        var groups: [OSMProtobufReader] = []
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): try decodeStringTable(reader.readMessage("StringTable"))
            case (2, .lengthDelimited): groups.append(try reader.readMessage("PrimitiveGroup"))
            case (17, .varint): granularity = try reader.readInt64()
            case (18, .varint): dateGranularity = try reader.readInt64()
            case (19, .varint): latitudeOffset = try reader.readInt64()
            case (20, .varint): longitudeOffset = try reader.readInt64()
            default: try reader.skip(field.wireType)
            }
        }
        guard granularity > 0, granularity <= 1_000_000_000 else {
            throw reader.error("absurd granularity \(granularity)")
        }
        var block = OSMPrimitiveBlock()
        if filter != nil { keyVerdicts = Array(repeating: 0, count: strings.count) }
        for group in groups { try decodeGroup(group, kinds: kinds, into: &block) }
        block.elementCount = elements
        return block
    }

    private mutating func decodeStringTable(_ message: OSMProtobufReader) throws(PindropError) {
        var reader = message
        while let field = try reader.nextField() {
            if field.number == 1, field.wireType == .lengthDelimited {
                // Names and addresses come from here: without control characters (`ControlCharacters`).
                strings.append(ControlCharacters.string(utf8: try reader.readLengthDelimited()))
            } else {
                try reader.skip(field.wireType)
            }
        }
    }

    private mutating func decodeGroup(_ message: OSMProtobufReader, kinds: OSMElementKinds,
                                      into block: inout OSMPrimitiveBlock) throws(PindropError) {
        var reader = message
        while let field = try reader.nextField() {
            let kind: OSMElementKinds = switch field.number {
            case 1, 2: .nodes
            case 3: .ways
            case 4: .relations
            default: []  // changesets and future additions
            }
            guard field.wireType == .lengthDelimited, kinds.contains(kind), !kind.isEmpty else {
                block.skipped.formUnion(kind)
                // Counted undecoded too, so that every reading refuses the same blocks.
                if field.number == 2, field.wireType == .lengthDelimited {
                    try count(denseNodes: reader.readMessage("DenseNodes"))
                } else {
                    if !kind.isEmpty { try count(1) }
                    try reader.skip(field.wireType)
                }
                continue
            }
            if field.number != 2 { try count(1) }
            switch field.number {
            case 1: block.nodes.append(try decodeNode(reader.readMessage("Node")))
            case 2: try decodeDenseNodes(reader.readMessage("DenseNodes"), into: &block.nodes)
            case 3: block.ways.append(try decodeWay(reader.readMessage("Way")))
            default: if let relation = try decodeRelation(reader.readMessage("Relation")) { block.relations.append(relation) }
            }
        }
    }

    // MARK: Shared pieces

    /// Counts `more` elements of the block, refusing it past `OSMPBFReader.maximumBlockElements`.
    private mutating func count(_ more: Int) throws(PindropError) {
        elements += more
        guard elements <= OSMPBFReader.maximumBlockElements else {
            throw .unreadableData("OSM PBF: block \(blockNumber) holds \(elements) elements or more, over the limit of"
                                  + " \(OSMPBFReader.maximumBlockElements) a block (writers put 8000 in one)")
        }
    }

    /// Counts the nodes of a dense group left undecoded.
    private mutating func count(denseNodes message: OSMProtobufReader) throws(PindropError) {
        var reader = message
        var ids = 0
        while let field = try reader.nextField() {
            if field.number == 1 { ids += try reader.countVarints(field.wireType) } else { try reader.skip(field.wireType) }
        }
        try count(ids)
    }

    @inline(__always)
    private func string(_ index: Int64, _ reader: OSMProtobufReader) throws(PindropError) -> String {
        guard index >= 0, index < Int64(strings.count) else {
            throw reader.error("string index \(index) outside the block's string table of \(strings.count)")
        }
        return strings[Int(index)]
    }

    /// Adds the tag with these string indices to `tags`, unless the filter leaves its key out.
    @inline(__always)
    private mutating func addTag(key: Int64, value: Int64, to tags: inout OSMTags,
                                 _ reader: OSMProtobufReader) throws(PindropError) {
        let keyString = try string(key, reader)
        if let filter {
            if keyVerdicts[Int(key)] == 0 { keyVerdicts[Int(key)] = filter.keepsKey(keyString) ? 1 : 2 }
            guard keyVerdicts[Int(key)] == 1 else { return }
        }
        tags[keyString] = try string(value, reader)
    }

    /// The tags from the `keys`/`vals` scratch arrays.
    private mutating func tagsFromScratch(_ reader: OSMProtobufReader) throws(PindropError) -> OSMTags {
        guard keys.count == values.count else {
            throw reader.error("\(keys.count) tag keys but \(values.count) values")
        }
        guard !keys.isEmpty else { return [:] }
        var tags = OSMTags()
        for i in keys.indices { try addTag(key: keys[i], value: values[i], to: &tags, reader) }
        return tags
    }

    @inline(__always)
    private func coordinate(latitude: Int64, longitude: Int64, _ reader: OSMProtobufReader) throws(PindropError) -> Coordinate {
        // Wrapping arithmetic: garbage must give a range error below, not an overflow trap.
        let lat = Double(latitudeOffset &+ granularity &* latitude) * 1e-9
        let lon = Double(longitudeOffset &+ granularity &* longitude) * 1e-9
        guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else {
            throw reader.error("coordinate \(lat), \(lon) off the globe")
        }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// Seconds since 1970 from a timestamp in date-granularity units.
    @inline(__always)
    private func seconds(_ timestamp: Int64) -> Int64 {
        timestamp &* dateGranularity / 1000
    }

    /// Reads a field that nodes, ways and relations share: the id (1; zigzag-coded `sint64` for nodes only,
    /// `int64` for ways and relations), the tag keys (2) and values (3) into the scratch arrays, and the info (4).
    /// False for any other field, which the caller reads or skips.
    @inline(__always)
    private mutating func readSharedField(_ field: (number: Int, wireType: OSMWireType), _ reader: inout OSMProtobufReader,
                                          id: inout Int64, signedID: Bool = false,
                                          timestamp: inout Int64?) throws(PindropError) -> Bool {
        switch (field.number, field.wireType) {
        case (1, .varint): id = try signedID ? reader.readSignedVarint() : reader.readInt64()
        case (2, _): try reader.appendVarints(field.wireType, to: &keys)
        case (3, _): try reader.appendVarints(field.wireType, to: &values)
        case (4, .lengthDelimited): timestamp = try decodeInfoTimestamp(reader.readMessage("Info"))
        default: return false
        }
        return true
    }

    /// The timestamp of an `Info` message, in seconds.
    private func decodeInfoTimestamp(_ message: OSMProtobufReader) throws(PindropError) -> Int64? {
        var reader = message
        var timestamp: Int64?
        while let field = try reader.nextField() {
            if field.number == 2, field.wireType == .varint {
                timestamp = seconds(try reader.readInt64())
            } else {
                try reader.skip(field.wireType)
            }
        }
        return timestamp
    }

    // MARK: Nodes

    private mutating func decodeNode(_ message: OSMProtobufReader) throws(PindropError) -> OSMNode {
        var reader = message
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var timestamp: Int64?
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            guard try !readSharedField(field, &reader, id: &id, signedID: true, timestamp: &timestamp) else { continue }
            switch (field.number, field.wireType) {
            case (8, .varint): lat = try reader.readSignedVarint()
            case (9, .varint): lon = try reader.readSignedVarint()
            default: try reader.skip(field.wireType)
            }
        }
        return OSMNode(id: id, coordinate: try coordinate(latitude: lat, longitude: lon, reader),
                       tags: try tagsFromScratch(reader), timestamp: timestamp)
    }

    private mutating func decodeDenseNodes(_ message: OSMProtobufReader, into nodes: inout [OSMNode]) throws(PindropError) {
        var reader = message
        var ids: [Int64] = [], lats: [Int64] = [], lons: [Int64] = [], keysVals: [Int64] = []
        var timestamps: [Int64] = []
        // Ids, coordinates and timestamps are one value a node: none is decoded past the block's room for nodes.
        let room = OSMPBFReader.maximumBlockElements - elements
        var idCount = 0
        while let field = try reader.nextField() {
            switch field.number {
            case 1: idCount += try reader.appendDeltaDecoded(field.wireType, to: &ids, room: room - ids.count)
            case 5 where field.wireType == .lengthDelimited:
                timestamps = try decodeDenseInfoTimestamps(reader.readMessage("DenseInfo"), room: room)
            case 8: try reader.appendDeltaDecoded(field.wireType, to: &lats, room: room - lats.count)
            case 9: try reader.appendDeltaDecoded(field.wireType, to: &lons, room: room - lons.count)
            case 10: try reader.appendVarints(field.wireType, to: &keysVals)
            default: try reader.skip(field.wireType)
            }
        }
        try count(idCount)
        guard lats.count == ids.count, lons.count == ids.count else {
            throw reader.error("\(ids.count) ids but \(lats.count) latitudes and \(lons.count) longitudes")
        }
        guard timestamps.isEmpty || timestamps.count == ids.count else {
            throw reader.error("\(ids.count) ids but \(timestamps.count) timestamps")
        }
        nodes.reserveCapacity(nodes.count + ids.count)
        // keys_vals: for each node, (key, value) string indices ending with a 0; empty when no node has tags.
        var cursor = 0
        for i in ids.indices {
            var tags = OSMTags()
            if !keysVals.isEmpty {
                while true {
                    guard cursor < keysVals.count else { throw reader.error("keys_vals ends before node \(ids[i])'s tags do") }
                    let key = keysVals[cursor]
                    cursor += 1
                    if key == 0 { break }
                    guard cursor < keysVals.count else { throw reader.error("keys_vals ends inside node \(ids[i])'s tags") }
                    try addTag(key: key, value: keysVals[cursor], to: &tags, reader)
                    cursor += 1
                }
            }
            nodes.append(OSMNode(id: ids[i], coordinate: try coordinate(latitude: lats[i], longitude: lons[i], reader),
                                 tags: tags, timestamp: timestamps.isEmpty ? nil : seconds(timestamps[i])))
        }
    }

    private func decodeDenseInfoTimestamps(_ message: OSMProtobufReader, room: Int) throws(PindropError) -> [Int64] {
        var reader = message
        var timestamps: [Int64] = []
        while let field = try reader.nextField() {
            if field.number == 2 {
                try reader.appendDeltaDecoded(field.wireType, to: &timestamps, room: room - timestamps.count)
            } else {
                try reader.skip(field.wireType)
            }
        }
        return timestamps
    }

    // MARK: Ways and relations

    private mutating func decodeWay(_ message: OSMProtobufReader) throws(PindropError) -> OSMWay {
        var reader = message
        var id: Int64 = 0, timestamp: Int64?
        var refs: [Int64] = []
        var refCount = 0
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            guard try !readSharedField(field, &reader, id: &id, timestamp: &timestamp) else { continue }
            if field.number == 8 {
                refCount += try reader.appendDeltaDecoded(field.wireType, to: &refs, room: OSMPBFReader.maximumWayNodes - refs.count)
            } else {
                try reader.skip(field.wireType)
            }
        }
        guard refCount <= OSMPBFReader.maximumWayNodes else {
            throw .unreadableData("OSM PBF: way \(id) has \(refCount) node references, over the limit of"
                                  + " \(OSMPBFReader.maximumWayNodes) (the OSM API's)")
        }
        return OSMWay(id: id, nodeIDs: refs, tags: try tagsFromScratch(reader), timestamp: timestamp)
    }

    /// The relation, or nil when the filter leaves it out: its members are then skipped undecoded.
    private mutating func decodeRelation(_ message: OSMProtobufReader) throws(PindropError) -> OSMRelation? {
        var reader = message
        var id: Int64 = 0, timestamp: Int64?
        // The members' fields (roles 8, ids 9, types 10), where they start: decoded once the tags say to keep it.
        var memberFields: [(number: Int, wireType: OSMWireType, reader: OSMProtobufReader)] = []
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            guard try !readSharedField(field, &reader, id: &id, timestamp: &timestamp) else { continue }
            if (8...10).contains(field.number) { memberFields.append((field.number, field.wireType, reader)) }
            try reader.skip(field.wireType)
        }
        var memberCount = 0
        for (number, wireType, start) in memberFields where number == 9 {
            var field = start
            memberCount += try field.countVarints(wireType)
        }
        guard memberCount <= OSMPBFReader.maximumRelationMembers else {
            throw .unreadableData("OSM PBF: relation \(id) has \(memberCount) members, over the limit of"
                                  + " \(OSMPBFReader.maximumRelationMembers) (the OSM API's)")
        }
        let tags = try tagsFromScratch(reader)
        if let filter, !filter.keepsRelation(tags) { return nil }
        var roles: [Int64] = [], memberIDs: [Int64] = [], types: [Int64] = []
        for (number, wireType, start) in memberFields {
            var field = start
            switch number {
            case 8: try field.appendVarints(wireType, to: &roles, room: memberCount - roles.count)
            case 9: try field.appendDeltaDecoded(wireType, to: &memberIDs)
            default: try field.appendVarints(wireType, to: &types, room: memberCount - types.count)
            }
        }
        guard roles.count == memberIDs.count, types.count == memberIDs.count else {
            throw reader.error("relation \(id) has \(memberIDs.count) members but \(roles.count) roles and \(types.count) types")
        }
        var members: [OSMRelationMember] = []
        members.reserveCapacity(memberIDs.count)
        for i in memberIDs.indices {
            let type: OSMMemberType
            switch types[i] {
            case 0: type = .node
            case 1: type = .way
            case 2: type = .relation
            default: throw reader.error("relation \(id) has a member of unknown type \(types[i])")
            }
            members.append(OSMRelationMember(type: type, id: memberIDs[i], role: try string(roles[i], reader)))
        }
        return OSMRelation(id: id, members: members, tags: tags, timestamp: timestamp)
    }
}
