import PindropCore

/// The address of the building a point is in: a shop without an address of its own takes the address of the building
/// that holds it before the nearest address point's. Buildings are listed by grid cell, so a lookup tests the outlines
/// of the few buildings whose box covers the point's cell.
struct OSMBuildingAddresses {
    private let outlines: [[[Coordinate]]]
    private let boxes: [BoundingBox]
    private let addresses: [Address]
    private var cells: [Int64: [Int32]] = [:]
    /// About 110 m of latitude: a building spans a cell or a few.
    private static let cellDegrees = 0.001
    /// Past 0.1° (11 km) an outline is no building one is inside of (a mistagged or clipped relation): left out.
    private static let largest = 0.1

    /// The buildings that carry an address of their own (an address point with the building's id).
    init(buildings: [OSMBuilding], addressPoints: [OSMAddressPoint]) {
        var addressOf: [String: Address] = [:]
        for point in addressPoints where !point.id.hasPrefix("osm:node/") && addressOf[point.id] == nil {
            addressOf[point.id] = point.address
        }
        var outlines: [[[Coordinate]]] = [], boxes: [BoundingBox] = [], addresses: [Address] = []
        for building in buildings {
            guard let address = addressOf[building.id], let box = BoundingBox(covering: building.outlines.joined()),
                  box.north - box.south < Self.largest, box.east - box.west < Self.largest else { continue }
            let index = Int32(outlines.count)
            outlines.append(building.outlines); boxes.append(box); addresses.append(address)
            for row in Self.cell(box.south)...Self.cell(box.north) {
                for column in Self.cell(box.west)...Self.cell(box.east) { cells[Self.key(row, column), default: []].append(index) }
            }
        }
        self.outlines = outlines; self.boxes = boxes; self.addresses = addresses
    }

    /// The address of the smallest addressed building whose outline holds the point, or nil.
    func address(at c: Coordinate) -> Address? {
        var best: (area: Double, index: Int)?
        for index in cells[Self.key(Self.cell(c.latitude), Self.cell(c.longitude))] ?? [] {
            let i = Int(index), box = boxes[i]
            let area = (box.north - box.south) * (box.east - box.west)
            guard box.contains(c), area < best?.area ?? .infinity, OSMGeometry.contains(outlines[i], c) else { continue }
            best = (area, i)
        }
        return best.map { addresses[$0.index] }
    }

    private static func cell(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }
    private static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column)) }
}
