# schemagen's project configuration, read by schemagen and by the Atlas CLI
# alike. The daily loop:
#
#   schemagen generate            schema.hcl -> generated/<dialect>/schema.sql
#   schemagen check               the CI gate: the model is valid, generated/ current
#   schemagen migrate diff NAME   writes migrations/<dialect>/<version>_NAME.sql
#   schemagen migrate lint        checks the new files
#   schemagen migrate apply --env postgres --env tidb   (or: atlas migrate apply --env tidb)
#
# Each env is one dialect:
#   src  the generated DDL, what the migrations must reach;
#   dev  a database server schemagen plans on: it creates and drops scratch
#        databases there. Empty means an embedded server that schemagen starts
#        and removes by itself (PostgreSQL from initdb on PATH; TiDB from
#        tidb-server: `schemagen dev install tidb` builds it). The Atlas CLI
#        needs a URL. Set
#          SCHEMAGEN_DEV_POSTGRES_URL  postgres://USER:PASS@HOST:5432/postgres?sslmode=disable
#          SCHEMAGEN_DEV_TIDB_URL      mysql://root@HOST:4000/
#   url  the database that migrate apply, migrate status and drift work on
#        (--url overrides it):
#          DATABASE_URL_POSTGRES, DATABASE_URL_TIDB
#   migration.dir  the versioned files, with their atlas.sum.

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
