-- atlas:txmode none

-- Validate constraint "knowledge_space_profile_backfills_completed_at_range_ck" of table "knowledge_space_profile_backfills"
-- hazard PG108 knowledge_space_profile_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_backfills" VALIDATE CONSTRAINT "knowledge_space_profile_backfills_completed_at_range_ck";
-- Validate constraint "knowledge_space_profile_backfills_created_at_range_ck" of table "knowledge_space_profile_backfills"
-- hazard PG108 knowledge_space_profile_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_backfills" VALIDATE CONSTRAINT "knowledge_space_profile_backfills_created_at_range_ck";
-- Validate constraint "knowledge_space_profile_backfills_heartbeat_at_range_ck" of table "knowledge_space_profile_backfills"
-- hazard PG108 knowledge_space_profile_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_backfills" VALIDATE CONSTRAINT "knowledge_space_profile_backfills_heartbeat_at_range_ck";
-- Validate constraint "knowledge_space_profile_backfills_lease_expires_at_range_ck" of table "knowledge_space_profile_backfills"
-- hazard PG108 knowledge_space_profile_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_backfills" VALIDATE CONSTRAINT "knowledge_space_profile_backfills_lease_expires_at_range_ck";
-- Validate constraint "knowledge_space_profile_backfills_updated_at_range_ck" of table "knowledge_space_profile_backfills"
-- hazard PG108 knowledge_space_profile_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_backfills" VALIDATE CONSTRAINT "knowledge_space_profile_backfills_updated_at_range_ck";
-- Validate constraint "knowledge_space_profile_heads_created_at_range_ck" of table "knowledge_space_profile_heads"
-- hazard PG108 knowledge_space_profile_heads: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_heads" VALIDATE CONSTRAINT "knowledge_space_profile_heads_created_at_range_ck";
-- Validate constraint "knowledge_space_profile_heads_updated_at_range_ck" of table "knowledge_space_profile_heads"
-- hazard PG108 knowledge_space_profile_heads: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_heads" VALIDATE CONSTRAINT "knowledge_space_profile_heads_updated_at_range_ck";
-- Validate constraint "knowledge_space_profile_revisions_activated_at_range_ck" of table "knowledge_space_profile_revisions"
-- hazard PG108 knowledge_space_profile_revisions: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_revisions" VALIDATE CONSTRAINT "knowledge_space_profile_revisions_activated_at_range_ck";
-- Validate constraint "knowledge_space_profile_revisions_created_at_range_ck" of table "knowledge_space_profile_revisions"
-- hazard PG108 knowledge_space_profile_revisions: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_revisions" VALIDATE CONSTRAINT "knowledge_space_profile_revisions_created_at_range_ck";
-- Validate constraint "knowledge_space_profile_revisions_failed_at_range_ck" of table "knowledge_space_profile_revisions"
-- hazard PG108 knowledge_space_profile_revisions: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_revisions" VALIDATE CONSTRAINT "knowledge_space_profile_revisions_failed_at_range_ck";
-- Validate constraint "knowledge_space_profile_revisions_superseded_at_range_ck" of table "knowledge_space_profile_revisions"
-- hazard PG108 knowledge_space_profile_revisions: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_revisions" VALIDATE CONSTRAINT "knowledge_space_profile_revisions_superseded_at_range_ck";
-- Validate constraint "knowledge_space_profile_revisions_updated_at_range_ck" of table "knowledge_space_profile_revisions"
-- hazard PG108 knowledge_space_profile_revisions: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_space_profile_revisions" VALIDATE CONSTRAINT "knowledge_space_profile_revisions_updated_at_range_ck";
-- Validate constraint "knowledge_spaces_created_at_range_ck" of table "knowledge_spaces"
-- hazard PG108 knowledge_spaces: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_spaces" VALIDATE CONSTRAINT "knowledge_spaces_created_at_range_ck";
-- Validate constraint "knowledge_spaces_deleting_at_range_ck" of table "knowledge_spaces"
-- hazard PG108 knowledge_spaces: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_spaces" VALIDATE CONSTRAINT "knowledge_spaces_deleting_at_range_ck";
-- Validate constraint "knowledge_spaces_updated_at_range_ck" of table "knowledge_spaces"
-- hazard PG108 knowledge_spaces: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "knowledge_spaces" VALIDATE CONSTRAINT "knowledge_spaces_updated_at_range_ck";
-- Validate constraint "source_credential_backfills_completed_at_range_ck" of table "source_credential_backfills"
-- hazard PG108 source_credential_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_credential_backfills" VALIDATE CONSTRAINT "source_credential_backfills_completed_at_range_ck";
-- Validate constraint "source_credential_backfills_created_at_range_ck" of table "source_credential_backfills"
-- hazard PG108 source_credential_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_credential_backfills" VALIDATE CONSTRAINT "source_credential_backfills_created_at_range_ck";
-- Validate constraint "source_credential_backfills_heartbeat_at_range_ck" of table "source_credential_backfills"
-- hazard PG108 source_credential_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_credential_backfills" VALIDATE CONSTRAINT "source_credential_backfills_heartbeat_at_range_ck";
-- Validate constraint "source_credential_backfills_lease_expires_at_range_ck" of table "source_credential_backfills"
-- hazard PG108 source_credential_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_credential_backfills" VALIDATE CONSTRAINT "source_credential_backfills_lease_expires_at_range_ck";
-- Validate constraint "source_credential_backfills_updated_at_range_ck" of table "source_credential_backfills"
-- hazard PG108 source_credential_backfills: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_credential_backfills" VALIDATE CONSTRAINT "source_credential_backfills_updated_at_range_ck";
-- Validate constraint "source_secret_lifecycle_refs_created_at_range_ck" of table "source_secret_lifecycle_refs"
-- hazard PG108 source_secret_lifecycle_refs: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_secret_lifecycle_refs" VALIDATE CONSTRAINT "source_secret_lifecycle_refs_created_at_range_ck";
-- Validate constraint "source_secret_lifecycle_refs_deleted_at_range_ck" of table "source_secret_lifecycle_refs"
-- hazard PG108 source_secret_lifecycle_refs: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_secret_lifecycle_refs" VALIDATE CONSTRAINT "source_secret_lifecycle_refs_deleted_at_range_ck";
-- Validate constraint "source_secret_lifecycle_refs_heartbeat_at_range_ck" of table "source_secret_lifecycle_refs"
-- hazard PG108 source_secret_lifecycle_refs: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_secret_lifecycle_refs" VALIDATE CONSTRAINT "source_secret_lifecycle_refs_heartbeat_at_range_ck";
-- Validate constraint "source_secret_lifecycle_refs_lease_expires_at_range_ck" of table "source_secret_lifecycle_refs"
-- hazard PG108 source_secret_lifecycle_refs: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_secret_lifecycle_refs" VALIDATE CONSTRAINT "source_secret_lifecycle_refs_lease_expires_at_range_ck";
-- Validate constraint "source_secret_lifecycle_refs_next_delete_at_range_ck" of table "source_secret_lifecycle_refs"
-- hazard PG108 source_secret_lifecycle_refs: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_secret_lifecycle_refs" VALIDATE CONSTRAINT "source_secret_lifecycle_refs_next_delete_at_range_ck";
-- Validate constraint "source_secret_lifecycle_refs_recover_after_range_ck" of table "source_secret_lifecycle_refs"
-- hazard PG108 source_secret_lifecycle_refs: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_secret_lifecycle_refs" VALIDATE CONSTRAINT "source_secret_lifecycle_refs_recover_after_range_ck";
-- Validate constraint "source_secret_lifecycle_refs_updated_at_range_ck" of table "source_secret_lifecycle_refs"
-- hazard PG108 source_secret_lifecycle_refs: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "source_secret_lifecycle_refs" VALIDATE CONSTRAINT "source_secret_lifecycle_refs_updated_at_range_ck";
-- Validate constraint "sources_created_at_range_ck" of table "sources"
-- hazard PG108 sources: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "sources" VALIDATE CONSTRAINT "sources_created_at_range_ck";
-- Validate constraint "sources_updated_at_range_ck" of table "sources"
-- hazard PG108 sources: SHARE UPDATE EXCLUSIVE lock for the whole scan (blocks no reads or writes), scans the table, can fail on existing rows
ALTER TABLE "sources" VALIDATE CONSTRAINT "sources_updated_at_range_ck";
