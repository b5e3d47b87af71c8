-- The data part of 0014_source_credential_refs (../shared/seeds/), written once.
-- Rolling upgrades may replay this migration after credential refs were
-- already written: register those refs as active before application traffic
-- can rotate or revoke them. Source ids are stable UUIDs and are safe
-- deterministic lifecycle ids in this table's independent keyspace.
INSERT INTO source_secret_lifecycle_refs (
  id, tenant_id, knowledge_space_id, source_id, credential_ref, operation_id,
  purpose, state, source_version, recover_after, delete_attempts, row_version,
  created_at, updated_at
)
SELECT
  src.id, space.tenant_id, src.knowledge_space_id, src.id, src.credential_ref,
  'legacy-source:' || src.id::text || ':' || src.version::text,
  'rotate', 'active', src.version, src.updated_at, 0, 0, src.updated_at, src.updated_at
FROM sources src
INNER JOIN knowledge_spaces space ON space.id = src.knowledge_space_id
WHERE src.credential_ref IS NOT NULL
ON CONFLICT DO NOTHING;

-- ON CONFLICT makes crash replay safe, but it must never hide a ref/id
-- collision or a partial rolling-upgrade registry. Verify both directions
-- and abort before this migration is recorded.
ASSERT NOT EXISTS (
  SELECT 1
  FROM sources src
  INNER JOIN knowledge_spaces space ON space.id = src.knowledge_space_id
  LEFT JOIN source_secret_lifecycle_refs lifecycle
    ON lifecycle.credential_ref = src.credential_ref
  WHERE src.credential_ref IS NOT NULL
    AND (
      lifecycle.id IS NULL
      OR lifecycle.state <> 'active'
      OR lifecycle.tenant_id <> space.tenant_id
      OR lifecycle.knowledge_space_id <> src.knowledge_space_id
      OR lifecycle.source_id <> src.id
    )
) MESSAGE 'source credential_ref is missing a matching active lifecycle registry row';

ASSERT NOT EXISTS (
  SELECT 1
  FROM source_secret_lifecycle_refs lifecycle
  LEFT JOIN sources src
    ON src.id = lifecycle.source_id
    AND src.knowledge_space_id = lifecycle.knowledge_space_id
  LEFT JOIN knowledge_spaces space
    ON space.id = lifecycle.knowledge_space_id
  WHERE lifecycle.state = 'active'
    AND (
      src.id IS NULL
      OR src.credential_ref IS DISTINCT FROM lifecycle.credential_ref
      OR space.id IS NULL
      OR space.tenant_id IS DISTINCT FROM lifecycle.tenant_id
    )
) MESSAGE 'active source secret lifecycle row is orphaned or does not match its source';
