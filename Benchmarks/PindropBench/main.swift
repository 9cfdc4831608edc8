import Foundation
import PindropCore
import PindropImport
import PindropIndex

// `pindrop-bench [geonames|suggest-quality|suggest-mix|typos|near|scale|areas|music|cache|format] ...` — figures from a release build, each with a baseline measured
// in the same run, so a noisy shared machine moves both sides alike.
let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
// A failure says what failed and exits 1, rather than trapping with a backtrace.
do {
    switch arguments.first {
    case "music": try await runMusicBenchmark(arguments: rest)
    case "format": try runFormatBenchmark(arguments: rest)
    case "cache": try await runProviderCacheBenchmark(arguments: rest)
    case "suggest-quality": try await runSuggestQualityBenchmark(arguments: rest)
    case "typos": try await runTypoBenchmark(arguments: rest)
    case "near": try await runNearBenchmark(arguments: rest)
    case "suggest-mix": try runSuggestMixBenchmark(arguments: rest)
    case "postgres": try await runPostgresBenchmark(arguments: rest)
    case "areas": try await runAreasBenchmark(arguments: rest)
    case "scale": try runScaleBenchmark(arguments: rest)
    case "scale-import": try await runScaleImport(arguments: rest)
    case "scale-serve": try runScaleServe(arguments: rest)
    case "serving-memory": try runServingMemory(indexPath: arguments[1])
    case "geonames", nil: try await runGeoNamesBenchmark(arguments: rest)
    default:
        let usage = ["geonames [--data DIR] [--queries N]", "suggest-quality [--data DIR] [--sample N]",
                     "suggest-mix INDEX PATHS [--rounds N] [--evict-mib M]",
                     "typos [--data DIR] [--per-kind N] [--seed S] [--misses]", "near [--data DIR] [--osm FILE] [--sample N]",
                     "postgres --url URL [--queries N]",
                     "scale [--inputs build/scale] [--out build/scale/bench] [--geonames 1,10,50] [--osm 1,10,100]",
                     "areas [--osm FILE] [--fixtures DIR] [--points N]", "music", "cache", "format [--cases DIR] [--rounds N] [--passes N]"]
        FileHandle.standardError.write(Data("usage: pindrop-bench [\(usage.joined(separator: " | "))]\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("pindrop-bench: \((error as? PindropError)?.message ?? "\(error)")\n".utf8))
    exit(1)
}
