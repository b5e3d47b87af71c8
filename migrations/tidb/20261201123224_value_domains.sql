-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_completed_at_range_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`completed_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_completed_at_range_ck` CHECK (`completed_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_created_at_range_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`created_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_created_at_range_ck` CHECK (`created_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_heartbeat_at_range_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`heartbeat_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_heartbeat_at_range_ck` CHECK (`heartbeat_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_lease_expires_at_range_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`lease_expires_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_lease_expires_at_range_ck` CHECK (`lease_expires_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_backfills" table
-- hazard TD104 knowledge_space_profile_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_backfills_updated_at_range_ck: SELECT * FROM `knowledge_space_profile_backfills` WHERE NOT (`updated_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_backfills` ADD CONSTRAINT `knowledge_space_profile_backfills_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_heads" table
-- hazard TD104 knowledge_space_profile_heads: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_heads_created_at_range_ck: SELECT * FROM `knowledge_space_profile_heads` WHERE NOT (`created_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_heads` ADD CONSTRAINT `knowledge_space_profile_heads_created_at_range_ck` CHECK (`created_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_heads" table
-- hazard TD104 knowledge_space_profile_heads: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_heads_updated_at_range_ck: SELECT * FROM `knowledge_space_profile_heads` WHERE NOT (`updated_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_heads` ADD CONSTRAINT `knowledge_space_profile_heads_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_revisions" table
-- hazard TD104 knowledge_space_profile_revisions: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_revisions_activated_at_range_ck: SELECT * FROM `knowledge_space_profile_revisions` WHERE NOT (`activated_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_revisions` ADD CONSTRAINT `knowledge_space_profile_revisions_activated_at_range_ck` CHECK (`activated_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_revisions" table
-- hazard TD104 knowledge_space_profile_revisions: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_revisions_created_at_range_ck: SELECT * FROM `knowledge_space_profile_revisions` WHERE NOT (`created_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_revisions` ADD CONSTRAINT `knowledge_space_profile_revisions_created_at_range_ck` CHECK (`created_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_revisions" table
-- hazard TD104 knowledge_space_profile_revisions: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_revisions_failed_at_range_ck: SELECT * FROM `knowledge_space_profile_revisions` WHERE NOT (`failed_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_revisions` ADD CONSTRAINT `knowledge_space_profile_revisions_failed_at_range_ck` CHECK (`failed_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_revisions" table
-- hazard TD104 knowledge_space_profile_revisions: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_revisions_superseded_at_range_ck: SELECT * FROM `knowledge_space_profile_revisions` WHERE NOT (`superseded_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_revisions` ADD CONSTRAINT `knowledge_space_profile_revisions_superseded_at_range_ck` CHECK (`superseded_at` >= '0001-01-01');
-- Modify "knowledge_space_profile_revisions" table
-- hazard TD104 knowledge_space_profile_revisions: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_space_profile_revisions_updated_at_range_ck: SELECT * FROM `knowledge_space_profile_revisions` WHERE NOT (`updated_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_space_profile_revisions` ADD CONSTRAINT `knowledge_space_profile_revisions_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01');
-- Modify "knowledge_spaces" table
-- hazard TD104 knowledge_spaces: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_spaces_created_at_range_ck: SELECT * FROM `knowledge_spaces` WHERE NOT (`created_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_spaces` ADD CONSTRAINT `knowledge_spaces_created_at_range_ck` CHECK (`created_at` >= '0001-01-01');
-- Modify "knowledge_spaces" table
-- hazard TD104 knowledge_spaces: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_spaces_deleting_at_range_ck: SELECT * FROM `knowledge_spaces` WHERE NOT (`deleting_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_spaces` ADD CONSTRAINT `knowledge_spaces_deleting_at_range_ck` CHECK (`deleting_at` >= '0001-01-01');
-- Modify "knowledge_spaces" table
-- hazard TD104 knowledge_spaces: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK knowledge_spaces_updated_at_range_ck: SELECT * FROM `knowledge_spaces` WHERE NOT (`updated_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `knowledge_spaces` ADD CONSTRAINT `knowledge_spaces_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01');
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_completed_at_range_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`completed_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_completed_at_range_ck` CHECK (`completed_at` >= '0001-01-01');
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_created_at_range_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`created_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_created_at_range_ck` CHECK (`created_at` >= '0001-01-01');
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_heartbeat_at_range_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`heartbeat_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_heartbeat_at_range_ck` CHECK (`heartbeat_at` >= '0001-01-01');
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_lease_expires_at_range_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`lease_expires_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_lease_expires_at_range_ck` CHECK (`lease_expires_at` >= '0001-01-01');
-- Modify "source_credential_backfills" table
-- hazard TD104 source_credential_backfills: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_credential_backfills_updated_at_range_ck: SELECT * FROM `source_credential_backfills` WHERE NOT (`updated_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_credential_backfills` ADD CONSTRAINT `source_credential_backfills_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_created_at_range_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`created_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_created_at_range_ck` CHECK (`created_at` >= '0001-01-01');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_deleted_at_range_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`deleted_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_deleted_at_range_ck` CHECK (`deleted_at` >= '0001-01-01');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_heartbeat_at_range_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`heartbeat_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_heartbeat_at_range_ck` CHECK (`heartbeat_at` >= '0001-01-01');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_lease_expires_at_range_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`lease_expires_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_lease_expires_at_range_ck` CHECK (`lease_expires_at` >= '0001-01-01');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_next_delete_at_range_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`next_delete_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_next_delete_at_range_ck` CHECK (`next_delete_at` >= '0001-01-01');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_recover_after_range_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`recover_after` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_recover_after_range_ck` CHECK (`recover_after` >= '0001-01-01');
-- Modify "source_secret_lifecycle_refs" table
-- hazard TD104 source_secret_lifecycle_refs: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK source_secret_lifecycle_refs_updated_at_range_ck: SELECT * FROM `source_secret_lifecycle_refs` WHERE NOT (`updated_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `source_secret_lifecycle_refs` ADD CONSTRAINT `source_secret_lifecycle_refs_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01');
-- Modify "sources" table
-- hazard TD104 sources: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK sources_created_at_range_ck: SELECT * FROM `sources` WHERE NOT (`created_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `sources` ADD CONSTRAINT `sources_created_at_range_ck` CHECK (`created_at` >= '0001-01-01');
-- Modify "sources" table
-- hazard TD104 sources: scans the table, can fail on existing rows; online: reads and writes go on
-- schemagen:precheck rows breaking CHECK sources_updated_at_range_ck: SELECT * FROM `sources` WHERE NOT (`updated_at` >= '0001-01-01') LIMIT 10
ALTER TABLE `sources` ADD CONSTRAINT `sources_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01');
