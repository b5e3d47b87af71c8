-- Modify "knowledge_space_profile_backfills" table
ALTER TABLE `knowledge_space_profile_backfills` MODIFY COLUMN `tenant_id` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_backfills" table
ALTER TABLE `knowledge_space_profile_backfills` MODIFY COLUMN `kind` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_backfills" table
ALTER TABLE `knowledge_space_profile_backfills` MODIFY COLUMN `run_state` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_backfills" table
ALTER TABLE `knowledge_space_profile_backfills` MODIFY COLUMN `worker_id` varchar(255) NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_backfills" table
ALTER TABLE `knowledge_space_profile_backfills` MODIFY COLUMN `last_error_code` varchar(64) NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_backfills" table
ALTER TABLE `knowledge_space_profile_backfills` MODIFY COLUMN `last_error_message` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_id_uuid_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_lease_token_uuid_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_lease_token_uuid_ck` CHECK (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_space_profile_heads" table
ALTER TABLE `knowledge_space_profile_heads` MODIFY COLUMN `tenant_id` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_heads" table
ALTER TABLE `knowledge_space_profile_heads` MODIFY COLUMN `kind` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_heads" table
-- hazard TD104 knowledge_space_profile_heads: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_heads_id_uuid_ck: SELECT * FROM `knowledge_space_profile_heads` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_heads` ADD CONSTRAINT `knowledge_space_profile_heads_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_space_profile_heads" table
-- hazard TD104 knowledge_space_profile_heads: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_heads_profile_revision_id_uuid_ck: SELECT * FROM `knowledge_space_profile_heads` WHERE NOT (`profile_revision_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_heads` ADD CONSTRAINT `knowledge_space_profile_heads_profile_revision_id_uuid_ck` CHECK (`profile_revision_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `tenant_id` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `kind` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `state` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `plugin_id` varchar(256) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `provider` varchar(256) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `model` varchar(256) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `vector_space_id` varchar(87) NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `created_by_subject_id` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `failure_code` varchar(64) NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
ALTER TABLE `knowledge_space_profile_revisions` MODIFY COLUMN `failure_message` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_space_profile_revisions" table
-- hazard TD104 knowledge_space_profile_revisions: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_revisions_id_uuid_ck: SELECT * FROM `knowledge_space_profile_revisions` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_revisions` ADD CONSTRAINT `knowledge_space_profile_revisions_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_spaces" table
ALTER TABLE `knowledge_spaces` MODIFY COLUMN `tenant_id` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_spaces" table
ALTER TABLE `knowledge_spaces` MODIFY COLUMN `slug` varchar(160) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_spaces" table
ALTER TABLE `knowledge_spaces` MODIFY COLUMN `name` text NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_spaces" table
ALTER TABLE `knowledge_spaces` MODIFY COLUMN `description` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_spaces" table
ALTER TABLE `knowledge_spaces` MODIFY COLUMN `icon_ref` varchar(72) NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_spaces" table
ALTER TABLE `knowledge_spaces` MODIFY COLUMN `lifecycle_state` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "knowledge_spaces" table
-- hazard TD104 knowledge_spaces: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_spaces_deletion_job_id_uuid_ck: SELECT * FROM `knowledge_spaces` WHERE NOT (`deletion_job_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_spaces` ADD CONSTRAINT `knowledge_spaces_deletion_job_id_uuid_ck` CHECK (`deletion_job_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_spaces" table
-- hazard TD104 knowledge_spaces: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_spaces_id_uuid_ck: SELECT * FROM `knowledge_spaces` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_spaces` ADD CONSTRAINT `knowledge_spaces_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "source_credential_backfills" table
ALTER TABLE `source_credential_backfills` MODIFY COLUMN `tenant_id` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_credential_backfills" table
ALTER TABLE `source_credential_backfills` MODIFY COLUMN `candidate_credential_ref` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_credential_backfills" table
ALTER TABLE `source_credential_backfills` MODIFY COLUMN `run_state` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_credential_backfills" table
ALTER TABLE `source_credential_backfills` MODIFY COLUMN `worker_id` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_credential_backfills" table
ALTER TABLE `source_credential_backfills` MODIFY COLUMN `last_error_code` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_credential_backfills" table
ALTER TABLE `source_credential_backfills` MODIFY COLUMN `last_error_message` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_id_uuid_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_lease_token_uuid_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_lease_token_uuid_ck` CHECK (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "source_secret_lifecycle_refs" table
ALTER TABLE `source_secret_lifecycle_refs` MODIFY COLUMN `tenant_id` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_secret_lifecycle_refs" table
ALTER TABLE `source_secret_lifecycle_refs` MODIFY COLUMN `credential_ref` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_secret_lifecycle_refs" table
ALTER TABLE `source_secret_lifecycle_refs` MODIFY COLUMN `operation_id` varchar(255) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_secret_lifecycle_refs" table
ALTER TABLE `source_secret_lifecycle_refs` MODIFY COLUMN `purpose` text NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_secret_lifecycle_refs" table
ALTER TABLE `source_secret_lifecycle_refs` MODIFY COLUMN `state` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_secret_lifecycle_refs" table
ALTER TABLE `source_secret_lifecycle_refs` MODIFY COLUMN `worker_id` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_secret_lifecycle_refs" table
ALTER TABLE `source_secret_lifecycle_refs` MODIFY COLUMN `last_error_code` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_secret_lifecycle_refs" table
ALTER TABLE `source_secret_lifecycle_refs` MODIFY COLUMN `last_error_message` text NULL COLLATE utf8mb4_0900_bin;
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_id_uuid_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_knowledge_space_id_uuid_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`knowledge_space_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_knowledge_space_id_uuid_ck` CHECK (`knowledge_space_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_lease_token_uuid_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_lease_token_uuid_ck` CHECK (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_source_id_uuid_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`source_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_source_id_uuid_ck` CHECK (`source_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "sources" table
ALTER TABLE `sources` MODIFY COLUMN `type` text NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "sources" table
ALTER TABLE `sources` MODIFY COLUMN `status` varchar(16) NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "sources" table
ALTER TABLE `sources` MODIFY COLUMN `name` text NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "sources" table
ALTER TABLE `sources` MODIFY COLUMN `uri` text NOT NULL COLLATE utf8mb4_0900_bin;
-- Modify "sources" table
ALTER TABLE `sources` MODIFY COLUMN `credential_ref` varchar(255) NULL COLLATE utf8mb4_0900_bin;
-- Modify "sources" table
-- hazard TD104 sources: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK sources_id_uuid_ck: SELECT * FROM `sources` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `sources` ADD CONSTRAINT `sources_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
