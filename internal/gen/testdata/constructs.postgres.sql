-- Generated from constructs.hcl by schemagen for postgres. Do not edit:
-- change constructs.hcl and run `schemagen generate`.

-- raw vector_extension (from schema.hcl, not translated)
CREATE EXTENSION IF NOT EXISTS vector;

-- columns created_at, seen_at: timestamp as TIMESTAMPTZ (an instant; microsecond precision unless given)
-- column profile: json as JSONB (normalised binary JSON)
-- column search: type TSVECTOR instead of text [override]
-- column search: default to_tsvector('') [override]
-- column search: The default to_tsvector('') of accounts.search: the functions, sequences and relations it names are resolved against PostgreSQL 15.18's catalog, the declared extensions and the model; its syntax, columns, types and operators are checked by PostgreSQL when the DDL runs [override]
-- check accounts_id_text_ck: uuid read as text (::text) where a string operation applies to it
-- check accounts_raw_ck: raw expression score IS NULL OR score >= 0::double precision [override]
-- check accounts_raw_ck: The expression "score IS NULL OR score >= 0::double precision" of check accounts_raw_ck: the functions, sequences and relations it names are resolved against PostgreSQL 15.18's catalog, the declared extensions and the model; its syntax, columns, types and operators are checked by PostgreSQL when the DDL runs [override]
-- column score: CHECK accounts_score_finite_ck: no NaN or infinities, which TiDB does not store (1366) [added]
-- column balance: CHECK accounts_balance_finite_ck: no NaN, which TiDB's DECIMAL does not store (1366) [added]
-- column born_on: CHECK accounts_born_on_range_ck: years 1 to 9999 as on TiDB (PostgreSQL also takes BC years, later years and infinity; TiDB refuses them, 1292) [added]
-- column created_at: CHECK accounts_created_at_range_ck: years 1 to 9999 as on TiDB (PostgreSQL also takes BC years, later years and infinity; TiDB refuses them, 1292) [added]
-- column seen_at: CHECK accounts_seen_at_range_ck: years 1 to 9999 as on TiDB (PostgreSQL also takes BC years, later years and infinity; TiDB refuses them, 1292) [added]
CREATE TABLE "accounts" (
  "id" UUID NOT NULL,
  "email" VARCHAR(320) NOT NULL,
  "code" CHAR(8) NOT NULL,
  "age" SMALLINT,
  "visits" BIGINT NOT NULL DEFAULT 0,
  "disabled" BOOLEAN NOT NULL DEFAULT FALSE,
  "score" DOUBLE PRECISION,
  "balance" NUMERIC(12,2) NOT NULL DEFAULT 0.5,
  "born_on" DATE,
  "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "seen_at" TIMESTAMPTZ(6),
  "profile" JSONB NOT NULL,
  "avatar" BYTEA,
  "status" VARCHAR(16) NOT NULL DEFAULT 'it''s new',
  "nickname" TEXT,
  "search" TSVECTOR DEFAULT to_tsvector(''),
  PRIMARY KEY ("id"),
  CONSTRAINT "accounts_email_uq" UNIQUE ("email"),
  CONSTRAINT "accounts_age_ck" CHECK ("age" IS NULL OR NOT ("age" < 0 OR "age" > 150)),
  CONSTRAINT "accounts_balance_finite_ck" CHECK ("balance" <> 'NaN'),
  CONSTRAINT "accounts_born_on_range_ck" CHECK ("born_on" BETWEEN '0001-01-01' AND '9999-12-31'),
  CONSTRAINT "accounts_code_ck" CHECK ("code" ~ '^[A-Z]{2}[0-9]{6}$' AND "code" !~ '^XX' AND "code" NOT LIKE 'ZZ%'),
  CONSTRAINT "accounts_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00'),
  CONSTRAINT "accounts_id_text_ck" CHECK (CHAR_LENGTH("id"::text) = 36 AND LOWER("code" || 'x') <> 'x'),
  CONSTRAINT "accounts_json_ck" CHECK (jsonb_typeof("profile") = 'object'),
  CONSTRAINT "accounts_math_ck" CHECK ((("visits" * 2) + 1) > -1 AND ("visits" % 2) IN (0, 1) AND ABS("balance") >= 0),
  CONSTRAINT "accounts_number_ck" CHECK (jsonb_typeof("profile") <> 'number' AND jsonb_typeof("profile") IN ('object', 'array')),
  CONSTRAINT "accounts_raw_ck" CHECK (score IS NULL OR score >= 0::double precision),
  CONSTRAINT "accounts_score_finite_ck" CHECK ("score" NOT IN ('NaN', 'Infinity', '-Infinity')),
  CONSTRAINT "accounts_seen_at_range_ck" CHECK ("seen_at" >= '0001-01-01 00:00:00+00' AND "seen_at" < '10000-01-01 00:00:00+00'),
  CONSTRAINT "accounts_status_ck" CHECK ("status" IN ('it''s new', 'active', 'back\slash') AND CHAR_LENGTH("status") BETWEEN 1 AND 16)
);
COMMENT ON TABLE "accounts" IS 'People''s accounts; ''quoted'' text and a back\slash';
COMMENT ON COLUMN "accounts"."email" IS 'Lower-cased by the application';
CREATE INDEX "accounts_email_pattern_idx" ON "accounts" ("email" varchar_pattern_ops);
CREATE INDEX "accounts_lower_email_idx" ON "accounts" ((LOWER("email")), "created_at" DESC);
COMMENT ON INDEX "accounts_lower_email_idx" IS 'Sign-in: finds an account by its e-mail, whatever the user''s case';
CREATE INDEX "accounts_search_idx" ON "accounts" USING gin ("search");

