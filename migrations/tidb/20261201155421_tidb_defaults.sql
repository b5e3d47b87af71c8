-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_id_uuid_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_lease_token_uuid_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_lease_token_uuid_ck` CHECK (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_space_profile_heads" table
-- hazard TD104 knowledge_space_profile_heads: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_heads_id_uuid_ck: SELECT * FROM `knowledge_space_profile_heads` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_heads` ADD CONSTRAINT `knowledge_space_profile_heads_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_space_profile_heads" table
-- hazard TD104 knowledge_space_profile_heads: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_heads_profile_revision_id_uuid_ck: SELECT * FROM `knowledge_space_profile_heads` WHERE NOT (`profile_revision_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_heads` ADD CONSTRAINT `knowledge_space_profile_heads_profile_revision_id_uuid_ck` CHECK (`profile_revision_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_space_profile_revisions" table
-- hazard TD104 knowledge_space_profile_revisions: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_revisions_id_uuid_ck: SELECT * FROM `knowledge_space_profile_revisions` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_space_profile_revisions` ADD CONSTRAINT `knowledge_space_profile_revisions_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_spaces" table
-- hazard TD104 knowledge_spaces: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_spaces_deletion_job_id_uuid_ck: SELECT * FROM `knowledge_spaces` WHERE NOT (`deletion_job_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_spaces` ADD CONSTRAINT `knowledge_spaces_deletion_job_id_uuid_ck` CHECK (`deletion_job_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "knowledge_spaces" table
-- hazard TD104 knowledge_spaces: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_spaces_id_uuid_ck: SELECT * FROM `knowledge_spaces` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `knowledge_spaces` ADD CONSTRAINT `knowledge_spaces_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_id_uuid_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_lease_token_uuid_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_lease_token_uuid_ck` CHECK (`lease_token` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
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
-- hazard TD104 sources: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK sources_id_uuid_ck: SELECT * FROM `sources` WHERE NOT (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$') LIMIT 10
ALTER TABLE `sources` ADD CONSTRAINT `sources_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$');
