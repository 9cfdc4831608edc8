import Foundation
import PindropCore
@testable import PindropImport
import PindropTesting
import Testing

@Suite("OSM PBF writing and folding changes into the extract")
struct OSMFoldTests {
    @Test("a PBF file written and read back holds the Helsinki extract's objects, box and features")
    func writtenFileReadsBack() throws {
        let data = try OSMTestData.helsinki()
        let path = TestScratch.folder("pbf-writer") + "/helsinki.osm.pbf"
        let writer = try OSMPBFWriter(path: path, header: data.header)
        try writer.write(nodes: data.nodes)
        try writer.write(ways: data.ways)
        try writer.write(relations: data.relations)
        try writer.finish()
        let read = try OSMPBFReader(contentsOfFile: path).readAll()
        #expect(read.nodes == data.nodes)
        #expect(read.ways == data.ways)
        #expect(read.relations == data.relations)
        let box = try #require(read.header.boundingBox), original = try #require(data.header.boundingBox)
        #expect(abs(box.south - original.south) < 1e-9 && abs(box.east - original.east) < 1e-9)
        // Blocks of at most 8,000 objects, compressed: the file is about the size of the one osmium wrote.
        let written = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let source = try #require(FileManager.default.attributesOfItem(atPath: OSMTestData.helsinkiPath)[.size] as? Int)
        #expect(written < source * 3 / 2, "\(written) bytes written for \(source)")
        #expect(!FileManager.default.fileExists(atPath: path + ".new"))
    }

    @Test("blocks are cut by size as well as by count, and the file still reads back whole")
    func blocksCutBySize() throws {
        let data = try OSMTestData.helsinki()
        func written(blockBytes: Int) throws -> (OSMData, blocks: Int) {
            let path = TestScratch.folder("pbf-blocks") + "/helsinki.osm.pbf"
            let writer = try OSMPBFWriter(path: path, header: data.header, blockBytes: blockBytes)
            try writer.write(nodes: data.nodes)
            try writer.write(ways: data.ways)
            try writer.write(relations: data.relations)
            try writer.finish()
            var blocks = 0
            try OSMPBFReader(contentsOfFile: path).forEachPrimitiveBlock(filter: .idsOnly) { _ in blocks += 1 }
            return (try OSMPBFReader(contentsOfFile: path).readAll(), blocks)
        }
        let whole = try written(blockBytes: 8 << 20), small = try written(blockBytes: 64 << 10)
        // By count alone: 8,000 objects a block.
        let byCount = [data.nodes.count, data.ways.count, data.relations.count].reduce(0) { $0 + ($1 + 7_999) / 8_000 }
        #expect(whole.blocks == byCount && small.blocks > 2 * byCount)
        #expect(small.0.nodes == data.nodes && small.0.ways == data.ways && small.0.relations == data.relations)
    }

    @Test("folding writes the extract as the changes make it, and later changes are still checked against their versions")
    func foldKeepsDataAndVersions() throws {
        let data = try OSMTestData.helsinki()
        let (change, edited) = try OSMTestData.helsinkiEdits()
        let folder = OSMUpdateFolder(path: TestScratch.folder("fold") + "/updates")
        try folder.start(extracts: [OSMTestData.helsinkiPath])
        var journal = try folder.journal()
        try journal.apply(change)
        let state = ReplicationState(sequence: 7, timestamp: Date(timeIntervalSince1970: 1_609_948_602))
        try folder.commit(journal: journal, state: state)
        let overlaid = try OSMFeatureExtractor().extract(from: OSMPBFReader(contentsOfFile: OSMTestData.helsinkiPath), changes: journal)

        let written = try folder.fold(journal, state: state)
        #expect(try folder.extracts() == written && written.count == 1)
        let folded = try OSMPBFReader(contentsOfFile: written[0]).readAll()
        #expect(folded.nodes == edited.sorted { $0.id < $1.id })
        #expect(folded.ways == data.ways && folded.relations == data.relations)
        #expect(folded.header.boundingBox == data.header.boundingBox && folded.header.boundingBox != nil)
        let features = OSMFeatureExtractor().extract(from: folded)
        #expect(features.venues.map(\.id) == overlaid.venues.map(\.id) && features.venues.map(\.name) == overlaid.venues.map(\.name))
        #expect(features.addressPoints.map(\.id) == overlaid.addressPoints.map(\.id))

        // Nothing left to lay over the folded extract; the same file again is applied already, an older one refused.
        var after = try folder.journal()
        #expect(after.count == 0)
        let again = try after.apply(change)
        #expect(again.alreadyApplied == 3 && again.created + again.modified + again.deleted == 0)
        let older = OSMChange(edits: [.init(action: .modify, key: change.edits[1].key, version: 98, element: change.edits[1].element)])
        #expect(throws: PindropError.self) { try after.apply(older) }

        // A second fold replaces the folder's own file, never the extract imported from.
        let second = try folder.fold(try folder.journal(), state: state)
        #expect(!FileManager.default.fileExists(atPath: written[0]) && FileManager.default.fileExists(atPath: second[0]))
        #expect(FileManager.default.fileExists(atPath: OSMTestData.helsinkiPath))
        #expect(try OSMPBFReader(contentsOfFile: second[0]).readAll().nodes == folded.nodes)
    }
}
