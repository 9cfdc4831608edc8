extension Address {
    /// The numbers of a house number that lists several, as OpenStreetMap's `addr:housenumber` may ("1;3", "2, 4"):
    /// split at `;` and `,`, each trimmed, in order, a repeat once. A plain house number is one ("12a"; "0" is a number);
    /// none without a house number. An OSM address point keeps its list as tagged, one place as Nominatim keeps it, and
    /// is found by each of these.
    public var houseNumbers: [String] {
        guard let raw = houseNumber else { return [] }
        guard raw.contains(where: { $0 == ";" || $0 == "," || $0.isWhitespace }) else { return raw.isEmpty ? [] : [raw] }
        var numbers: [String] = []
        for part in raw.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let number = String(part).trimmingWhitespace()
            if !number.isEmpty, !numbers.contains(number) { numbers.append(number) }
        }
        return numbers
    }
}
