-- Generated from constructs.hcl by schemagen for tidb. Do not edit:
-- change constructs.hcl and run `schemagen generate`.
-- CHECK constraints need tidb_enable_check_constraint = ON; without it TiDB ignores them.

-- column id: uuid as CHAR(36)
-- columns email, status: COLLATE utf8mb4_0900_bin: trailing spaces count, as on PostgreSQL (exact_strings)
-- column disabled: bool as TINYINT(1)
-- columns created_at, seen_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- column created_at: now() as CURRENT_TIMESTAMP in the session time zone (keep it UTC)
-- column avatar: bytes as LONGBLOB
-- column nickname: type VARCHAR(100) COLLATE utf8mb4_general_ci instead of text [override]
-- column search, index accounts_search_idx: left out of tidb by the model [omitted]
-- check accounts_code_ck: regex match as REGEXP
-- check accounts_id_text_ck: || as CONCAT
-- checks accounts_json_ck, accounts_number_ck: json_type test as JSON_TYPE with TiDB's upper-case type names
-- check accounts_status_ck: backslashes in string literals doubled (TiDB reads escapes in literals)
-- index accounts_email_pattern_idx: operator class varchar_pattern_ops left out [omitted]
-- column disabled: CHECK accounts_disabled_bool_ck: only true and false, as PostgreSQL's boolean (TINYINT(1) also takes 2) [added]
-- column born_on: CHECK accounts_born_on_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column created_at: CHECK accounts_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column seen_at: CHECK accounts_seen_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK accounts_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `accounts` (
  `id` CHAR(36) NOT NULL,
  `email` VARCHAR(320) COLLATE utf8mb4_0900_bin NOT NULL COMMENT 'Lower-cased by the application',
  `code` CHAR(8) NOT NULL,
  `age` SMALLINT,
  `visits` BIGINT NOT NULL DEFAULT 0,
  `disabled` TINYINT(1) NOT NULL DEFAULT 0,
  `score` DOUBLE,
  `balance` DECIMAL(12,2) NOT NULL DEFAULT 0.5,
  `born_on` DATE,
  `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `seen_at` DATETIME(6),
  `profile` JSON NOT NULL,
  `avatar` LONGBLOB,
  `status` VARCHAR(16) COLLATE utf8mb4_0900_bin NOT NULL DEFAULT 'it''s new',
  `nickname` VARCHAR(100) COLLATE utf8mb4_general_ci,
  PRIMARY KEY (`id`),
  CONSTRAINT `accounts_email_uq` UNIQUE (`email`),
  CONSTRAINT `accounts_age_ck` CHECK (`age` IS NULL OR NOT (`age` < 0 OR `age` > 150)),
  CONSTRAINT `accounts_born_on_range_ck` CHECK (`born_on` >= '0001-01-01'),
  CONSTRAINT `accounts_code_ck` CHECK (`code` REGEXP '^[A-Z]{2}[0-9]{6}$' AND NOT (`code` REGEXP '^XX') AND `code` NOT LIKE 'ZZ%'),
  CONSTRAINT `accounts_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `accounts_disabled_bool_ck` CHECK (`disabled` IN (0, 1)),
  CONSTRAINT `accounts_id_text_ck` CHECK (CHAR_LENGTH(`id`) = 36 AND LOWER(CONCAT(`code`, 'x')) <> 'x'),
  CONSTRAINT `accounts_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `accounts_json_ck` CHECK (JSON_TYPE(`profile`) = 'OBJECT'),
  CONSTRAINT `accounts_math_ck` CHECK (((`visits` * 2) + 1) > -1 AND (`visits` % 2) IN (0, 1) AND ABS(`balance`) >= 0),
  CONSTRAINT `accounts_number_ck` CHECK (JSON_TYPE(`profile`) NOT IN ('INTEGER', 'UNSIGNED INTEGER', 'DOUBLE', 'DECIMAL') AND JSON_TYPE(`profile`) IN ('OBJECT', 'ARRAY')),
  CONSTRAINT `accounts_raw_ck` CHECK (`score` IS NULL OR `score` >= 0),
  CONSTRAINT `accounts_seen_at_range_ck` CHECK (`seen_at` >= '0001-01-01'),
  CONSTRAINT `accounts_status_ck` CHECK (`status` IN ('it''s new', 'active', 'back\\slash') AND CHAR_LENGTH(`status`) BETWEEN 1 AND 16),
  INDEX `accounts_email_pattern_idx` (`email`),
  INDEX `accounts_lower_email_idx` ((LOWER(`email`)), `created_at` DESC) COMMENT 'Sign-in: finds an account by its e-mail, whatever the user''s case'
) COMMENT = 'People''s accounts; ''quoted'' text and a back\\slash';

-- columns id, group_id, account_id: uuid as CHAR(36)
-- columns role, previous_role: COLLATE utf8mb4_0900_bin: trailing spaces count, as on PostgreSQL (exact_strings)
-- check memberships_role_change_ck: IS [NOT] DISTINCT FROM as the NULL-safe <=>
-- foreign key memberships_group_fk: added by ALTER TABLE after all tables, because it closes a cycle of foreign keys
-- column id: CHECK memberships_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column group_id: no uuid_check CHECK: TiDB forbids CHECKs on columns of foreign key memberships_group_fk, which has a referential action, and the key limits the column to checked values [omitted]
-- column account_id: CHECK memberships_account_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `memberships` (
  `id` CHAR(36) NOT NULL,
  `group_id` CHAR(36) NOT NULL,
  `account_id` CHAR(36) NOT NULL,
  `role` VARCHAR(16) COLLATE utf8mb4_0900_bin NOT NULL,
  `previous_role` VARCHAR(16) COLLATE utf8mb4_0900_bin,
  `embedding` VECTOR(3),
  PRIMARY KEY (`id`),
  CONSTRAINT `memberships_pair_uq` UNIQUE (`group_id`, `account_id`),
  CONSTRAINT `memberships_account_id_uuid_ck` CHECK (`account_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `memberships_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `memberships_role_change_ck` CHECK (NOT (`previous_role` <=> `role`) OR `previous_role` <=> NULL),
  CONSTRAINT `memberships_account_fk` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`)
);

