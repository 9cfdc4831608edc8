import PindropCore

/// One slot of a `SpatialIndex`: what a walk reads of a node, in one 64-byte cache line (the tree's slots
/// used to lie in four columns, so a node deep in a large tree cost a cache miss for each).
struct SpatialNode: BitwiseCopyable, Sendable {
    /// The node's point: a unit vector.
    var x, y, z: Double
    /// The bounding box of the subtree whose node this is, in `Float` rounded outward (half the memory of
    /// `Double`, at most ~0.4 m looser, and a box only prunes). Pruning by box instead of by split plane alone
    /// keeps far-from-everything queries (mid-ocean) cheap.
    var minX, minY, minZ, maxX, maxY, maxZ: Float
    /// The node's place.
    var place: Int32
    /// The place's weight, and the largest weight in the subtree (the place tree's populations, for the town
    /// lookup); 0 in trees built without weights.
    var weight: Int32, topWeight: Int32
    /// The split axis (0, 1, 2 for x, y, z).
    var axis: UInt8
    /// The record's last three bytes, named so they are zero: implicit padding is whatever memory held, and the
    /// file would differ from one import of the same data to the next.
    var padding: (UInt8, UInt8, UInt8) = (0, 0, 0)

    /// Squared chord from a unit vector to the node's point.
    @inline(__always)
    func distance2(_ qx: Double, _ qy: Double, _ qz: Double) -> Double {
        let dx = x - qx, dy = y - qy, dz = z - qz
        return dx * dx + dy * dy + dz * dz
    }

    /// Squared chord from a unit vector to the subtree's box (0 inside it): no place of the subtree is nearer.
    @inline(__always)
    func boxDistance2(_ qx: Double, _ qy: Double, _ qz: Double) -> Double {
        let dx = max(Double(minX) - qx, 0, qx - Double(maxX))
        let dy = max(Double(minY) - qy, 0, qy - Double(maxY))
        let dz = max(Double(minZ) - qz, 0, qz - Double(maxZ))
        return dx * dx + dy * dy + dz * dz
    }

    /// Squared chord from a unit vector to the farthest corner of the subtree's box: every place of it is nearer.
    @inline(__always)
    func farthestBoxDistance2(_ qx: Double, _ qy: Double, _ qz: Double) -> Double {
        let fx = max(qx - Double(minX), Double(maxX) - qx), fy = max(qy - Double(minY), Double(maxY) - qy)
        let fz = max(qz - Double(minZ), Double(maxZ) - qz)
        return fx * fx + fy * fy + fz * fz
    }

    /// The coordinate on the split axis.
    @inline(__always)
    func coordinate(_ axis: Int) -> Double { axis == 0 ? x : axis == 1 ? y : z }
}
