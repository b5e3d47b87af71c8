-- Generated from schema.hcl by schemagen for tidb. Do not edit:
-- change schema.hcl and run `schemagen generate`.
-- CHECK constraints need tidb_enable_check_constraint = ON; without it TiDB ignores them.

-- columns id, deletion_job_id: uuid as CHAR(36)
-- columns name, description: text as TEXT (at most 65,535 bytes on TiDB)
-- columns deleting_at, created_at, updated_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- check knowledge_spaces_icon_ref_ck: regex match as REGEXP
-- column deleting_at: CHECK knowledge_spaces_deleting_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column created_at: CHECK knowledge_spaces_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column updated_at: CHECK knowledge_spaces_updated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK knowledge_spaces_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column deletion_job_id: CHECK knowledge_spaces_deletion_job_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `knowledge_spaces` (
  `id` CHAR(36) NOT NULL,
  `tenant_id` VARCHAR(255) NOT NULL,
  `slug` VARCHAR(160) NOT NULL,
  `name` TEXT NOT NULL,
  `description` TEXT,
  `icon_ref` VARCHAR(72),
  `revision` INT NOT NULL,
  `lifecycle_state` VARCHAR(16) NOT NULL,
  `deletion_job_id` CHAR(36),
  `deleting_at` DATETIME(3),
  `created_at` DATETIME(3) NOT NULL,
  `updated_at` DATETIME(3) NOT NULL,
  PRIMARY KEY (`id`),
  CONSTRAINT `knowledge_spaces_tenant_id_uq` UNIQUE (`tenant_id`, `id`),
  CONSTRAINT `knowledge_spaces_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_spaces_deleting_at_range_ck` CHECK (`deleting_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_spaces_deletion_job_id_uuid_ck` CHECK (`deletion_job_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `knowledge_spaces_icon_ref_ck` CHECK (`icon_ref` IS NULL OR `icon_ref` REGEXP '^builtin:[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
  CONSTRAINT `knowledge_spaces_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `knowledge_spaces_lifecycle_ck` CHECK (`revision` >= 1 AND ((`lifecycle_state` = 'active' AND `deletion_job_id` IS NULL AND `deleting_at` IS NULL) OR (`lifecycle_state` = 'deleting' AND `deletion_job_id` IS NOT NULL AND `deleting_at` IS NOT NULL))),
  CONSTRAINT `knowledge_spaces_tenant_id_length_ck` CHECK (CHAR_LENGTH(`tenant_id`) <= 255),
  CONSTRAINT `knowledge_spaces_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01')
);

-- columns id, knowledge_space_id, lease_token: uuid as CHAR(36)
-- columns lease_expires_at, heartbeat_at, created_at, updated_at, completed_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- column last_error_message: text as TEXT (at most 65,535 bytes on TiDB)
-- check knowledge_space_profile_backfills_lease_token_ck: regex match as REGEXP
-- column lease_expires_at: CHECK knowledge_space_profile_backfills_lease_expires_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column heartbeat_at: CHECK knowledge_space_profile_backfills_heartbeat_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column created_at: CHECK knowledge_space_profile_backfills_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column updated_at: CHECK knowledge_space_profile_backfills_updated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column completed_at: CHECK knowledge_space_profile_backfills_completed_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK knowledge_space_profile_backfills_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column knowledge_space_id: no uuid_check CHECK: TiDB forbids CHECKs on columns of foreign key knowledge_space_profile_backfills_space_fk, which has a referential action, and the key limits the column to checked values [omitted]
-- column lease_token: CHECK knowledge_space_profile_backfills_lease_token_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `knowledge_space_profile_backfills` (
  `id` CHAR(36) NOT NULL,
  `tenant_id` VARCHAR(255) NOT NULL,
  `knowledge_space_id` CHAR(36) NOT NULL,
  `kind` VARCHAR(16) NOT NULL,
  `source_manifest_version` INT NOT NULL,
  `source_snapshot` JSON NOT NULL,
  `source_snapshot_digest` CHAR(64) NOT NULL,
  `run_state` VARCHAR(16) NOT NULL,
  `execution_attempts` INT NOT NULL,
  `max_execution_attempts` INT NOT NULL,
  `worker_id` VARCHAR(255),
  `lease_token` CHAR(36),
  `lease_expires_at` DATETIME(3),
  `heartbeat_at` DATETIME(3),
  `row_version` INT NOT NULL,
  `last_error_code` VARCHAR(64),
  `last_error_message` TEXT,
  `created_at` DATETIME(3) NOT NULL,
  `updated_at` DATETIME(3) NOT NULL,
  `completed_at` DATETIME(3),
  PRIMARY KEY (`id`),
  CONSTRAINT `knowledge_space_profile_backfills_completed_at_range_ck` CHECK (`completed_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_backfills_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_backfills_heartbeat_at_range_ck` CHECK (`heartbeat_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_backfills_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `knowledge_space_profile_backfills_kind_ck` CHECK (`kind` IN ('embedding', 'retrieval')),
  CONSTRAINT `knowledge_space_profile_backfills_lease_ck` CHECK ((`run_state` = 'running' AND `worker_id` IS NOT NULL AND `lease_token` IS NOT NULL AND `lease_expires_at` IS NOT NULL AND `heartbeat_at` IS NOT NULL) OR (`run_state` <> 'running' AND `worker_id` IS NULL AND `lease_token` IS NULL AND `lease_expires_at` IS NULL AND `heartbeat_at` IS NULL)),
  CONSTRAINT `knowledge_space_profile_backfills_lease_expires_at_range_ck` CHECK (`lease_expires_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_backfills_lease_token_ck` CHECK (`lease_token` IS NULL OR (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$' AND `lease_token` <> '00000000-0000-0000-0000-000000000000')),
  CONSTRAINT `knowledge_space_profile_backfills_lease_token_uuid_ck` CHECK (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `knowledge_space_profile_backfills_lifecycle_ck` CHECK ((`run_state` IN ('queued', 'running') AND `completed_at` IS NULL AND `last_error_code` IS NULL AND `last_error_message` IS NULL) OR (`run_state` = 'succeeded' AND `completed_at` IS NOT NULL AND `last_error_code` IS NULL AND `last_error_message` IS NULL) OR (`run_state` = 'failed' AND `completed_at` IS NOT NULL AND `last_error_code` IS NOT NULL AND `last_error_message` IS NOT NULL)),
  CONSTRAINT `knowledge_space_profile_backfills_positive_ck` CHECK (`source_manifest_version` >= 1 AND `execution_attempts` >= 0 AND `max_execution_attempts` >= 1 AND `execution_attempts` <= `max_execution_attempts` AND `row_version` >= 1),
  CONSTRAINT `knowledge_space_profile_backfills_state_ck` CHECK (`run_state` IN ('queued', 'running', 'succeeded', 'failed')),
  CONSTRAINT `knowledge_space_profile_backfills_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_backfills_space_fk` FOREIGN KEY (`tenant_id`, `knowledge_space_id`) REFERENCES `knowledge_spaces` (`tenant_id`, `id`) ON DELETE CASCADE,
  INDEX `knowledge_space_profile_backfills_claim_idx` (`run_state`, `lease_expires_at`, `updated_at`, `id`),
  UNIQUE INDEX `knowledge_space_profile_backfills_source_uq` (`tenant_id`, `knowledge_space_id`, `kind`, `source_manifest_version`, `source_snapshot_digest`)
);

-- columns id, knowledge_space_id: uuid as CHAR(36)
-- column failure_message: text as TEXT (at most 65,535 bytes on TiDB)
-- columns created_at, updated_at, activated_at, superseded_at, failed_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- column created_at: CHECK knowledge_space_profile_revisions_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column updated_at: CHECK knowledge_space_profile_revisions_updated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column activated_at: CHECK knowledge_space_profile_revisions_activated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column superseded_at: CHECK knowledge_space_profile_revisions_superseded_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column failed_at: CHECK knowledge_space_profile_revisions_failed_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK knowledge_space_profile_revisions_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column knowledge_space_id: no uuid_check CHECK: TiDB forbids CHECKs on columns of foreign key knowledge_space_profile_revisions_space_fk, which has a referential action, and the key limits the column to checked values [omitted]
CREATE TABLE `knowledge_space_profile_revisions` (
  `id` CHAR(36) NOT NULL,
  `tenant_id` VARCHAR(255) NOT NULL,
  `knowledge_space_id` CHAR(36) NOT NULL,
  `kind` VARCHAR(16) NOT NULL,
  `revision` INT NOT NULL,
  `state` VARCHAR(16) NOT NULL,
  `snapshot` JSON NOT NULL,
  `snapshot_digest` CHAR(64) NOT NULL,
  `capability_snapshot` JSON NOT NULL,
  `capability_snapshot_digest` CHAR(64) NOT NULL,
  `plugin_id` VARCHAR(256) NOT NULL,
  `provider` VARCHAR(256) NOT NULL,
  `model` VARCHAR(256) NOT NULL,
  `vector_space_id` VARCHAR(87),
  `dimension` INT,
  `created_by_subject_id` VARCHAR(255) NOT NULL,
  `failure_code` VARCHAR(64),
  `failure_message` TEXT,
  `created_at` DATETIME(3) NOT NULL,
  `updated_at` DATETIME(3) NOT NULL,
  `activated_at` DATETIME(3),
  `superseded_at` DATETIME(3),
  `failed_at` DATETIME(3),
  PRIMARY KEY (`id`),
  CONSTRAINT `knowledge_space_profile_revisions_attempt_fk_uq` UNIQUE (`tenant_id`, `knowledge_space_id`, `kind`, `id`, `revision`, `snapshot_digest`),
  CONSTRAINT `knowledge_space_profile_revisions_head_fk_uq` UNIQUE (`tenant_id`, `knowledge_space_id`, `kind`, `id`, `revision`),
  CONSTRAINT `knowledge_space_profile_revisions_scope_revision_uq` UNIQUE (`tenant_id`, `knowledge_space_id`, `kind`, `revision`),
  CONSTRAINT `knowledge_space_profile_revisions_activated_at_range_ck` CHECK (`activated_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_revisions_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_revisions_failed_at_range_ck` CHECK (`failed_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_revisions_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `knowledge_space_profile_revisions_kind_ck` CHECK (`kind` IN ('embedding', 'retrieval')),
  CONSTRAINT `knowledge_space_profile_revisions_lifecycle_ck` CHECK ((`state` = 'candidate' AND `activated_at` IS NULL AND `superseded_at` IS NULL AND `failed_at` IS NULL AND `failure_code` IS NULL AND `failure_message` IS NULL) OR (`state` = 'active' AND `activated_at` IS NOT NULL AND `superseded_at` IS NULL AND `failed_at` IS NULL AND `failure_code` IS NULL AND `failure_message` IS NULL) OR (`state` = 'superseded' AND `activated_at` IS NOT NULL AND `superseded_at` IS NOT NULL AND `failed_at` IS NULL AND `failure_code` IS NULL AND `failure_message` IS NULL) OR (`state` = 'failed' AND `activated_at` IS NULL AND `superseded_at` IS NULL AND `failed_at` IS NOT NULL AND `failure_code` IS NOT NULL AND `failure_message` IS NOT NULL)),
  CONSTRAINT `knowledge_space_profile_revisions_positive_ck` CHECK (`revision` >= 1 AND (`dimension` IS NULL OR `dimension` >= 1)),
  CONSTRAINT `knowledge_space_profile_revisions_state_ck` CHECK (`state` IN ('candidate', 'active', 'superseded', 'failed')),
  CONSTRAINT `knowledge_space_profile_revisions_superseded_at_range_ck` CHECK (`superseded_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_revisions_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_revisions_vector_shape_ck` CHECK ((`kind` = 'embedding' AND `vector_space_id` IS NOT NULL AND `dimension` IS NOT NULL AND `dimension` >= 1) OR (`kind` = 'retrieval' AND `vector_space_id` IS NULL AND `dimension` IS NULL)),
  CONSTRAINT `knowledge_space_profile_revisions_space_fk` FOREIGN KEY (`tenant_id`, `knowledge_space_id`) REFERENCES `knowledge_spaces` (`tenant_id`, `id`) ON DELETE CASCADE,
  INDEX `knowledge_space_profile_revisions_scope_state_idx` (`tenant_id`, `knowledge_space_id`, `kind`, `state`, `revision`, `id`)
);

-- columns id, knowledge_space_id, profile_revision_id: uuid as CHAR(36)
-- columns created_at, updated_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- column created_at: CHECK knowledge_space_profile_heads_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column updated_at: CHECK knowledge_space_profile_heads_updated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK knowledge_space_profile_heads_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column knowledge_space_id: no uuid_check CHECK: TiDB forbids CHECKs on columns of foreign key knowledge_space_profile_heads_space_fk, which has a referential action, and the key limits the column to checked values [omitted]
-- column profile_revision_id: CHECK knowledge_space_profile_heads_profile_revision_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `knowledge_space_profile_heads` (
  `id` CHAR(36) NOT NULL,
  `tenant_id` VARCHAR(255) NOT NULL,
  `knowledge_space_id` CHAR(36) NOT NULL,
  `kind` VARCHAR(16) NOT NULL,
  `profile_revision_id` CHAR(36) NOT NULL,
  `active_revision` INT NOT NULL,
  `row_version` INT NOT NULL,
  `created_at` DATETIME(3) NOT NULL,
  `updated_at` DATETIME(3) NOT NULL,
  PRIMARY KEY (`id`),
  CONSTRAINT `knowledge_space_profile_heads_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_heads_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `knowledge_space_profile_heads_kind_ck` CHECK (`kind` IN ('embedding', 'retrieval')),
  CONSTRAINT `knowledge_space_profile_heads_positive_ck` CHECK (`active_revision` >= 1 AND `row_version` >= 1),
  CONSTRAINT `knowledge_space_profile_heads_profile_revision_id_uuid_ck` CHECK (`profile_revision_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `knowledge_space_profile_heads_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01'),
  CONSTRAINT `knowledge_space_profile_heads_revision_fk` FOREIGN KEY (`tenant_id`, `knowledge_space_id`, `kind`, `profile_revision_id`, `active_revision`) REFERENCES `knowledge_space_profile_revisions` (`tenant_id`, `knowledge_space_id`, `kind`, `id`, `revision`),
  CONSTRAINT `knowledge_space_profile_heads_space_fk` FOREIGN KEY (`tenant_id`, `knowledge_space_id`) REFERENCES `knowledge_spaces` (`tenant_id`, `id`) ON DELETE CASCADE,
  UNIQUE INDEX `knowledge_space_profile_heads_scope_uq` (`tenant_id`, `knowledge_space_id`, `kind`)
);

-- columns id, knowledge_space_id: uuid as CHAR(36)
-- columns type, name, uri: text as TEXT (at most 65,535 bytes on TiDB)
-- columns created_at, updated_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- column credential_ref: type varchar(255) instead of text [override]
-- index sources_credential_backfill_discovery_idx: WHERE credential_ref IS NULL dropped: TiDB has no partial indexes, so the index covers all rows
-- index sources_credential_ref_uq: WHERE credential_ref IS NOT NULL dropped: TiDB unique indexes allow many NULLs, so the plain unique index means the same
-- column created_at: CHECK sources_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column updated_at: CHECK sources_updated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK sources_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column knowledge_space_id: no uuid_check CHECK: TiDB forbids CHECKs on columns of foreign key sources_knowledge_space_id_fkey, which has a referential action, and the key limits the column to checked values [omitted]
CREATE TABLE `sources` (
  `id` CHAR(36) NOT NULL,
  `knowledge_space_id` CHAR(36) NOT NULL,
  `type` TEXT NOT NULL,
  `status` VARCHAR(16) NOT NULL,
  `name` TEXT NOT NULL,
  `uri` TEXT NOT NULL,
  `metadata` JSON NOT NULL,
  `permission_scope` JSON NOT NULL,
  `version` INT NOT NULL,
  `created_at` DATETIME(3) NOT NULL,
  `updated_at` DATETIME(3) NOT NULL,
  `credential_ref` VARCHAR(255),
  PRIMARY KEY (`id`),
  CONSTRAINT `sources_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `sources_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `sources_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01'),
  CONSTRAINT `sources_knowledge_space_id_fkey` FOREIGN KEY (`knowledge_space_id`) REFERENCES `knowledge_spaces` (`id`) ON DELETE CASCADE,
  INDEX `sources_credential_backfill_discovery_idx` (`id`),
  UNIQUE INDEX `sources_credential_ref_uq` (`credential_ref`),
  UNIQUE INDEX `sources_space_id_uq` (`knowledge_space_id`, `id`),
  INDEX `sources_space_status_idx` (`knowledge_space_id`, `status`)
);

-- columns id, knowledge_space_id, source_id, lease_token: uuid as CHAR(36)
-- columns tenant_id, candidate_credential_ref: type varchar(255) instead of text [override]
-- column run_state: type varchar(16) instead of text [override]
-- columns worker_id, last_error_code, last_error_message: text as TEXT (at most 65,535 bytes on TiDB)
-- columns lease_expires_at, heartbeat_at, created_at, updated_at, completed_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- column lease_expires_at: CHECK source_credential_backfills_lease_expires_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column heartbeat_at: CHECK source_credential_backfills_heartbeat_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column created_at: CHECK source_credential_backfills_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column updated_at: CHECK source_credential_backfills_updated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column completed_at: CHECK source_credential_backfills_completed_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK source_credential_backfills_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- columns knowledge_space_id, source_id: no uuid_check CHECK: TiDB forbids CHECKs on columns of foreign key source_credential_backfills_knowledge_space_id_source_id_fkey, which has a referential action, and the key limits the column to checked values [omitted]
-- column lease_token: CHECK source_credential_backfills_lease_token_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `source_credential_backfills` (
  `id` CHAR(36) NOT NULL,
  `tenant_id` VARCHAR(255) NOT NULL,
  `knowledge_space_id` CHAR(36) NOT NULL,
  `source_id` CHAR(36) NOT NULL,
  `source_version` INT NOT NULL,
  `candidate_credential_ref` VARCHAR(255) NOT NULL,
  `secret_fingerprint` CHAR(64) NOT NULL,
  `run_state` VARCHAR(16) NOT NULL,
  `worker_id` TEXT,
  `lease_token` CHAR(36),
  `lease_expires_at` DATETIME(3),
  `heartbeat_at` DATETIME(3),
  `retry_count` INT NOT NULL,
  `row_version` INT NOT NULL,
  `last_error_code` TEXT,
  `last_error_message` TEXT,
  `created_at` DATETIME(3) NOT NULL,
  `updated_at` DATETIME(3) NOT NULL,
  `completed_at` DATETIME(3),
  PRIMARY KEY (`id`),
  CONSTRAINT `source_credential_backfills_completed_at_range_ck` CHECK (`completed_at` >= '0001-01-01'),
  CONSTRAINT `source_credential_backfills_counts_ck` CHECK (`retry_count` >= 0 AND `row_version` >= 0),
  CONSTRAINT `source_credential_backfills_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `source_credential_backfills_heartbeat_at_range_ck` CHECK (`heartbeat_at` >= '0001-01-01'),
  CONSTRAINT `source_credential_backfills_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `source_credential_backfills_lease_ck` CHECK ((`run_state` = 'running' AND `worker_id` IS NOT NULL AND `lease_token` IS NOT NULL AND `lease_expires_at` IS NOT NULL AND `heartbeat_at` IS NOT NULL AND `completed_at` IS NULL) OR (`run_state` <> 'running' AND `worker_id` IS NULL AND `lease_token` IS NULL AND `lease_expires_at` IS NULL AND `heartbeat_at` IS NULL)),
  CONSTRAINT `source_credential_backfills_lease_expires_at_range_ck` CHECK (`lease_expires_at` >= '0001-01-01'),
  CONSTRAINT `source_credential_backfills_lease_token_uuid_ck` CHECK (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `source_credential_backfills_source_version_ck` CHECK (`source_version` >= 1),
  CONSTRAINT `source_credential_backfills_state_ck` CHECK (`run_state` IN ('queued', 'running', 'succeeded', 'failed')),
  CONSTRAINT `source_credential_backfills_terminal_ck` CHECK ((`run_state` IN ('succeeded', 'failed') AND `completed_at` IS NOT NULL) OR (`run_state` IN ('queued', 'running') AND `completed_at` IS NULL)),
  CONSTRAINT `source_credential_backfills_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01'),
  CONSTRAINT `source_credential_backfills_knowledge_space_id_source_id_fkey` FOREIGN KEY (`knowledge_space_id`, `source_id`) REFERENCES `sources` (`knowledge_space_id`, `id`) ON DELETE CASCADE,
  CONSTRAINT `source_credential_backfills_tenant_id_knowledge_space_id_fkey` FOREIGN KEY (`tenant_id`, `knowledge_space_id`) REFERENCES `knowledge_spaces` (`tenant_id`, `id`) ON DELETE CASCADE,
  UNIQUE INDEX `source_credential_backfills_candidate_ref_uq` (`candidate_credential_ref`),
  INDEX `source_credential_backfills_claim_idx` (`run_state`, `lease_expires_at`, `updated_at`, `id`),
  INDEX `source_credential_backfills_scope_idx` (`tenant_id`, `knowledge_space_id`, `source_id`, `id`),
  UNIQUE INDEX `source_credential_backfills_source_uq` (`tenant_id`, `knowledge_space_id`, `source_id`)
);

-- columns id, knowledge_space_id, source_id, lease_token: uuid as CHAR(36)
-- columns tenant_id, credential_ref, operation_id: type varchar(255) instead of text [override]
-- columns purpose, worker_id, last_error_code, last_error_message: text as TEXT (at most 65,535 bytes on TiDB)
-- column state: type varchar(16) instead of text [override]
-- columns recover_after, next_delete_at, lease_expires_at, heartbeat_at, created_at, updated_at, deleted_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- column recover_after: CHECK source_secret_lifecycle_refs_recover_after_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column next_delete_at: CHECK source_secret_lifecycle_refs_next_delete_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column lease_expires_at: CHECK source_secret_lifecycle_refs_lease_expires_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column heartbeat_at: CHECK source_secret_lifecycle_refs_heartbeat_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column created_at: CHECK source_secret_lifecycle_refs_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column updated_at: CHECK source_secret_lifecycle_refs_updated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column deleted_at: CHECK source_secret_lifecycle_refs_deleted_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK source_secret_lifecycle_refs_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column knowledge_space_id: CHECK source_secret_lifecycle_refs_knowledge_space_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column source_id: CHECK source_secret_lifecycle_refs_source_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column lease_token: CHECK source_secret_lifecycle_refs_lease_token_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `source_secret_lifecycle_refs` (
  `id` CHAR(36) NOT NULL,
  `tenant_id` VARCHAR(255) NOT NULL,
  `knowledge_space_id` CHAR(36) NOT NULL,
  `source_id` CHAR(36) NOT NULL,
  `credential_ref` VARCHAR(255) NOT NULL,
  `operation_id` VARCHAR(255) NOT NULL,
  `purpose` TEXT NOT NULL,
  `state` VARCHAR(16) NOT NULL,
  `source_version` INT,
  `recover_after` DATETIME(3) NOT NULL,
  `next_delete_at` DATETIME(3),
  `worker_id` TEXT,
  `lease_token` CHAR(36),
  `lease_expires_at` DATETIME(3),
  `heartbeat_at` DATETIME(3),
  `delete_attempts` INT NOT NULL,
  `row_version` INT NOT NULL,
  `last_error_code` TEXT,
  `last_error_message` TEXT,
  `created_at` DATETIME(3) NOT NULL,
  `updated_at` DATETIME(3) NOT NULL,
  `deleted_at` DATETIME(3),
  PRIMARY KEY (`id`),
  CONSTRAINT `source_secret_lifecycle_refs_counts_ck` CHECK (`delete_attempts` >= 0 AND `row_version` >= 0),
  CONSTRAINT `source_secret_lifecycle_refs_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `source_secret_lifecycle_refs_deleted_at_range_ck` CHECK (`deleted_at` >= '0001-01-01'),
  CONSTRAINT `source_secret_lifecycle_refs_heartbeat_at_range_ck` CHECK (`heartbeat_at` >= '0001-01-01'),
  CONSTRAINT `source_secret_lifecycle_refs_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `source_secret_lifecycle_refs_knowledge_space_id_uuid_ck` CHECK (`knowledge_space_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `source_secret_lifecycle_refs_lease_ck` CHECK ((`state` = 'deleting' AND `worker_id` IS NOT NULL AND `lease_token` IS NOT NULL AND `lease_expires_at` IS NOT NULL AND `heartbeat_at` IS NOT NULL AND `deleted_at` IS NULL) OR (`state` <> 'deleting' AND `worker_id` IS NULL AND `lease_token` IS NULL AND `lease_expires_at` IS NULL AND `heartbeat_at` IS NULL)),
  CONSTRAINT `source_secret_lifecycle_refs_lease_expires_at_range_ck` CHECK (`lease_expires_at` >= '0001-01-01'),
  CONSTRAINT `source_secret_lifecycle_refs_lease_token_uuid_ck` CHECK (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `source_secret_lifecycle_refs_next_delete_at_range_ck` CHECK (`next_delete_at` >= '0001-01-01'),
  CONSTRAINT `source_secret_lifecycle_refs_purpose_ck` CHECK (`purpose` IN ('create', 'rotate', 'backfill')),
  CONSTRAINT `source_secret_lifecycle_refs_recover_after_range_ck` CHECK (`recover_after` >= '0001-01-01'),
  CONSTRAINT `source_secret_lifecycle_refs_source_id_uuid_ck` CHECK (`source_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `source_secret_lifecycle_refs_source_version_ck` CHECK (`source_version` IS NULL OR `source_version` >= 1),
  CONSTRAINT `source_secret_lifecycle_refs_state_ck` CHECK (`state` IN ('staged', 'candidate', 'active', 'retired', 'deleting', 'deleted')),
  CONSTRAINT `source_secret_lifecycle_refs_terminal_ck` CHECK ((`state` = 'deleted' AND `deleted_at` IS NOT NULL) OR (`state` <> 'deleted' AND `deleted_at` IS NULL)),
  CONSTRAINT `source_secret_lifecycle_refs_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01'),
  INDEX `source_secret_lifecycle_refs_claim_idx` (`state`, `next_delete_at`, `lease_expires_at`, `updated_at`, `id`),
  INDEX `source_secret_lifecycle_refs_operation_idx` (`operation_id`, `state`, `id`),
  INDEX `source_secret_lifecycle_refs_recovery_idx` (`state`, `recover_after`, `id`),
  UNIQUE INDEX `source_secret_lifecycle_refs_ref_uq` (`credential_ref`),
  INDEX `source_secret_lifecycle_refs_scope_idx` (`tenant_id`, `knowledge_space_id`, `source_id`, `id`)
);
