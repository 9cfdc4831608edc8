import ArgumentParser

/// `pindrop`: every capability of the engine as a subcommand.
@main
struct Pindrop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pindrop",
        abstract: "Find places offline (GeoNames, OpenStreetMap) and online, from the command line or as a web map.",
        subcommands: [
            SearchCommand.self, SuggestCommand.self, ReverseCommand.self, NearbyCommand.self, StatusCommand.self, ProvidersCommand.self,
            ImportCommand.self, UpdateCommand.self, ReplicationCommand.self, ServeCommand.self, UsersCommand.self, MusicCommand.self, FormatCommand.self,
        ]
    )
}
