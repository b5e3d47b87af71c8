# The Knowledge Platform's schema, one model for PostgreSQL and TiDB.
# Edit this file, then run `schemagen generate`; see docs/language.md.

# The TiDB databases were created before exact_strings was the default, with
# TiDB's utf8mb4_bin, and their varchar keys (tenant_id in composite foreign
# keys) cannot change collation in place: TiDB refuses it for a column an
# index or a foreign key covers (8200, 3780). They keep it; 'a' and 'a ' are
# one key there (docs/semantics.md, "Value domains").
dialect "tidb" {
  exact_strings = false
}

table "knowledge_spaces" {
  column "id" {
    type = uuid
  }
  column "tenant_id" {
    type = varchar(255)
  }
  column "slug" {
    type = varchar(160)
  }
  column "name" {
    type = text
  }
  column "description" {
    type = text
    null = true
  }
  column "icon_ref" {
    type = varchar(72)
    null = true
  }
  column "revision" {
    type = int
  }
  column "lifecycle_state" {
    type = varchar(16)
  }
  column "deletion_job_id" {
    type = uuid
    null = true
  }
  column "deleting_at" {
    type = timestamp
    null = true
  }
  column "created_at" {
    type = timestamp
  }
  column "updated_at" {
    type = timestamp
  }
  primary_key {
    columns = ["id"]
  }
  # Composite foreign keys from tenant-scoped tables resolve against this.
  unique "knowledge_spaces_tenant_id_uq" {
    columns = ["tenant_id", "id"]
  }
  check "knowledge_spaces_tenant_id_length_ck" {
    expr = "char_length(tenant_id) <= 255"
  }
  check "knowledge_spaces_lifecycle_ck" {
    expr = <<-EXPR
      revision >= 1
      AND (
        (lifecycle_state = 'active' AND deletion_job_id IS NULL AND deleting_at IS NULL)
        OR (lifecycle_state = 'deleting' AND deletion_job_id IS NOT NULL AND deleting_at IS NOT NULL)
      )
    EXPR
  }
  check "knowledge_spaces_icon_ref_ck" {
    expr = "icon_ref IS NULL OR icon_ref ~ '^builtin:[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'"
  }
}

