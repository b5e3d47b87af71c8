# The project configuration, read by schemagen and by the Atlas CLI alike:
#   schemagen migrate diff NAME          atlas migrate apply --env tidb
# dev: a clean database for planning; empty means schemagen's embedded one
# (the Atlas CLI needs a URL: set SCHEMAGEN_DEV_POSTGRES_URL / _TIDB_URL).
# url: the database that migrate apply, migrate status and drift work on.

env "postgres" {
  src = "file://generated/postgres/schema.sql"
  dev = getenv("SCHEMAGEN_DEV_POSTGRES_URL")
  url = getenv("DATABASE_URL_POSTGRES")
  migration {
    dir = "file://migrations/postgres"
  }
}

env "tidb" {
  src = "file://generated/tidb/schema.sql"
  dev = getenv("SCHEMAGEN_DEV_TIDB_URL")
  url = getenv("DATABASE_URL_TIDB")
  migration {
    dir = "file://migrations/tidb"
  }
}
