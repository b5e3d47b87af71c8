-- Create "knowledge_spaces" table
CREATE TABLE "knowledge_spaces" (
  "id" uuid NOT NULL,
  "tenant_id" character varying(255) NOT NULL,
  "slug" character varying(160) NOT NULL,
  "name" text NOT NULL,
  "description" text NULL,
  "icon_ref" character varying(72) NULL,
  "revision" integer NOT NULL,
  "lifecycle_state" character varying(16) NOT NULL,
  "deletion_job_id" uuid NULL,
  "deleting_at" timestamptz NULL,
  "created_at" timestamptz NOT NULL,
  "updated_at" timestamptz NOT NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "knowledge_spaces_tenant_id_uq" UNIQUE ("tenant_id", "id"),
  CONSTRAINT "knowledge_spaces_icon_ref_ck" CHECK ("icon_ref" IS NULL OR "icon_ref" ~ '^builtin:[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
  CONSTRAINT "knowledge_spaces_lifecycle_ck" CHECK ("revision" >= 1 AND (("lifecycle_state" = 'active' AND "deletion_job_id" IS NULL AND "deleting_at" IS NULL) OR ("lifecycle_state" = 'deleting' AND "deletion_job_id" IS NOT NULL AND "deleting_at" IS NOT NULL))),
  CONSTRAINT "knowledge_spaces_tenant_id_length_ck" CHECK (CHAR_LENGTH("tenant_id") <= 255)
);
-- Create "source_secret_lifecycle_refs" table
CREATE TABLE "source_secret_lifecycle_refs" (
  "id" uuid NOT NULL,
  "tenant_id" text NOT NULL,
  "knowledge_space_id" uuid NOT NULL,
  "source_id" uuid NOT NULL,
  "credential_ref" text NOT NULL,
  "operation_id" text NOT NULL,
  "purpose" text NOT NULL,
  "state" text NOT NULL,
  "source_version" integer NULL,
  "recover_after" timestamptz NOT NULL,
  "next_delete_at" timestamptz NULL,
  "worker_id" text NULL,
  "lease_token" uuid NULL,
  "lease_expires_at" timestamptz NULL,
  "heartbeat_at" timestamptz NULL,
  "delete_attempts" integer NOT NULL,
  "row_version" integer NOT NULL,
  "last_error_code" text NULL,
  "last_error_message" text NULL,
  "created_at" timestamptz NOT NULL,
  "updated_at" timestamptz NOT NULL,
  "deleted_at" timestamptz NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "source_secret_lifecycle_refs_counts_ck" CHECK ("delete_attempts" >= 0 AND "row_version" >= 0),
  CONSTRAINT "source_secret_lifecycle_refs_lease_ck" CHECK (("state" = 'deleting' AND "worker_id" IS NOT NULL AND "lease_token" IS NOT NULL AND "lease_expires_at" IS NOT NULL AND "heartbeat_at" IS NOT NULL AND "deleted_at" IS NULL) OR ("state" <> 'deleting' AND "worker_id" IS NULL AND "lease_token" IS NULL AND "lease_expires_at" IS NULL AND "heartbeat_at" IS NULL)),
  CONSTRAINT "source_secret_lifecycle_refs_purpose_ck" CHECK ("purpose" IN ('create', 'rotate', 'backfill')),
  CONSTRAINT "source_secret_lifecycle_refs_source_version_ck" CHECK ("source_version" IS NULL OR "source_version" >= 1),
  CONSTRAINT "source_secret_lifecycle_refs_state_ck" CHECK ("state" IN ('staged', 'candidate', 'active', 'retired', 'deleting', 'deleted')),
  CONSTRAINT "source_secret_lifecycle_refs_terminal_ck" CHECK (("state" = 'deleted' AND "deleted_at" IS NOT NULL) OR ("state" <> 'deleted' AND "deleted_at" IS NULL))
);
-- Create index "source_secret_lifecycle_refs_claim_idx" to table: "source_secret_lifecycle_refs"
CREATE INDEX "source_secret_lifecycle_refs_claim_idx" ON "source_secret_lifecycle_refs" ("state", "next_delete_at", "lease_expires_at", "updated_at", "id");
-- Create index "source_secret_lifecycle_refs_operation_idx" to table: "source_secret_lifecycle_refs"
CREATE INDEX "source_secret_lifecycle_refs_operation_idx" ON "source_secret_lifecycle_refs" ("operation_id", "state", "id");
-- Create index "source_secret_lifecycle_refs_recovery_idx" to table: "source_secret_lifecycle_refs"
CREATE INDEX "source_secret_lifecycle_refs_recovery_idx" ON "source_secret_lifecycle_refs" ("state", "recover_after", "id");
-- Create index "source_secret_lifecycle_refs_ref_uq" to table: "source_secret_lifecycle_refs"
CREATE UNIQUE INDEX "source_secret_lifecycle_refs_ref_uq" ON "source_secret_lifecycle_refs" ("credential_ref");
-- Create index "source_secret_lifecycle_refs_scope_idx" to table: "source_secret_lifecycle_refs"
CREATE INDEX "source_secret_lifecycle_refs_scope_idx" ON "source_secret_lifecycle_refs" ("tenant_id", "knowledge_space_id", "source_id", "id");
-- Create "knowledge_space_profile_backfills" table
CREATE TABLE "knowledge_space_profile_backfills" (
  "id" uuid NOT NULL,
  "tenant_id" character varying(255) NOT NULL,
  "knowledge_space_id" uuid NOT NULL,
  "kind" character varying(16) NOT NULL,
  "source_manifest_version" integer NOT NULL,
  "source_snapshot" jsonb NOT NULL,
  "source_snapshot_digest" character(64) NOT NULL,
  "run_state" character varying(16) NOT NULL,
  "execution_attempts" integer NOT NULL,
  "max_execution_attempts" integer NOT NULL,
  "worker_id" character varying(255) NULL,
  "lease_token" uuid NULL,
  "lease_expires_at" timestamptz NULL,
  "heartbeat_at" timestamptz NULL,
  "row_version" integer NOT NULL,
  "last_error_code" character varying(64) NULL,
  "last_error_message" text NULL,
  "created_at" timestamptz NOT NULL,
  "updated_at" timestamptz NOT NULL,
  "completed_at" timestamptz NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "knowledge_space_profile_backfills_space_fk" FOREIGN KEY ("tenant_id", "knowledge_space_id") REFERENCES "knowledge_spaces" ("tenant_id", "id") ON UPDATE NO ACTION ON DELETE CASCADE,
  CONSTRAINT "knowledge_space_profile_backfills_kind_ck" CHECK ("kind" IN ('embedding', 'retrieval')),
  CONSTRAINT "knowledge_space_profile_backfills_lease_ck" CHECK (("run_state" = 'running' AND "worker_id" IS NOT NULL AND "lease_token" IS NOT NULL AND "lease_expires_at" IS NOT NULL AND "heartbeat_at" IS NOT NULL) OR ("run_state" <> 'running' AND "worker_id" IS NULL AND "lease_token" IS NULL AND "lease_expires_at" IS NULL AND "heartbeat_at" IS NULL)),
  CONSTRAINT "knowledge_space_profile_backfills_lease_token_ck" CHECK ("lease_token" IS NULL OR ("lease_token"::text ~ '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$' AND "lease_token" <> '00000000-0000-0000-0000-000000000000')),
  CONSTRAINT "knowledge_space_profile_backfills_lifecycle_ck" CHECK (("run_state" IN ('queued', 'running') AND "completed_at" IS NULL AND "last_error_code" IS NULL AND "last_error_message" IS NULL) OR ("run_state" = 'succeeded' AND "completed_at" IS NOT NULL AND "last_error_code" IS NULL AND "last_error_message" IS NULL) OR ("run_state" = 'failed' AND "completed_at" IS NOT NULL AND "last_error_code" IS NOT NULL AND "last_error_message" IS NOT NULL)),
  CONSTRAINT "knowledge_space_profile_backfills_positive_ck" CHECK ("source_manifest_version" >= 1 AND "execution_attempts" >= 0 AND "max_execution_attempts" >= 1 AND "execution_attempts" <= "max_execution_attempts" AND "row_version" >= 1),
  CONSTRAINT "knowledge_space_profile_backfills_state_ck" CHECK ("run_state" IN ('queued', 'running', 'succeeded', 'failed'))
);
-- Create index "knowledge_space_profile_backfills_claim_idx" to table: "knowledge_space_profile_backfills"
CREATE INDEX "knowledge_space_profile_backfills_claim_idx" ON "knowledge_space_profile_backfills" ("run_state", "lease_expires_at", "updated_at", "id");
-- Create index "knowledge_space_profile_backfills_source_uq" to table: "knowledge_space_profile_backfills"
CREATE UNIQUE INDEX "knowledge_space_profile_backfills_source_uq" ON "knowledge_space_profile_backfills" ("tenant_id", "knowledge_space_id", "kind", "source_manifest_version", "source_snapshot_digest");
-- Create "knowledge_space_profile_revisions" table
CREATE TABLE "knowledge_space_profile_revisions" (
  "id" uuid NOT NULL,
  "tenant_id" character varying(255) NOT NULL,
  "knowledge_space_id" uuid NOT NULL,
  "kind" character varying(16) NOT NULL,
  "revision" integer NOT NULL,
  "state" character varying(16) NOT NULL,
  "snapshot" jsonb NOT NULL,
  "snapshot_digest" character(64) NOT NULL,
  "capability_snapshot" jsonb NOT NULL,
  "capability_snapshot_digest" character(64) NOT NULL,
  "plugin_id" character varying(256) NOT NULL,
  "provider" character varying(256) NOT NULL,
  "model" character varying(256) NOT NULL,
  "vector_space_id" character varying(87) NULL,
  "dimension" integer NULL,
  "created_by_subject_id" character varying(255) NOT NULL,
  "failure_code" character varying(64) NULL,
  "failure_message" text NULL,
  "created_at" timestamptz NOT NULL,
  "updated_at" timestamptz NOT NULL,
  "activated_at" timestamptz NULL,
  "superseded_at" timestamptz NULL,
  "failed_at" timestamptz NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "knowledge_space_profile_revisions_attempt_fk_uq" UNIQUE ("tenant_id", "knowledge_space_id", "kind", "id", "revision", "snapshot_digest"),
  CONSTRAINT "knowledge_space_profile_revisions_head_fk_uq" UNIQUE ("tenant_id", "knowledge_space_id", "kind", "id", "revision"),
  CONSTRAINT "knowledge_space_profile_revisions_scope_revision_uq" UNIQUE ("tenant_id", "knowledge_space_id", "kind", "revision"),
  CONSTRAINT "knowledge_space_profile_revisions_space_fk" FOREIGN KEY ("tenant_id", "knowledge_space_id") REFERENCES "knowledge_spaces" ("tenant_id", "id") ON UPDATE NO ACTION ON DELETE CASCADE,
  CONSTRAINT "knowledge_space_profile_revisions_kind_ck" CHECK ("kind" IN ('embedding', 'retrieval')),
  CONSTRAINT "knowledge_space_profile_revisions_lifecycle_ck" CHECK (("state" = 'candidate' AND "activated_at" IS NULL AND "superseded_at" IS NULL AND "failed_at" IS NULL AND "failure_code" IS NULL AND "failure_message" IS NULL) OR ("state" = 'active' AND "activated_at" IS NOT NULL AND "superseded_at" IS NULL AND "failed_at" IS NULL AND "failure_code" IS NULL AND "failure_message" IS NULL) OR ("state" = 'superseded' AND "activated_at" IS NOT NULL AND "superseded_at" IS NOT NULL AND "failed_at" IS NULL AND "failure_code" IS NULL AND "failure_message" IS NULL) OR ("state" = 'failed' AND "activated_at" IS NULL AND "superseded_at" IS NULL AND "failed_at" IS NOT NULL AND "failure_code" IS NOT NULL AND "failure_message" IS NOT NULL)),
  CONSTRAINT "knowledge_space_profile_revisions_positive_ck" CHECK ("revision" >= 1 AND ("dimension" IS NULL OR "dimension" >= 1)),
  CONSTRAINT "knowledge_space_profile_revisions_state_ck" CHECK ("state" IN ('candidate', 'active', 'superseded', 'failed')),
  CONSTRAINT "knowledge_space_profile_revisions_vector_shape_ck" CHECK (("kind" = 'embedding' AND "vector_space_id" IS NOT NULL AND "dimension" IS NOT NULL AND "dimension" >= 1) OR ("kind" = 'retrieval' AND "vector_space_id" IS NULL AND "dimension" IS NULL))
);
-- Create index "knowledge_space_profile_revisions_scope_state_idx" to table: "knowledge_space_profile_revisions"
CREATE INDEX "knowledge_space_profile_revisions_scope_state_idx" ON "knowledge_space_profile_revisions" ("tenant_id", "knowledge_space_id", "kind", "state", "revision", "id");
-- Create "knowledge_space_profile_heads" table
CREATE TABLE "knowledge_space_profile_heads" (
  "id" uuid NOT NULL,
  "tenant_id" character varying(255) NOT NULL,
  "knowledge_space_id" uuid NOT NULL,
  "kind" character varying(16) NOT NULL,
  "profile_revision_id" uuid NOT NULL,
  "active_revision" integer NOT NULL,
  "row_version" integer NOT NULL,
  "created_at" timestamptz NOT NULL,
  "updated_at" timestamptz NOT NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "knowledge_space_profile_heads_revision_fk" FOREIGN KEY ("tenant_id", "knowledge_space_id", "kind", "profile_revision_id", "active_revision") REFERENCES "knowledge_space_profile_revisions" ("tenant_id", "knowledge_space_id", "kind", "id", "revision") ON UPDATE NO ACTION ON DELETE NO ACTION,
  CONSTRAINT "knowledge_space_profile_heads_space_fk" FOREIGN KEY ("tenant_id", "knowledge_space_id") REFERENCES "knowledge_spaces" ("tenant_id", "id") ON UPDATE NO ACTION ON DELETE CASCADE,
  CONSTRAINT "knowledge_space_profile_heads_kind_ck" CHECK ("kind" IN ('embedding', 'retrieval')),
  CONSTRAINT "knowledge_space_profile_heads_positive_ck" CHECK ("active_revision" >= 1 AND "row_version" >= 1)
);
-- Create index "knowledge_space_profile_heads_scope_uq" to table: "knowledge_space_profile_heads"
CREATE UNIQUE INDEX "knowledge_space_profile_heads_scope_uq" ON "knowledge_space_profile_heads" ("tenant_id", "knowledge_space_id", "kind");
-- Create "sources" table
CREATE TABLE "sources" (
  "id" uuid NOT NULL,
  "knowledge_space_id" uuid NOT NULL,
  "type" text NOT NULL,
  "status" character varying(16) NOT NULL,
  "name" text NOT NULL,
  "uri" text NOT NULL,
  "metadata" jsonb NOT NULL,
  "permission_scope" jsonb NOT NULL,
  "version" integer NOT NULL,
  "created_at" timestamptz NOT NULL,
  "updated_at" timestamptz NOT NULL,
  "credential_ref" text NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "sources_knowledge_space_id_fkey" FOREIGN KEY ("knowledge_space_id") REFERENCES "knowledge_spaces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE
);
-- Create index "sources_credential_backfill_discovery_idx" to table: "sources"
CREATE INDEX "sources_credential_backfill_discovery_idx" ON "sources" ("id") WHERE "credential_ref" IS NULL;
-- Create index "sources_credential_ref_uq" to table: "sources"
CREATE UNIQUE INDEX "sources_credential_ref_uq" ON "sources" ("credential_ref") WHERE "credential_ref" IS NOT NULL;
-- Create index "sources_space_id_uq" to table: "sources"
CREATE UNIQUE INDEX "sources_space_id_uq" ON "sources" ("knowledge_space_id", "id");
-- Create index "sources_space_status_idx" to table: "sources"
CREATE INDEX "sources_space_status_idx" ON "sources" ("knowledge_space_id", "status");
-- Create "source_credential_backfills" table
CREATE TABLE "source_credential_backfills" (
  "id" uuid NOT NULL,
  "tenant_id" text NOT NULL,
  "knowledge_space_id" uuid NOT NULL,
  "source_id" uuid NOT NULL,
  "source_version" integer NOT NULL,
  "candidate_credential_ref" text NOT NULL,
  "secret_fingerprint" character(64) NOT NULL,
  "run_state" text NOT NULL,
  "worker_id" text NULL,
  "lease_token" uuid NULL,
  "lease_expires_at" timestamptz NULL,
  "heartbeat_at" timestamptz NULL,
  "retry_count" integer NOT NULL,
  "row_version" integer NOT NULL,
  "last_error_code" text NULL,
  "last_error_message" text NULL,
  "created_at" timestamptz NOT NULL,
  "updated_at" timestamptz NOT NULL,
  "completed_at" timestamptz NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "source_credential_backfills_knowledge_space_id_source_id_fkey" FOREIGN KEY ("knowledge_space_id", "source_id") REFERENCES "sources" ("knowledge_space_id", "id") ON UPDATE NO ACTION ON DELETE CASCADE,
  CONSTRAINT "source_credential_backfills_tenant_id_knowledge_space_id_fkey" FOREIGN KEY ("tenant_id", "knowledge_space_id") REFERENCES "knowledge_spaces" ("tenant_id", "id") ON UPDATE NO ACTION ON DELETE CASCADE,
  CONSTRAINT "source_credential_backfills_counts_ck" CHECK ("retry_count" >= 0 AND "row_version" >= 0),
  CONSTRAINT "source_credential_backfills_lease_ck" CHECK (("run_state" = 'running' AND "worker_id" IS NOT NULL AND "lease_token" IS NOT NULL AND "lease_expires_at" IS NOT NULL AND "heartbeat_at" IS NOT NULL AND "completed_at" IS NULL) OR ("run_state" <> 'running' AND "worker_id" IS NULL AND "lease_token" IS NULL AND "lease_expires_at" IS NULL AND "heartbeat_at" IS NULL)),
  CONSTRAINT "source_credential_backfills_source_version_ck" CHECK ("source_version" >= 1),
  CONSTRAINT "source_credential_backfills_state_ck" CHECK ("run_state" IN ('queued', 'running', 'succeeded', 'failed')),
  CONSTRAINT "source_credential_backfills_terminal_ck" CHECK (("run_state" IN ('succeeded', 'failed') AND "completed_at" IS NOT NULL) OR ("run_state" IN ('queued', 'running') AND "completed_at" IS NULL))
);
-- Create index "source_credential_backfills_candidate_ref_uq" to table: "source_credential_backfills"
CREATE UNIQUE INDEX "source_credential_backfills_candidate_ref_uq" ON "source_credential_backfills" ("candidate_credential_ref");
-- Create index "source_credential_backfills_claim_idx" to table: "source_credential_backfills"
CREATE INDEX "source_credential_backfills_claim_idx" ON "source_credential_backfills" ("run_state", "lease_expires_at", "updated_at", "id");
-- Create index "source_credential_backfills_scope_idx" to table: "source_credential_backfills"
CREATE INDEX "source_credential_backfills_scope_idx" ON "source_credential_backfills" ("tenant_id", "knowledge_space_id", "source_id", "id");
-- Create index "source_credential_backfills_source_uq" to table: "source_credential_backfills"
CREATE UNIQUE INDEX "source_credential_backfills_source_uq" ON "source_credential_backfills" ("tenant_id", "knowledge_space_id", "source_id");