table "sources" {
  column "id" {
    type = uuid
  }
  column "knowledge_space_id" {
    type = uuid
  }
  column "type" {
    type = text
  }
  column "status" {
    type = varchar(16)
  }
  column "name" {
    type = text
  }
  column "uri" {
    type = text
  }
  column "metadata" {
    type = json
  }
  column "permission_scope" {
    type = json
  }
  column "version" {
    type = int
  }
  column "created_at" {
    type = timestamp
  }
  column "updated_at" {
    type = timestamp
  }
  # An opaque reference; secret bytes live in the configured SecretStore.
  column "credential_ref" {
    type = text
    null = true
    tidb {
      type = varchar(255)
    }
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "sources_knowledge_space_id_fkey" {
    columns     = ["knowledge_space_id"]
    ref_table   = "knowledge_spaces"
    ref_columns = ["id"]
    on_delete   = "cascade"
  }
  index "sources_space_status_idx" {
    columns = ["knowledge_space_id", "status"]
  }
  index "sources_credential_ref_uq" {
    unique  = true
    columns = ["credential_ref"]
    where   = "credential_ref IS NOT NULL"
  }
  index "sources_credential_backfill_discovery_idx" {
    columns = ["id"]
    where   = "credential_ref IS NULL"
  }
  index "sources_space_id_uq" {
    unique  = true
    columns = ["knowledge_space_id", "id"]
  }
}

# Profile snapshots are append-only. Runtime transitions only mutate lifecycle columns.
table "knowledge_space_profile_revisions" {
  column "id" {
    type = uuid
  }
  column "tenant_id" {
    type = varchar(255)
  }
  column "knowledge_space_id" {
    type = uuid
  }
  column "kind" {
    type = varchar(16)
  }
  column "revision" {
    type = int
  }
  column "state" {
    type = varchar(16)
  }
  column "snapshot" {
    type = json
  }
  column "snapshot_digest" {
    type = char(64)
  }
  column "capability_snapshot" {
    type = json
  }
  column "capability_snapshot_digest" {
    type = char(64)
  }
  column "plugin_id" {
    type = varchar(256)
  }
  column "provider" {
    type = varchar(256)
  }
  column "model" {
    type = varchar(256)
  }
  column "vector_space_id" {
    type = varchar(87)
    null = true
  }
  column "dimension" {
    type = int
    null = true
  }
  column "created_by_subject_id" {
    type = varchar(255)
  }
  column "failure_code" {
    type = varchar(64)
    null = true
  }
  column "failure_message" {
    type = text
    null = true
  }
  column "created_at" {
    type = timestamp
  }
  column "updated_at" {
    type = timestamp
  }
  column "activated_at" {
    type = timestamp
    null = true
  }
  column "superseded_at" {
    type = timestamp
    null = true
  }
  column "failed_at" {
    type = timestamp
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  unique "knowledge_space_profile_revisions_scope_revision_uq" {
    columns = ["tenant_id", "knowledge_space_id", "kind", "revision"]
  }
  unique "knowledge_space_profile_revisions_head_fk_uq" {
    columns = ["tenant_id", "knowledge_space_id", "kind", "id", "revision"]
  }
  unique "knowledge_space_profile_revisions_attempt_fk_uq" {
    columns = ["tenant_id", "knowledge_space_id", "kind", "id", "revision", "snapshot_digest"]
  }
  check "knowledge_space_profile_revisions_kind_ck" {
    expr = "kind IN ('embedding', 'retrieval')"
  }
  check "knowledge_space_profile_revisions_state_ck" {
    expr = "state IN ('candidate', 'active', 'superseded', 'failed')"
  }
  check "knowledge_space_profile_revisions_positive_ck" {
    expr = "revision >= 1 AND (dimension IS NULL OR dimension >= 1)"
  }
  check "knowledge_space_profile_revisions_vector_shape_ck" {
    expr = <<-EXPR
      (
        kind = 'embedding'
        AND vector_space_id IS NOT NULL
        AND dimension IS NOT NULL
        AND dimension >= 1
      )
      OR (kind = 'retrieval' AND vector_space_id IS NULL AND dimension IS NULL)
    EXPR
  }
  check "knowledge_space_profile_revisions_lifecycle_ck" {
    expr = <<-EXPR
      (
        state = 'candidate'
        AND activated_at IS NULL AND superseded_at IS NULL AND failed_at IS NULL
        AND failure_code IS NULL AND failure_message IS NULL
      )
      OR (
        state = 'active'
        AND activated_at IS NOT NULL AND superseded_at IS NULL AND failed_at IS NULL
        AND failure_code IS NULL AND failure_message IS NULL
      )
      OR (
        state = 'superseded'
        AND activated_at IS NOT NULL AND superseded_at IS NOT NULL AND failed_at IS NULL
        AND failure_code IS NULL AND failure_message IS NULL
      )
      OR (
        state = 'failed'
        AND activated_at IS NULL AND superseded_at IS NULL AND failed_at IS NOT NULL
        AND failure_code IS NOT NULL AND failure_message IS NOT NULL
      )
    EXPR
  }
  # Unnamed in the hand-written TiDB migration; named here so that both
  # dialects and every migration agree.
  foreign_key "knowledge_space_profile_revisions_space_fk" {
    columns     = ["tenant_id", "knowledge_space_id"]
    ref_table   = "knowledge_spaces"
    ref_columns = ["tenant_id", "id"]
    on_delete   = "cascade"
  }
  index "knowledge_space_profile_revisions_scope_state_idx" {
    columns = ["tenant_id", "knowledge_space_id", "kind", "state", "revision", "id"]
  }
}

table "knowledge_space_profile_heads" {
  column "id" {
    type = uuid
  }
  column "tenant_id" {
    type = varchar(255)
  }
  column "knowledge_space_id" {
    type = uuid
  }
  column "kind" {
    type = varchar(16)
  }
  column "profile_revision_id" {
    type = uuid
  }
  column "active_revision" {
    type = int
  }
  column "row_version" {
    type = int
  }
  column "created_at" {
    type = timestamp
  }
  column "updated_at" {
    type = timestamp
  }
  primary_key {
    columns = ["id"]
  }
  check "knowledge_space_profile_heads_kind_ck" {
    expr = "kind IN ('embedding', 'retrieval')"
  }
  check "knowledge_space_profile_heads_positive_ck" {
    expr = "active_revision >= 1 AND row_version >= 1"
  }
  foreign_key "knowledge_space_profile_heads_space_fk" {
    columns     = ["tenant_id", "knowledge_space_id"]
    ref_table   = "knowledge_spaces"
    ref_columns = ["tenant_id", "id"]
    on_delete   = "cascade"
  }
  foreign_key "knowledge_space_profile_heads_revision_fk" {
    columns     = ["tenant_id", "knowledge_space_id", "kind", "profile_revision_id", "active_revision"]
    ref_table   = "knowledge_space_profile_revisions"
    ref_columns = ["tenant_id", "knowledge_space_id", "kind", "id", "revision"]
  }
  index "knowledge_space_profile_heads_scope_uq" {
    unique  = true
    columns = ["tenant_id", "knowledge_space_id", "kind"]
  }
}

# The runtime discovers legacy manifest profiles in bounded keyset pages and
# records the exact source snapshot here. Lease-token plus row-version fences
# prevent stale workers from activating a profile after a manifest or deletion
# transition.
table "knowledge_space_profile_backfills" {
  column "id" {
    type = uuid
  }
  column "tenant_id" {
    type = varchar(255)
  }
  column "knowledge_space_id" {
    type = uuid
  }
  column "kind" {
    type = varchar(16)
  }
  column "source_manifest_version" {
    type = int
  }
  column "source_snapshot" {
    type = json
  }
  column "source_snapshot_digest" {
    type = char(64)
  }
  column "run_state" {
    type = varchar(16)
  }
  column "execution_attempts" {
    type = int
  }
  column "max_execution_attempts" {
    type = int
  }
  column "worker_id" {
    type = varchar(255)
    null = true
  }
  column "lease_token" {
    type = uuid
    null = true
  }
  column "lease_expires_at" {
    type = timestamp
    null = true
  }
  column "heartbeat_at" {
    type = timestamp
    null = true
  }
  column "row_version" {
    type = int
  }
  column "last_error_code" {
    type = varchar(64)
    null = true
  }
  column "last_error_message" {
    type = text
    null = true
  }
  column "created_at" {
    type = timestamp
  }
  column "updated_at" {
    type = timestamp
  }
  column "completed_at" {
    type = timestamp
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  check "knowledge_space_profile_backfills_kind_ck" {
    expr = "kind IN ('embedding', 'retrieval')"
  }
  check "knowledge_space_profile_backfills_state_ck" {
    expr = "run_state IN ('queued', 'running', 'succeeded', 'failed')"
  }
  check "knowledge_space_profile_backfills_positive_ck" {
    expr = <<-EXPR
      source_manifest_version >= 1
      AND execution_attempts >= 0
      AND max_execution_attempts >= 1
      AND execution_attempts <= max_execution_attempts
      AND row_version >= 1
    EXPR
  }
  check "knowledge_space_profile_backfills_lease_ck" {
    expr = <<-EXPR
      (
        run_state = 'running'
        AND worker_id IS NOT NULL AND lease_token IS NOT NULL
        AND lease_expires_at IS NOT NULL AND heartbeat_at IS NOT NULL
      )
      OR (
        run_state <> 'running'
        AND worker_id IS NULL AND lease_token IS NULL
        AND lease_expires_at IS NULL AND heartbeat_at IS NULL
      )
    EXPR
  }
  check "knowledge_space_profile_backfills_lifecycle_ck" {
    expr = <<-EXPR
      (
        run_state IN ('queued', 'running')
        AND completed_at IS NULL
        AND last_error_code IS NULL AND last_error_message IS NULL
      )
      OR (
        run_state = 'succeeded'
        AND completed_at IS NOT NULL
        AND last_error_code IS NULL AND last_error_message IS NULL
      )
      OR (
        run_state = 'failed'
        AND completed_at IS NOT NULL
        AND last_error_code IS NOT NULL AND last_error_message IS NOT NULL
      )
    EXPR
  }
  check "knowledge_space_profile_backfills_lease_token_ck" {
    expr = <<-EXPR
      lease_token IS NULL
      OR (
        lease_token ~ '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'
        AND lease_token <> '00000000-0000-0000-0000-000000000000'
      )
    EXPR
  }
  foreign_key "knowledge_space_profile_backfills_space_fk" {
    columns     = ["tenant_id", "knowledge_space_id"]
    ref_table   = "knowledge_spaces"
    ref_columns = ["tenant_id", "id"]
    on_delete   = "cascade"
  }
  index "knowledge_space_profile_backfills_source_uq" {
    unique  = true
    columns = ["tenant_id", "knowledge_space_id", "kind", "source_manifest_version", "source_snapshot_digest"]
  }
  index "knowledge_space_profile_backfills_claim_idx" {
    columns = ["run_state", "lease_expires_at", "updated_at", "id"]
  }
}

# Legacy metadata.credentials values are moved by a fenced, restart-safe
# application worker.
table "source_credential_backfills" {
  column "id" {
    type = uuid
  }
  column "tenant_id" {
    type = text
    tidb {
      type = varchar(255)
    }
  }
  column "knowledge_space_id" {
    type = uuid
  }
  column "source_id" {
    type = uuid
  }
  column "source_version" {
    type = int
  }
  column "candidate_credential_ref" {
    type = text
    tidb {
      type = varchar(255)
    }
  }
  column "secret_fingerprint" {
    type = char(64)
  }
  column "run_state" {
    type = text
    tidb {
      type = varchar(16)
    }
  }
  column "worker_id" {
    type = text
    null = true
  }
  column "lease_token" {
    type = uuid
    null = true
  }
  column "lease_expires_at" {
    type = timestamp
    null = true
  }
  column "heartbeat_at" {
    type = timestamp
    null = true
  }
  column "retry_count" {
    type = int
  }
  column "row_version" {
    type = int
  }
  column "last_error_code" {
    type = text
    null = true
  }
  column "last_error_message" {
    type = text
    null = true
  }
  column "created_at" {
    type = timestamp
  }
  column "updated_at" {
    type = timestamp
  }
  column "completed_at" {
    type = timestamp
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  check "source_credential_backfills_source_version_ck" {
    expr = "source_version >= 1"
  }
  check "source_credential_backfills_counts_ck" {
    expr = "retry_count >= 0 AND row_version >= 0"
  }
  check "source_credential_backfills_state_ck" {
    expr = "run_state IN ('queued', 'running', 'succeeded', 'failed')"
  }
  check "source_credential_backfills_lease_ck" {
    expr = <<-EXPR
      (
        run_state = 'running'
        AND worker_id IS NOT NULL
        AND lease_token IS NOT NULL
        AND lease_expires_at IS NOT NULL
        AND heartbeat_at IS NOT NULL
        AND completed_at IS NULL
      )
      OR (
        run_state <> 'running'
        AND worker_id IS NULL
        AND lease_token IS NULL
        AND lease_expires_at IS NULL
        AND heartbeat_at IS NULL
      )
    EXPR
  }
  check "source_credential_backfills_terminal_ck" {
    expr = <<-EXPR
      (run_state IN ('succeeded', 'failed') AND completed_at IS NOT NULL)
      OR (run_state IN ('queued', 'running') AND completed_at IS NULL)
    EXPR
  }
  # Named as PostgreSQL names the unnamed foreign keys of the hand-written migration.
  foreign_key "source_credential_backfills_tenant_id_knowledge_space_id_fkey" {
    columns     = ["tenant_id", "knowledge_space_id"]
    ref_table   = "knowledge_spaces"
    ref_columns = ["tenant_id", "id"]
    on_delete   = "cascade"
  }
  foreign_key "source_credential_backfills_knowledge_space_id_source_id_fkey" {
    columns     = ["knowledge_space_id", "source_id"]
    ref_table   = "sources"
    ref_columns = ["knowledge_space_id", "id"]
    on_delete   = "cascade"
  }
  index "source_credential_backfills_source_uq" {
    unique  = true
    columns = ["tenant_id", "knowledge_space_id", "source_id"]
  }
  index "source_credential_backfills_candidate_ref_uq" {
    unique  = true
    columns = ["candidate_credential_ref"]
  }
  index "source_credential_backfills_claim_idx" {
    columns = ["run_state", "lease_expires_at", "updated_at", "id"]
  }
  index "source_credential_backfills_scope_idx" {
    columns = ["tenant_id", "knowledge_space_id", "source_id", "id"]
  }
}

# This ledger intentionally has no foreign key to sources or spaces: credential
# erasure must survive resource deletion long enough for the cleanup worker to
# remove encrypted bytes from the SecretStore.
table "source_secret_lifecycle_refs" {
  column "id" {
    type = uuid
  }
  column "tenant_id" {
    type = text
    tidb {
      type = varchar(255)
    }
  }
  column "knowledge_space_id" {
    type = uuid
  }
  column "source_id" {
    type = uuid
  }
  column "credential_ref" {
    type = text
    tidb {
      type = varchar(255)
    }
  }
  column "operation_id" {
    type = text
    tidb {
      type = varchar(255)
    }
  }
  column "purpose" {
    type = text
  }
  column "state" {
    type = text
    tidb {
      type = varchar(16)
    }
  }
  column "source_version" {
    type = int
    null = true
  }
  column "recover_after" {
    type = timestamp
  }
  column "next_delete_at" {
    type = timestamp
    null = true
  }
  column "worker_id" {
    type = text
    null = true
  }
  column "lease_token" {
    type = uuid
    null = true
  }
  column "lease_expires_at" {
    type = timestamp
    null = true
  }
  column "heartbeat_at" {
    type = timestamp
    null = true
  }
  column "delete_attempts" {
    type = int
  }
  column "row_version" {
    type = int
  }
  column "last_error_code" {
    type = text
    null = true
  }
  column "last_error_message" {
    type = text
    null = true
  }
  column "created_at" {
    type = timestamp
  }
  column "updated_at" {
    type = timestamp
  }
  column "deleted_at" {
    type = timestamp
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  check "source_secret_lifecycle_refs_source_version_ck" {
    expr = "source_version IS NULL OR source_version >= 1"
  }
  check "source_secret_lifecycle_refs_purpose_ck" {
    expr = "purpose IN ('create', 'rotate', 'backfill')"
  }
  check "source_secret_lifecycle_refs_counts_ck" {
    expr = "delete_attempts >= 0 AND row_version >= 0"
  }
  check "source_secret_lifecycle_refs_state_ck" {
    expr = "state IN ('staged', 'candidate', 'active', 'retired', 'deleting', 'deleted')"
  }
  check "source_secret_lifecycle_refs_lease_ck" {
    expr = <<-EXPR
      (
        state = 'deleting'
        AND worker_id IS NOT NULL
        AND lease_token IS NOT NULL
        AND lease_expires_at IS NOT NULL
        AND heartbeat_at IS NOT NULL
        AND deleted_at IS NULL
      )
      OR (
        state <> 'deleting'
        AND worker_id IS NULL
        AND lease_token IS NULL
        AND lease_expires_at IS NULL
        AND heartbeat_at IS NULL
      )
    EXPR
  }
  check "source_secret_lifecycle_refs_terminal_ck" {
    expr = <<-EXPR
      (state = 'deleted' AND deleted_at IS NOT NULL)
      OR (state <> 'deleted' AND deleted_at IS NULL)
    EXPR
  }
  index "source_secret_lifecycle_refs_ref_uq" {
    unique  = true
    columns = ["credential_ref"]
  }
  index "source_secret_lifecycle_refs_operation_idx" {
    columns = ["operation_id", "state", "id"]
  }
  index "source_secret_lifecycle_refs_claim_idx" {
    columns = ["state", "next_delete_at", "lease_expires_at", "updated_at", "id"]
  }
  index "source_secret_lifecycle_refs_recovery_idx" {
    columns = ["state", "recover_after", "id"]
  }
  index "source_secret_lifecycle_refs_scope_idx" {
    columns = ["tenant_id", "knowledge_space_id", "source_id", "id"]
  }
}
