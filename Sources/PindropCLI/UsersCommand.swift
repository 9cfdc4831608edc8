import ArgumentParser
import Foundation
import PindropCore

/// `pindrop users`: the people a server keeps saved places and recent addresses for, each known by a bearer token.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Add, list and remove the users whose saved places and recent addresses the server keeps apart.",
        discussion: """
            A user's requests to /v1/saved and /v1/recent carry `Authorization: Bearer <token>`; the web app asks for \
            the token once. Requests without one are the local user's, unless `pindrop serve --require-token`.
            """,
        subcommands: [Add.self, List.self, Remove.self])

    /// `pindrop users add NAME`: prints the new user's token, the only time it is shown.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user and print their token on stdout (shown once: only its SHA-256 is kept).")

        @Argument(help: "The user's name (unique, 1-64 characters).")
        var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await reportingErrors {
                let token = try await store.location.openUsers().addUser(named: name)
                print(token)
                Terminal.note("added \(name); keep the token above now, it is not shown again")
            }
        }
    }

    /// `pindrop users list`: every user's name and when they were added, oldest first.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the users, oldest first: a name, a tab and when they were added (ISO 8601, UTC) a line.")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await reportingErrors {
                let users = try await store.location.openUsers().users()
                if users.isEmpty { Terminal.note("no users yet: `pindrop users add NAME` adds one") }
                let time = ISO8601DateFormatter()
                for user in users { print(user.name + "\t" + (user.added.map(time.string(from:)) ?? "")) }
            }
        }
    }

    /// `pindrop users remove NAME`: the user, their token, saved places and recent addresses.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a user with their saved places and recent addresses; their token stops working.")

        @Argument(help: "The user's name.")
        var name: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await reportingErrors {
                guard try await store.location.openUsers().removeUser(named: name) else {
                    throw PindropError.notFound("no user is named \"\(name)\"")
                }
                Terminal.note("removed \(name) with their saved places and recent addresses")
            }
        }
    }
}
