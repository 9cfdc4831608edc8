import Dispatch
import Foundation
import PindropTesting

// `pindrop-fake-services`: local servers that speak real provider wire formats, for browser tests,
// benchmarks and demos without the network. Each fake prints one line "NAME URL" on stdout once it listens;
// SIGINT or SIGTERM stops them all. Add a fake by adding its options and a `start` step below.

let usage = """
    usage: pindrop-fake-services [--host 127.0.0.1] [--time-scale 1]
                                 [--musicbrainz-port 0] [--music-places 250] [--music-count QUERY=N ...]
      --time-scale S       real seconds per rule second (1 = MusicBrainz's 1 request/s; 0.1 = ten times faster)
      --musicbrainz-port   port of the fake MusicBrainz (/ws/2/place); 0 picks a free one
      --music-places N     places a MusicBrainz query matches (default 250)
      --music-count Q=N    places the query Q matches, e.g. --music-count Copenhagen=4000 (40 pages)
      --provider KIND[=PORT]  also a fake nominatim, photon, google, mapbox or foursquare (repeatable);
                           it prints "KIND URL" and accepts the key --provider-key
      --provider-key KEY   the key the fake providers accept (default fake-key-0123456789)

    """

struct FakeServicesOptions {
    var host = "127.0.0.1"
    var timeScale = 1.0
    var musicBrainzPort = 0
    var musicPlaces = 250
    var musicCounts: [String: Int] = [:]
    var providers: [(kind: FakeProviderKind, port: Int)] = []
    var providerKey = "fake-key-0123456789"

    init(arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let value = rest.popFirst() else { throw UsageError("\(name) needs a value") }
            return value
        }
        func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int {
            let text = try value(name)
            guard let number = Int(text), range.contains(number) else {
                throw UsageError("\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), got \"\(text)\"")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--host": host = try value(argument)
            case "--time-scale":
                let text = try value(argument)
                guard let scale = Double(text), scale > 0, scale <= 100 else {
                    throw UsageError("--time-scale must be a number above 0 (at most 100), got \"\(text)\"")
                }
                timeScale = scale
            case "--musicbrainz-port": musicBrainzPort = try integer(argument, in: 0...65535)
            case "--music-places": musicPlaces = try integer(argument, in: 0...1_000_000)
            case "--music-count":
                let pair = try value(argument).split(separator: "=", maxSplits: 1)
                guard pair.count == 2, let count = Int(pair[1]), count >= 0 else {
                    throw UsageError("--music-count takes QUERY=N, e.g. Copenhagen=4000")
                }
                musicCounts[String(pair[0])] = count
            case "--provider":
                let parts = try value(argument).split(separator: "=", maxSplits: 1).map(String.init)
                guard let kind = FakeProviderKind(rawValue: parts[0]), let port = Int(parts.count == 2 ? parts[1] : "0"),
                      (0...65535).contains(port) else {
                    throw UsageError("--provider takes KIND or KIND=PORT, KIND one of "
                                     + FakeProviderKind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                providers.append((kind, port))
            case "--provider-key": providerKey = try value(argument)
            case "-h", "--help":
                print(usage, terminator: "")
                exit(0)
            default: throw UsageError("unknown option \(argument)")
            }
        }
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

let options: FakeServicesOptions
do {
    options = try FakeServicesOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("pindrop-fake-services: \(error.message)\n\(usage)".utf8))
    exit(64)
}

let musicBrainz: FakeMusicBrainzServer
do {
    musicBrainz = try await FakeMusicBrainzServer.start(.init(
        catalog: FakeMusicBrainzCatalog(defaultPlaceCount: options.musicPlaces, placeCounts: options.musicCounts),
        timeScale: options.timeScale, host: options.host, port: options.musicBrainzPort))
} catch {
    FileHandle.standardError.write(Data("pindrop-fake-services: \(error)\n".utf8))
    exit(1)
}
// Written unbuffered, so a script reading the pipe sees it at once.
FileHandle.standardOutput.write(Data("musicbrainz \(musicBrainz.baseURL)\n".utf8))

var providerFakes: [FakeProviderServer] = []
for (kind, port) in options.providers {
    do {
        let fake = try await FakeProviderServer.start(kind, apiKey: options.providerKey, host: options.host, port: port)
        providerFakes.append(fake)
        FileHandle.standardOutput.write(Data("\(kind.rawValue) \(fake.baseURL)\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("pindrop-fake-services: \(error)\n".utf8))
        exit(1)
    }
}
let fakesToStop = providerFakes

// Stop gracefully on SIGINT / SIGTERM.
let stopSignals = onSignals([SIGINT, SIGTERM]) {
    Task {
        for fake in fakesToStop { await fake.stop() }
        await musicBrainz.stop()
    }
}
await musicBrainz.waitUntilStopped()
stopSignals.forEach { $0.cancel() }

/// Runs `action` (off the main actor) when one of the signals arrives, instead of the default (exit).
func onSignals(_ numbers: [Int32], _ action: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
    numbers.map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: action)
        source.resume()
        return source
    }
}
