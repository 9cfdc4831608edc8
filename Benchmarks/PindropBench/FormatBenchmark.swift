import Foundation
import PindropCore
import PindropImport
import PindropTesting

/// `pindrop-bench format [--cases DIR] [--rounds N] [--passes N]`: the cost of writing an address as its country
/// does (`AddressFormatter`), per address, over every one of OpenCage's test cases (../shared/address-formatting/
/// testcases, or `--cases`): their whole parts (venues' names, districts, states, up to 14 parts), and the four a
/// street-level answer's display line holds (street, number, postcode, town, with the country code), on one line,
/// once from parts made beforehand (the formatter alone) and once from the `Address` itself
/// (`AddressFormatter.streetLine`, the parts made in the timing: what a street-level answer pays). Beside them, in
/// the same run, the yardsticks: the same four parts plainly joined by ", " (street, number, postcode, town), and the
/// `Address`'s eight parts so joined. Also the addresses in data/osm (Helsinki's centre and Liechtenstein, as
/// their extracts tag them): their street lines, and each whole as `/v1` answers' `address.formatted` writes it
/// (`AddressFormatter.format` of the `Address`), with their four parts joined as the yardstick. Each round
/// times every method over all cases `--passes` times on the thread's CPU clock, the methods taking turns; the table
/// has the medians of the rounds. First use (reading the templates and compiling every country's form) is timed
/// once, apart. The cases that come out as expected are counted, so a fast wrong formatter does not pass unseen.
func runFormatBenchmark(arguments: [String]) throws {
    let rounds = Int(option("--rounds", in: arguments) ?? "") ?? 7
    let passes = Int(option("--passes", in: arguments) ?? "") ?? 200
    guard let folder = option("--cases", in: arguments) ?? AddressFormatCases.folder(besides: FileManager.default.currentDirectoryPath)
    else { throw PindropError.invalidInput("no test cases: give --cases DIR (OpenCage's testcases/) or run beside ../shared") }
    let cases = try AddressFormatCases.load(from: folder)

    let started = threadCPUNanos()
    _ = AddressFormatter.shared
    say("address formatter: first use (templates read, every country's form compiled) \(String(format: "%.1f", (threadCPUNanos() - started) / 1e6)) ms CPU")

    let parts = cases.map(\.parts)
    let addresses = parts.map(oneRuleAddress)
    let countryCodes = parts.map { $0.countryCode?.uppercased() }
    let streetLines = zip(addresses, countryCodes).map { AddressParts(streetLine: $0, countryCode: $1) }
    let passing = zip(cases, parts).count { AddressFormatter.format($1, abbreviate: $0.abbreviate) == $0.expected }
    say("\(cases.count) test-case addresses from \(folder); written as expected: \(passing)")
    let (mappedAddresses, mappedCodes) = try mappedAddresses()
    say("\(mappedAddresses.count) addresses of Helsinki's centre and Liechtenstein (data/osm)")
    /// The bytes `write` writes for each of those addresses.
    func eachMapped(_ write: (Address, String) -> String) -> Int {
        var bytes = 0
        for i in mappedAddresses.indices { bytes &+= write(mappedAddresses[i], mappedCodes[i]).utf8.count }
        return bytes
    }

    // Each method with how many addresses one pass writes.
    let methods: [(name: String, count: Int, run: () -> Int)] = [
        ("AddressFormatter (the country's template)", cases.count, { parts.reduce(0) { $0 + AddressFormatter.format($1).utf8.count } }),
        ("AddressFormatter, single line", cases.count, { parts.reduce(0) { $0 + AddressFormatter.format($1, singleLine: true).utf8.count } }),
        ("AddressFormatter, street line (4 parts)", cases.count, {
            streetLines.reduce(0) { $0 + AddressFormatter.format($1, singleLine: true).utf8.count }
        }),
        ("the same from the Address (streetLine)", cases.count, {
            zip(addresses, countryCodes).reduce(0) { $0 + AddressFormatter.streetLine($1.0, countryCode: $1.1).utf8.count }
        }),
        ("Helsinki and Liechtenstein street lines", mappedAddresses.count, { eachMapped(AddressFormatter.streetLine) }),
        ("the same addresses whole (address.formatted)", mappedAddresses.count, {
            eachMapped { AddressFormatter.format($0, countryCode: $1) }
        }),
        ("baseline: their 4 parts joined by \", \"", mappedAddresses.count, { eachMapped { address, _ in streetJoin(address) } }),
        ("baseline: the 4 parts joined by \", \"", cases.count, { addresses.reduce(0) { $0 + streetJoin($1).utf8.count } }),
        ("baseline: the Address's parts joined by \", \"", cases.count, { addresses.reduce(0) { $0 + plainJoin($1).utf8.count } }),
    ]
    var perAddress = [[Double]](repeating: [], count: methods.count)
    var written = 0
    for _ in 0..<rounds {
        for (m, method) in methods.enumerated() {
            let t = threadCPUNanos()
            for _ in 0..<passes { written &+= method.run() }
            perAddress[m].append((threadCPUNanos() - t) / Double(passes * max(method.count, 1)))
        }
    }
    say("ns per address (thread CPU, median of \(rounds) rounds of \(passes) passes; \(written) bytes written):")
    for (m, method) in methods.enumerated() {
        let sorted = perAddress[m].sorted()
        say("  " + method.name.padding(toLength: 46, withPad: " ", startingAt: 0)
            + String(format: "%8.0f ns   (rounds %.0f–%.0f)", sorted[sorted.count / 2], sorted.first!, sorted.last!))
    }
}

/// The parts as an `Address` holds them: the first of each main component's usual aliases.
private func oneRuleAddress(_ parts: AddressParts) -> Address {
    func first(_ names: String...) -> String? { names.lazy.compactMap { parts[$0] }.first }
    return Address(houseNumber: first("house_number", "housenumber", "street_number"),
                   street: first("road", "street", "pedestrian", "footway", "path", "square"),
                   postcode: first("postcode", "postal_code"), town: first("city", "town", "village", "hamlet", "municipality"),
                   suburb: first("suburb", "neighbourhood", "city_district"), county: first("county"),
                   state: first("state", "province"), country: first("country"))
}

/// The street line's four parts there (street, number, postcode, town), joined by ", ".
private func streetJoin(_ a: Address) -> String {
    [a.street, a.houseNumber, a.postcode, a.town].compactMap { $0 }.joined(separator: ", ")
}

/// Every part there, in the order of `Address`, joined by ", ".
private func plainJoin(_ a: Address) -> String {
    [a.houseNumber, a.street, a.postcode, a.town, a.suburb, a.county, a.state, a.country].compactMap { $0 }.joined(separator: ", ")
}

/// The addresses of Helsinki's centre and of Liechtenstein as their extracts in data/osm tag them, with their
/// country's code: what a street-level answer writes, in the mix of those two countries. Two arrays read by index:
/// a loop over (address, code) pairs copied each pair, a seventh of a street line.
private func mappedAddresses() throws -> (addresses: [Address], codes: [String]) {
    var addresses: [Address] = [], codes: [String] = []
    for (file, code) in [("data/osm/helsinki-center.osm.pbf", "FI"), ("data/osm/liechtenstein.osm.pbf", "LI")]
    where FileManager.default.fileExists(atPath: file) {
        let found = try OSMFeatureExtractor.extract(fromFileAt: file).addressPoints.map(\.address)
        addresses += found
        codes += Array(repeating: code, count: found.count)
    }
    return (addresses, codes)
}
