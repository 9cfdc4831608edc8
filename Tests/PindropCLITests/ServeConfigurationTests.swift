import Foundation
import PindropTesting
import Testing

/// `pindrop serve`'s one configuration: a TOML file beside flags and the environment, flag > environment > file >
/// default, shown by `--print-config` with secrets masked; a bad file stops the start with a line naming the key.
@Suite("pindrop serve configuration", .serialized)
struct ServeConfigurationTests {
    static let folder = TestScratch.root + "/config"

    /// Writes `text` as a configuration file and returns its path.
    static func file(_ name: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The line of `--print-config` for `key`.
    static func line(_ key: String, in output: String) -> String {
        output.split(separator: "\n").first { $0.hasPrefix(key + " = ") }.map(String.init) ?? ""
    }

    @Test("flag > environment > file > default, each value named with where it comes from; secrets masked")
    func precedence() throws {
        let config = try Self.file("precedence.toml", """
            port = 9001
            idle_timeout = 7
            max_connections = 77
            allowed_hosts = ["maps.example.org", "maps2.example.org"]
            log_format = "json"
            database_url = "postgres://pindrop:hunter2secret@db.internal:5432/pindrop"
            google_api_key = "AIzaFileKey0123456789"
            """)
        let run = try CommandLineTests.pindrop(
            ["serve", "--config", config, "--print-config", "--port", "9003"],
            environment: ["PINDROP_PORT": "9002", "PINDROP_IDLE_TIMEOUT": "8", "PINDROP_MAPBOX_API_KEY": "pk.envSecretMapbox"])
        #expect(run.status == 0, "\(run.stderr)")
        let out = run.stdout
        #expect(Self.line("port", in: out).hasPrefix("port = 9003") && Self.line("port", in: out).hasSuffix("# flag"))
        #expect(Self.line("idle_timeout", in: out).hasPrefix("idle_timeout = 8"))
        #expect(Self.line("idle_timeout", in: out).hasSuffix("# environment PINDROP_IDLE_TIMEOUT"))
        #expect(Self.line("max_connections", in: out).hasPrefix("max_connections = 77"))
        #expect(Self.line("max_connections", in: out).hasSuffix("# file \(config)"))
        #expect(Self.line("allowed_hosts", in: out).hasPrefix(#"allowed_hosts = ["maps.example.org", "maps2.example.org"]"#))
        #expect(Self.line("log_format", in: out).hasPrefix(#"log_format = "json""#))
        #expect(Self.line("host", in: out).hasPrefix(#"host = "127.0.0.1""#) && Self.line("host", in: out).hasSuffix("# default"))
        #expect(Self.line("shutdown_timeout", in: out).hasPrefix("shutdown_timeout = 30"))
        // Secrets: the URL without its password, keys as their length alone.
        #expect(Self.line("database_url", in: out).contains("postgres://pindrop:***@db.internal:5432/pindrop"))
        #expect(Self.line("google_api_key", in: out).contains("*** (21 characters)"))
        #expect(Self.line("mapbox_api_key", in: out).hasSuffix("# environment PINDROP_MAPBOX_API_KEY"))
        #expect(!out.contains("hunter2") && !out.contains("AIzaFileKey") && !out.contains("envSecret"))
        #expect(run.stderr.isEmpty || !run.stderr.contains("hunter2"))
    }

    @Test("an unknown key, a value of the wrong type or out of range, or broken TOML stops the start naming it")
    func badFiles() throws {
        let cases: [(String, String)] = [
            ("prot = 8080", #"unknown key "prot""#),
            (#"port = "eighty""#, #""port" must be a whole number"#),
            ("port = 70000", #""port" must be a whole number in 0...65535"#),
            (#"log_level = "loud""#, #""log_level" must be one of trace"#),
            ("require_token = 3", #""require_token" must be true, false, 1 or 0, got "3""#),
            ("allowed_hosts = [1, 2]", #""allowed_hosts" must be a list of strings"#),
            ("port = = 1", "line 1"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let config = try Self.file("bad\(index).toml", text)
            let run = try CommandLineTests.pindrop(["serve", "--config", config, "--port", "0"])
            #expect(run.status != 0, "\(text) was accepted")
            #expect(run.stderr.contains(expected) && run.stderr.contains(config), "\(text): \(run.stderr)")
            #expect(!run.stderr.contains("Fatal error"), "\(run.stderr)")
        }
        // A bad environment value is named by its variable, a bad flag by its flag.
        let environment = try CommandLineTests.pindrop(["serve", "--print-config"], environment: ["PINDROP_SHUTDOWN_TIMEOUT": "soon"])
        #expect(environment.status != 0 && environment.stderr.contains("PINDROP_SHUTDOWN_TIMEOUT"), "\(environment.stderr)")
        let flag = try CommandLineTests.pindrop(["serve", "--print-config", "--log-format", "xml"])
        #expect(flag.status != 0 && flag.stderr.contains("--log-format must be human or json"), "\(flag.stderr)")
        // A flag has the range its key has in the file (ServeSettingTests checks every setting so).
        let range = try CommandLineTests.pindrop(["serve", "--print-config", "--idle-timeout", "7200"])
        #expect(range.status != 0 && range.stderr.contains(#"--idle-timeout must be a whole number in 1...3600, got "7200""#),
                "\(range.stderr)")
        let missing = try CommandLineTests.pindrop(["serve", "--config", Self.folder + "/none.toml", "--print-config"])
        #expect(missing.status != 0 && missing.stderr.contains("none.toml cannot be read"), "\(missing.stderr)")
    }

    @Test("$PINDROP_CONFIG names the file when --config does not")
    func environmentNamesTheFile() throws {
        let config = try Self.file("from-environment.toml", "writes_per_minute = 42\n")
        let run = try CommandLineTests.pindrop(["serve", "--print-config"], environment: ["PINDROP_CONFIG": config])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.line("writes_per_minute", in: run.stdout).hasPrefix("writes_per_minute = 42"))
        #expect(run.stdout.contains("# file: \(config)"))
    }
}
