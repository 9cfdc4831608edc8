import PindropCore
import PostgresNIO

/// The database's layout. Schema `pindrop` holds what lives on across imports: the record of migrations, the
/// dataset row (which import is serving), the users and their saved and recent places. The places themselves
/// live in schema `pindrop_places`, which each import builds whole beside it and swaps in.
enum PostgresSchema {
    /// The schema of the places being served.
    static let places = "pindrop_places"
    /// Where an import builds the next `places`, inside its transaction (so no reader ever sees it).
    static let staging = "pindrop_places_staging"
    /// Channel a finished import notifies, so that every server loads the new places.
    static let datasetChannel = "pindrop_dataset"
    /// Advisory lock keys: one import at a time; one migration at a time.
    static let importLock: Int64 = 0x7069_6E64_0001, migrationLock: Int64 = 0x7069_6E64_0002

    /// Named migrations of schema `pindrop`, applied in order, each once. Append-only: never edit one that is
    /// registered; add a new one.
    static let migrations: [(name: String, statements: [String])] = [
        ("v1 extensions", ["CREATE EXTENSION IF NOT EXISTS postgis SCHEMA public", "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public"]),
        ("v1 dataset", ["""
            CREATE TABLE pindrop.dataset (
                only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                id uuid NOT NULL,
                source text NOT NULL,
                osm_sources text NOT NULL,
                origin text NOT NULL,
                places bigint NOT NULL,
                imported_at timestamptz NOT NULL DEFAULT now()
            )
            """]),
        ("v1 users", ["""
            CREATE TABLE pindrop.app_user (
                id bigserial PRIMARY KEY,
                name text NOT NULL UNIQUE,
                token_sha256 bytea NOT NULL UNIQUE,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE SEQUENCE pindrop.place_position",
            """
            CREATE TABLE pindrop.saved_place (
                user_id bigint NOT NULL REFERENCES pindrop.app_user ON DELETE CASCADE,
                \(userPlaceColumns),
                PRIMARY KEY (user_id, id)
            )
            """,
            "CREATE INDEX saved_place_newest ON pindrop.saved_place (user_id, position DESC)",
            """
            CREATE TABLE pindrop.recent_place (
                user_id bigint NOT NULL REFERENCES pindrop.app_user ON DELETE CASCADE,
                \(userPlaceColumns),
                PRIMARY KEY (user_id, id)
            )
            """,
            "CREATE INDEX recent_place_newest ON pindrop.recent_place (user_id, position DESC)",
        ]),
        // A place is kept whole: the address's suburb, county, state and country, the category's key, the kind and
        // the bounding box were accepted and answered, then lost.
        ("v2 whole places", ["saved_place", "recent_place"].map { table in
            "ALTER TABLE pindrop.\(table) " + """
                ADD COLUMN suburb text, ADD COLUMN county text, ADD COLUMN state text, ADD COLUMN country text,
                ADD COLUMN category_key text, ADD COLUMN kind text,
                ADD COLUMN box_south float8, ADD COLUMN box_west float8, ADD COLUMN box_north float8, ADD COLUMN box_east float8,
                ADD COLUMN neighbourhood text, ADD COLUMN address_place text, ADD COLUMN town_kind text, ADD COLUMN tags text
                """
        }),
        // How far OpenStreetMap's changes were applied (`pindrop update`, `pindrop replication`), for the status.
        ("v3 replication", ["ALTER TABLE pindrop.dataset ADD COLUMN replication_sequence bigint, ADD COLUMN replication_timestamp timestamptz"]),
        // Which import wrote the GeoNames places: an import of streets or an update keeps them, so a server holding
        // them rebuilds only its street level.
        ("v4 geonames import", ["ALTER TABLE pindrop.dataset ADD COLUMN geonames_id uuid"]),
    ]

    /// A saved or recent place's columns: the whole place, so it outlives the index it came from.
    static let userPlaceColumns = """
        id text NOT NULL,
        name text NOT NULL,
        display_name text NOT NULL,
        latitude float8 NOT NULL,
        longitude float8 NOT NULL,
        country_code text,
        admin1 text,
        population bigint NOT NULL,
        category text,
        house_number text,
        street text,
        postcode text,
        town text,
        source text,
        position bigint NOT NULL DEFAULT nextval('pindrop.place_position')
        """

    /// The place tables of one import, created in `schema`. Points are `geography` with GiST indexes (for
    /// `ST_DWithin` and KNN `<->` from SQL), names have trigram indexes; `seq` keeps the order the
    /// import read, which the index built from them follows.
    static func placeTables(in schema: String) -> [String] {
        [
            "CREATE SCHEMA \(schema)",
            "CREATE TABLE \(schema).country (code text PRIMARY KEY, iso3 text NOT NULL, name text NOT NULL)",
            "CREATE TABLE \(schema).admin1 (key text PRIMARY KEY, name text NOT NULL)",
            """
            CREATE TABLE \(schema).geonames_place (
                seq bigint NOT NULL,
                geoname_id bigint NOT NULL,
                name text NOT NULL,
                ascii_name text NOT NULL,
                alternate_names text[] NOT NULL,
                latitude float8 NOT NULL,
                longitude float8 NOT NULL,
                feature_class text NOT NULL,
                feature_code text NOT NULL,
                country_code text NOT NULL,
                admin1_code text NOT NULL,
                population bigint NOT NULL,
                timezone text NOT NULL,
                \(location)
            )
            """,
        ] + OSMFeatureTables.tables(in: schema, location: location)
    }

    /// The street-level tables alone, created in `schema`: what an import that keeps the GeoNames places replaces.
    static func streetTables(in schema: String) -> [String] {
        ["CREATE SCHEMA \(schema)"] + OSMFeatureTables.tables(in: schema, location: location)
    }

    /// The place tables' point column, generated from their latitude and longitude.
    private static let location = """
        location geography(Point, 4326) GENERATED ALWAYS AS
            (ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography) STORED
        """

    /// What an import adds once the rows are in: a later duplicate GeoNames id replaces the earlier (as in the
    /// embedded import), then the keys and the spatial and name indexes, then fresh statistics.
    static func finishPlaceTables(in schema: String) -> [String] {
        [
            """
            DELETE FROM \(schema).geonames_place a USING \(schema).geonames_place b
            WHERE a.geoname_id = b.geoname_id AND a.seq < b.seq
            """,
            "ALTER TABLE \(schema).geonames_place ADD PRIMARY KEY (geoname_id)",
            "CREATE INDEX ON \(schema).geonames_place USING gist (location)",
            "CREATE INDEX ON \(schema).geonames_place USING gin (name gin_trgm_ops)",
            "ANALYZE \(schema).geonames_place",
        ] + OSMFeatureTables.indexes(in: schema)
    }

    /// Brings schema `pindrop` up to date: the missing migrations in order, in one transaction, under a lock so
    /// that several servers starting at once apply each once. A pool does it once (`PostgresPool.migrated`), however
    /// many of a command's parts open the database. Returns the names applied by this call.
    @discardableResult
    static func migrate(_ database: PostgresPool) async throws -> [String] {
        if database.migrated.withLock({ $0 }) { return [] }
        try await database.ping("updating its schema")
        // Creating PostGIS takes seconds on a busy machine, and servers starting together wait on the lock.
        let ran = try await database.transaction("updating its schema", bounded: false) { connection in
            try await connection.query("SET LOCAL statement_timeout = 0", logger: database.logger)
            try await connection.query("SET LOCAL lock_timeout = '120s'", logger: database.logger)
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: database.logger)
            try await connection.query("CREATE SCHEMA IF NOT EXISTS pindrop", logger: database.logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS pindrop.migration (
                    position serial, name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: database.logger)
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM pindrop.migration", logger: database.logger)
                .decode(String.self) { applied.insert(name) }
            var ran: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements { try await connection.execute(statement, logger: database.logger) }
                try await connection.query("INSERT INTO pindrop.migration (name) VALUES (\(migration.name))", logger: database.logger)
                ran.append(migration.name)
            }
            return ran
        }
        database.migrated.withLock { $0 = true }
        return ran
    }

    /// The migrations recorded in the database, oldest first.
    static func appliedMigrations(_ database: PostgresPool) async throws -> [String] {
        try await database.withConnection("reading its migrations") { connection in
            var names: [String] = []
            for try await name in try await connection.query("SELECT name FROM pindrop.migration ORDER BY position",
                                                             logger: database.logger).decode(String.self) {
                names.append(name)
            }
            return names
        }
    }
}

extension PostgresConnection {
    /// Runs one statement built in code, without parameters (schema changes, whose names cannot be bound).
    func execute(_ sql: String, logger: Logger) async throws {
        try await query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }
}
