/// An address's values while it is written, by component slot (stack memory, every slot initialized).
typealias AddressValues = UnsafeMutableBufferPointer<String?>

/// The components the templates know (`components.yaml`), each name and alias with a slot of its own, and which
/// alias fills a main component that is missing ("town" fills "city", "street" fills "road").
struct AddressComponents: Sendable {
    /// Each slot's name; the last slot is "attention", which only the formatter fills (with the parts it does not
    /// know: a place's name, a shop's type).
    let names: [String]
    let slotByName: [String: Int]
    /// Each main component's slot and the slots of its aliases, in the order that decides which one fills it.
    /// `district` is a neighbourhood's alias here (as the file says, and for an address without a country).
    let aliasesWithDistrictAsNeighbourhood: AliasTable
    /// The same, with `district` a `state_district`'s alias instead: how most countries' OSM data use it.
    let aliasesWithDistrictAsStateDistrict: AliasTable
    /// By slot: whether the slot is an alias of another (`district` included), which may fill a main one.
    let isAlias: [Bool]

    /// Main components and their aliases in one flat array: for each main component, its slot, how many aliases
    /// follow, then their slots (one array to walk, where an array of arrays retained each inner one).
    struct AliasTable: Sendable {
        let slots: [Int32]

        init(_ entries: [(main: Int, aliases: [Int])]) {
            slots = entries.flatMap { [Int32($0.main), Int32($0.aliases.count)] + $0.aliases.map(Int32.init) }
        }
    }

    let attention, houseNumber, road, neighbourhood, suburb, city, county, countyCode, state, stateCode, postcode,
        country, countryCode: Int

    /// How many slots there are.
    var count: Int { names.count }

    init(_ list: [AddressFormatData.ComponentNames]) throws(PindropError) {
        var names: [String] = []
        for entry in list { names += [entry.name] + entry.aliases }
        names.append("attention")
        let slotByName = Dictionary(names.enumerated().map { ($1, $0) }) { first, _ in first }
        self.names = names
        self.slotByName = slotByName
        func slot(_ name: String) throws(PindropError) -> Int {
            guard let n = slotByName[name] else { throw .invalidInput("address components: \(name) is missing") }
            return n
        }
        attention = names.count - 1
        (houseNumber, road, neighbourhood, suburb) = (try slot("house_number"), try slot("road"), try slot("neighbourhood"), try slot("suburb"))
        (city, county, countyCode, state) = (try slot("city"), try slot("county"), try slot("county_code"), try slot("state"))
        (stateCode, postcode, country, countryCode) = (try slot("state_code"), try slot("postcode"), try slot("country"), try slot("country_code"))
        let district = try slot("district"), stateDistrict = try slot("state_district")
        let aliases = list.filter { !$0.aliases.isEmpty || $0.name == "state_district" }.map { entry in
            (main: slotByName[entry.name]!, aliases: entry.aliases.map { slotByName[$0]! })
        }
        var isAlias = [Bool](repeating: false, count: names.count)
        for entry in aliases { for alias in entry.aliases { isAlias[alias] = true } }
        isAlias[district] = true
        self.isAlias = isAlias
        aliasesWithDistrictAsNeighbourhood = AliasTable(aliases.filter { !$0.aliases.isEmpty })
        aliasesWithDistrictAsStateDistrict = AliasTable(aliases.map { entry in
            var moved = entry.aliases.filter { $0 != district }
            if entry.main == stateDistrict { moved.append(district) }
            return (entry.main, moved)
        }.filter { !$0.1.isEmpty })
    }

    /// Countries whose OSM `district` is a part of town rather than a state's district (as OpenCage's formatter has it).
    static let smallDistrictCountries: Set<String> = ["BR", "CR", "ES", "NI", "PY", "RO", "TG", "TM", "XK"]

    /// Fills each missing main component from the first of its aliases that is there.
    func fillFromAliases(_ values: AddressValues, districtIsNeighbourhood: Bool) {
        let table = districtIsNeighbourhood ? aliasesWithDistrictAsNeighbourhood : aliasesWithDistrictAsStateDistrict
        table.slots.withUnsafeBufferPointer { slots in
            var i = 0
            while i < slots.count {
                let main = Int(slots[i]), end = i + 2 + Int(slots[i + 1])
                if values[main] == nil {
                    for k in (i + 2)..<end where values[Int(slots[k])] != nil {
                        values[main] = values[Int(slots[k])]
                        break
                    }
                }
                i = end
            }
        }
    }
}
