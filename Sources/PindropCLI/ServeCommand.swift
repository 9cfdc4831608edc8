import ArgumentParser

// Owned by the server work (issue 3): replaced by the real `pindrop serve`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the HTTP API and web map app.")
    func run() async throws { throw ValidationError("serve is not built yet") }
}
