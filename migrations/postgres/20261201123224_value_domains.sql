-- Give up instead of queueing every query of a table behind a strong lock for long
SET LOCAL lock_timeout = '5s';
-- Modify "knowledge_space_profile_backfills" table
-- hazard PG110 knowledge_space_profile_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_backfills" ADD CONSTRAINT "knowledge_space_profile_backfills_completed_at_range_ck" CHECK ("completed_at" >= '0001-01-01 00:00:00+00' AND "completed_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_backfills" table
-- hazard PG110 knowledge_space_profile_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_backfills" ADD CONSTRAINT "knowledge_space_profile_backfills_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_backfills" table
-- hazard PG110 knowledge_space_profile_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_backfills" ADD CONSTRAINT "knowledge_space_profile_backfills_heartbeat_at_range_ck" CHECK ("heartbeat_at" >= '0001-01-01 00:00:00+00' AND "heartbeat_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_backfills" table
-- hazard PG110 knowledge_space_profile_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_backfills" ADD CONSTRAINT "knowledge_space_profile_backfills_lease_expires_at_range_ck" CHECK ("lease_expires_at" >= '0001-01-01 00:00:00+00' AND "lease_expires_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_backfills" table
-- hazard PG110 knowledge_space_profile_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_backfills" ADD CONSTRAINT "knowledge_space_profile_backfills_updated_at_range_ck" CHECK ("updated_at" >= '0001-01-01 00:00:00+00' AND "updated_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_heads" table
-- hazard PG110 knowledge_space_profile_heads: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_heads" ADD CONSTRAINT "knowledge_space_profile_heads_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_heads" table
-- hazard PG110 knowledge_space_profile_heads: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_heads" ADD CONSTRAINT "knowledge_space_profile_heads_updated_at_range_ck" CHECK ("updated_at" >= '0001-01-01 00:00:00+00' AND "updated_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_revisions" table
-- hazard PG110 knowledge_space_profile_revisions: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_revisions" ADD CONSTRAINT "knowledge_space_profile_revisions_activated_at_range_ck" CHECK ("activated_at" >= '0001-01-01 00:00:00+00' AND "activated_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_revisions" table
-- hazard PG110 knowledge_space_profile_revisions: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_revisions" ADD CONSTRAINT "knowledge_space_profile_revisions_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_revisions" table
-- hazard PG110 knowledge_space_profile_revisions: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_revisions" ADD CONSTRAINT "knowledge_space_profile_revisions_failed_at_range_ck" CHECK ("failed_at" >= '0001-01-01 00:00:00+00' AND "failed_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_revisions" table
-- hazard PG110 knowledge_space_profile_revisions: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_revisions" ADD CONSTRAINT "knowledge_space_profile_revisions_superseded_at_range_ck" CHECK ("superseded_at" >= '0001-01-01 00:00:00+00' AND "superseded_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_space_profile_revisions" table
-- hazard PG110 knowledge_space_profile_revisions: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_space_profile_revisions" ADD CONSTRAINT "knowledge_space_profile_revisions_updated_at_range_ck" CHECK ("updated_at" >= '0001-01-01 00:00:00+00' AND "updated_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_spaces" table
-- hazard PG110 knowledge_spaces: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_spaces" ADD CONSTRAINT "knowledge_spaces_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_spaces" table
-- hazard PG110 knowledge_spaces: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_spaces" ADD CONSTRAINT "knowledge_spaces_deleting_at_range_ck" CHECK ("deleting_at" >= '0001-01-01 00:00:00+00' AND "deleting_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "knowledge_spaces" table
-- hazard PG110 knowledge_spaces: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "knowledge_spaces" ADD CONSTRAINT "knowledge_spaces_updated_at_range_ck" CHECK ("updated_at" >= '0001-01-01 00:00:00+00' AND "updated_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_credential_backfills" table
-- hazard PG110 source_credential_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_credential_backfills" ADD CONSTRAINT "source_credential_backfills_completed_at_range_ck" CHECK ("completed_at" >= '0001-01-01 00:00:00+00' AND "completed_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_credential_backfills" table
-- hazard PG110 source_credential_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_credential_backfills" ADD CONSTRAINT "source_credential_backfills_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_credential_backfills" table
-- hazard PG110 source_credential_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_credential_backfills" ADD CONSTRAINT "source_credential_backfills_heartbeat_at_range_ck" CHECK ("heartbeat_at" >= '0001-01-01 00:00:00+00' AND "heartbeat_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_credential_backfills" table
-- hazard PG110 source_credential_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_credential_backfills" ADD CONSTRAINT "source_credential_backfills_lease_expires_at_range_ck" CHECK ("lease_expires_at" >= '0001-01-01 00:00:00+00' AND "lease_expires_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_credential_backfills" table
-- hazard PG110 source_credential_backfills: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_credential_backfills" ADD CONSTRAINT "source_credential_backfills_updated_at_range_ck" CHECK ("updated_at" >= '0001-01-01 00:00:00+00' AND "updated_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_secret_lifecycle_refs" table
-- hazard PG110 source_secret_lifecycle_refs: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_secret_lifecycle_refs" ADD CONSTRAINT "source_secret_lifecycle_refs_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_secret_lifecycle_refs" table
-- hazard PG110 source_secret_lifecycle_refs: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_secret_lifecycle_refs" ADD CONSTRAINT "source_secret_lifecycle_refs_deleted_at_range_ck" CHECK ("deleted_at" >= '0001-01-01 00:00:00+00' AND "deleted_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_secret_lifecycle_refs" table
-- hazard PG110 source_secret_lifecycle_refs: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_secret_lifecycle_refs" ADD CONSTRAINT "source_secret_lifecycle_refs_heartbeat_at_range_ck" CHECK ("heartbeat_at" >= '0001-01-01 00:00:00+00' AND "heartbeat_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_secret_lifecycle_refs" table
-- hazard PG110 source_secret_lifecycle_refs: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_secret_lifecycle_refs" ADD CONSTRAINT "source_secret_lifecycle_refs_lease_expires_at_range_ck" CHECK ("lease_expires_at" >= '0001-01-01 00:00:00+00' AND "lease_expires_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_secret_lifecycle_refs" table
-- hazard PG110 source_secret_lifecycle_refs: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_secret_lifecycle_refs" ADD CONSTRAINT "source_secret_lifecycle_refs_next_delete_at_range_ck" CHECK ("next_delete_at" >= '0001-01-01 00:00:00+00' AND "next_delete_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_secret_lifecycle_refs" table
-- hazard PG110 source_secret_lifecycle_refs: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_secret_lifecycle_refs" ADD CONSTRAINT "source_secret_lifecycle_refs_recover_after_range_ck" CHECK ("recover_after" >= '0001-01-01 00:00:00+00' AND "recover_after" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "source_secret_lifecycle_refs" table
-- hazard PG110 source_secret_lifecycle_refs: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "source_secret_lifecycle_refs" ADD CONSTRAINT "source_secret_lifecycle_refs_updated_at_range_ck" CHECK ("updated_at" >= '0001-01-01 00:00:00+00' AND "updated_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "sources" table
-- hazard PG110 sources: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "sources" ADD CONSTRAINT "sources_created_at_range_ck" CHECK ("created_at" >= '0001-01-01 00:00:00+00' AND "created_at" < '10000-01-01 00:00:00+00') NOT VALID;
-- Modify "sources" table
-- hazard PG110 sources: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)
ALTER TABLE "sources" ADD CONSTRAINT "sources_updated_at_range_ck" CHECK ("updated_at" >= '0001-01-01 00:00:00+00' AND "updated_at" < '10000-01-01 00:00:00+00') NOT VALID;
