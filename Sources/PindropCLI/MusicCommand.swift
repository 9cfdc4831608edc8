import ArgumentParser

// Owned by the MusicBrainz work (issue 5): replaced by the real `pindrop music`.
struct MusicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "music", abstract: "Search MusicBrainz music places.")
    func run() async throws { throw ValidationError("music is not built yet") }
}