-- column embedding: vector needs the pgvector extension (CREATE EXTENSION vector)
-- foreign key memberships_group_fk: added by ALTER TABLE after all tables, because it closes a cycle of foreign keys
CREATE TABLE "memberships" (
  "id" UUID NOT NULL,
  "group_id" UUID NOT NULL,
  "account_id" UUID NOT NULL,
  "role" VARCHAR(16) NOT NULL,
  "previous_role" VARCHAR(16),
  "embedding" vector(3),
  PRIMARY KEY ("id"),
  CONSTRAINT "memberships_pair_uq" UNIQUE ("group_id", "account_id"),
  CONSTRAINT "memberships_role_change_ck" CHECK ("previous_role" IS DISTINCT FROM "role" OR "previous_role" IS NOT DISTINCT FROM NULL),
  CONSTRAINT "memberships_account_fk" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE RESTRICT
);

-- column deleted_at: timestamp as TIMESTAMPTZ (an instant; microsecond precision unless given)
-- column deleted_at: CHECK groups_deleted_at_range_ck: years 1 to 9999 as on TiDB (PostgreSQL also takes BC years, later years and infinity; TiDB refuses them, 1292) [added]
CREATE TABLE "groups" (
  "id" UUID NOT NULL,
  "owner_id" UUID NOT NULL,
  "parent_id" UUID,
  "name" VARCHAR(100) NOT NULL,
  "deleted_at" TIMESTAMPTZ,
  PRIMARY KEY ("id"),
  CONSTRAINT "groups_deleted_at_range_ck" CHECK ("deleted_at" >= '0001-01-01 00:00:00+00' AND "deleted_at" < '10000-01-01 00:00:00+00'),
  CONSTRAINT "groups_owner_fk" FOREIGN KEY ("owner_id") REFERENCES "memberships" ("id") DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT "groups_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "groups" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "groups_deleted_idx" ON "groups" ("deleted_at") WHERE "deleted_at" IS NOT NULL AND "name" <> '';
CREATE UNIQUE INDEX "groups_live_name_uq" ON "groups" ("name", "parent_id") WHERE "parent_id" IS NOT NULL;
CREATE UNIQUE INDEX "groups_live_uq" ON "groups" ("owner_id", "name") WHERE "deleted_at" IS NULL;
COMMENT ON INDEX "groups_live_uq" IS 'One live group of a name per owner';

CREATE TABLE "postgres_only_audit" (
  "id" BIGINT NOT NULL,
  PRIMARY KEY ("id")
);

-- Foreign keys that close a cycle between tables, added once all exist.
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_group_fk" FOREIGN KEY ("group_id") REFERENCES "groups" ("id") ON DELETE CASCADE;

-- raw active_accounts_view (from schema.hcl, not translated)
CREATE VIEW active_accounts AS SELECT id FROM accounts WHERE NOT disabled;
