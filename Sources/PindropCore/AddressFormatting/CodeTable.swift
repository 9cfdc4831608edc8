/// A country's state (or county) codes and names (`state_codes.yaml`, `county_codes.yaml`): a name gives its code
/// ("Colorado" → "CO"), and a code given where the name belongs gives the name ("NC" → "North Carolina", "NC").
/// Names match in any case, as the reference compares them upper-cased.
struct CodeTable: Sendable {
    private let codes: [String]
    /// Each code's default name.
    private let names: [String]
    private let byName: [String: Int]
    private let byUppercasedName: [String: Int]
    private let byCode: [String: Int]
    /// The UTF-8 lengths of every name (as written and upper-cased) and code, one bit each (63: longer): an ASCII
    /// text of another length is none of them, found so without hashing it.
    private let lengths: UInt64

    init(_ rows: [AddressFormatData.CodeNames]) {
        codes = rows.map(\.code)
        names = rows.map { $0.names.first ?? $0.code }
        var byName: [String: Int] = [:], byUppercasedName: [String: Int] = [:], byCode: [String: Int] = [:]
        for (i, row) in rows.enumerated() {
            for name in row.names {
                if byName[name] == nil { byName[name] = i }
                if byUppercasedName[name.uppercased()] == nil { byUppercasedName[name.uppercased()] = i }
            }
            if byCode[row.code] == nil { byCode[row.code] = i }
        }
        (self.byName, self.byUppercasedName, self.byCode) = (byName, byUppercasedName, byCode)
        lengths = (Array(byName.keys) + Array(byUppercasedName.keys) + Array(byCode.keys))
            .reduce(0) { $0 | 1 << UInt64(min($1.utf8.count, 63)) }
    }

    /// The code for `text` when it names an entry: nil `name` when `text` is the entry's name, the entry's name when
    /// `text` is its code. Nil when it is neither.
    func lookUp(_ text: String) -> (code: String, name: String?)? {
        let utf8 = text.utf8
        if lengths & 1 << UInt64(min(utf8.count, 63)) == 0, utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        if let i = byName[text] { return (codes[i], nil) }
        let uppercased = text.uppercased()
        if let i = byUppercasedName[uppercased] { return (codes[i], nil) }
        if let i = byCode[uppercased] { return (codes[i], names[i]) }
        return nil
    }
}
