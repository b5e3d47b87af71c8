# The tables that migration 0014_source_credential_refs of ../shared/seeds/ reads and fills,
# as the repository's schema.hcl declares them.
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