-- columns id, owner_id, parent_id: uuid as CHAR(36)
-- column name: COLLATE utf8mb4_0900_bin: trailing spaces count, as on PostgreSQL (exact_strings)
-- column deleted_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- foreign key groups_owner_fk: DEFERRABLE left out: TiDB checks foreign keys immediately [omitted]
-- foreign key groups_parent_fk: CASCADE within the table: TiDB refuses a statement that cascades through more than 14 levels of rows (error 3008); PostgreSQL has no such limit
-- index groups_deleted_idx: WHERE deleted_at IS NOT NULL AND name <> '' dropped: TiDB has no partial indexes, so the index covers all rows
-- index groups_live_name_uq: WHERE parent_id IS NOT NULL dropped: TiDB unique indexes allow many NULLs, so the plain unique index means the same
-- index groups_live_uq: raw statement from the model [override]
-- index groups_live_uq: comment left out: the raw statement is used as written (write COMMENT in it) [omitted]
-- column deleted_at: CHECK groups_deleted_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK groups_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column owner_id: CHECK groups_owner_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column parent_id: no uuid_check CHECK: TiDB forbids CHECKs on columns of foreign key groups_parent_fk, which has a referential action, and the key limits the column to checked values [omitted]
CREATE TABLE `groups` (
  `id` CHAR(36) NOT NULL,
  `owner_id` CHAR(36) NOT NULL,
  `parent_id` CHAR(36),
  `name` VARCHAR(100) COLLATE utf8mb4_0900_bin NOT NULL,
  `deleted_at` DATETIME(3),
  PRIMARY KEY (`id`),
  CONSTRAINT `groups_deleted_at_range_ck` CHECK (`deleted_at` >= '0001-01-01'),
  CONSTRAINT `groups_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `groups_owner_id_uuid_ck` CHECK (`owner_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `groups_owner_fk` FOREIGN KEY (`owner_id`) REFERENCES `memberships` (`id`),
  CONSTRAINT `groups_parent_fk` FOREIGN KEY (`parent_id`) REFERENCES `groups` (`id`) ON DELETE SET NULL ON UPDATE CASCADE,
  INDEX `groups_deleted_idx` (`deleted_at`),
  UNIQUE INDEX `groups_live_name_uq` (`name`, `parent_id`)
);
CREATE UNIQUE INDEX `groups_live_uq` ON `groups` (`owner_id`, (CASE WHEN `deleted_at` IS NULL THEN `name` END));

-- Foreign keys that close a cycle between tables, added once all exist.
ALTER TABLE `memberships` ADD CONSTRAINT `memberships_group_fk` FOREIGN KEY (`group_id`) REFERENCES `groups` (`id`) ON DELETE CASCADE;

-- raw active_accounts_view (from schema.hcl, not translated)
CREATE VIEW active_accounts AS SELECT id FROM accounts WHERE NOT disabled;
