-- The knowledge platform of testdata/pair_postgres.sql on TiDB, at the same
-- version, as its team wrote it by hand in MySQL's dialect: unnamed
-- constraints (fk_1, t_chk_1, a unique index named after its first column),
-- CHAR(36) for uuid with a REGEXP CHECK of its shape, <=> for IS NOT
-- DISTINCT FROM, BETWEEN, foreign keys that TiDB indexes by itself, VIRTUAL
-- generated columns where PostgreSQL has an expression or partial index.

CREATE TABLE tenants (
  id CHAR(36) NOT NULL PRIMARY KEY,
  slug VARCHAR(63) NOT NULL UNIQUE,
  name VARCHAR(200) NOT NULL,
  settings JSON NOT NULL,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  CHECK (id REGEXP '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'),
  CHECK (slug REGEXP '^[a-z][a-z0-9-]*$'),
  CHECK (JSON_TYPE(settings) = 'OBJECT')
);

CREATE TABLE plans (
  code VARCHAR(32) NOT NULL PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  monthly_cents INT NOT NULL,
  seats INT,
  CHECK (monthly_cents >= 0),
  CHECK (seats BETWEEN 1 AND 10000)
);

CREATE TABLE users (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  email VARCHAR(320) NOT NULL,
  display_name VARCHAR(200),
  role VARCHAR(16) NOT NULL DEFAULT 'member',
  previous_role VARCHAR(16),
  active BOOLEAN NOT NULL DEFAULT TRUE,
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY users_email_uq (tenant_id, (lower(email))),
  CHECK (role IN ('owner', 'admin', 'member')),
  CHECK (NOT (previous_role <=> role)),
  CHECK (id REGEXP '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
);

CREATE TABLE workspaces (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  name VARCHAR(100) NOT NULL,
  parent_id CHAR(36),
  archived BOOLEAN NOT NULL DEFAULT FALSE,
  live_tenant_id CHAR(36) AS (CASE WHEN NOT archived THEN tenant_id END) VIRTUAL,
  live_parent_id CHAR(36) AS (case when not archived then parent_id end) VIRTUAL,
  live_name VARCHAR(100) AS (CASE WHEN NOT archived THEN name END) VIRTUAL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY (tenant_id, name),
  UNIQUE KEY workspaces_live_name_uq (live_tenant_id, live_parent_id, live_name),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, parent_id) REFERENCES workspaces (tenant_id, id),
  CHECK (NOT (parent_id <=> id))
);

CREATE TABLE workspace_members (
  tenant_id CHAR(36) NOT NULL,
  workspace_id CHAR(36) NOT NULL,
  user_id CHAR(36) NOT NULL,
  level SMALLINT NOT NULL DEFAULT 1,
  PRIMARY KEY (tenant_id, workspace_id, user_id),
  FOREIGN KEY (tenant_id, workspace_id) REFERENCES workspaces (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  CHECK (level BETWEEN 1 AND 3)
);

CREATE TABLE folders (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  workspace_id CHAR(36) NOT NULL,
  name VARCHAR(200) NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, workspace_id) REFERENCES workspaces (tenant_id, id),
  CHECK (CHAR_LENGTH(name) >= 1)
);

CREATE TABLE documents (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  folder_id BIGINT,
  title VARCHAR(300) NOT NULL,
  status VARCHAR(16) NOT NULL DEFAULT 'draft',
  body JSON NOT NULL,
  word_count INT NOT NULL DEFAULT 0,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  is_published BIGINT AS (CASE WHEN status = 'published' THEN 1 ELSE 0 END) VIRTUAL,
  PRIMARY KEY (tenant_id, id),
  KEY idx_documents_status (tenant_id, status),
  KEY documents_title_idx ((lower(title))),
  KEY documents_published (tenant_id, is_published),
  FOREIGN KEY (tenant_id, folder_id) REFERENCES folders (tenant_id, id),
  CHECK (status IN ('draft', 'review', 'published', 'archived')),
  CHECK (word_count >= 0),
  CHECK (updated_at >= created_at)
);

CREATE TABLE document_versions (
  tenant_id CHAR(36) NOT NULL,
  document_id CHAR(36) NOT NULL,
  version INT NOT NULL,
  author_id CHAR(36) NOT NULL,
  body JSON NOT NULL,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (tenant_id, document_id, version),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, author_id) REFERENCES users (tenant_id, id),
  CHECK (version >= 1)
);

CREATE TABLE sections (
  tenant_id CHAR(36) NOT NULL,
  document_id CHAR(36) NOT NULL,
  position INT NOT NULL,
  heading VARCHAR(300),
  depth SMALLINT NOT NULL DEFAULT 1,
  PRIMARY KEY (tenant_id, document_id, position),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  CHECK (depth BETWEEN 1 AND 6)
);

CREATE TABLE tags (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  label VARCHAR(64) NOT NULL,
  color CHAR(7),
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY (tenant_id, label),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  CHECK (label REGEXP '^[a-z0-9-]+$'),
  CHECK (color REGEXP '^#[0-9a-f]{6}$')
);

CREATE TABLE document_tags (
  tenant_id CHAR(36) NOT NULL,
  document_id CHAR(36) NOT NULL,
  tag_id BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, document_id, tag_id),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, tag_id) REFERENCES tags (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE comments (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  document_id CHAR(36) NOT NULL,
  author_id CHAR(36) NOT NULL,
  reply_to CHAR(36),
  body TEXT NOT NULL,
  resolved BOOLEAN NOT NULL DEFAULT FALSE,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, author_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, reply_to) REFERENCES comments (tenant_id, id),
  CHECK (CHAR_LENGTH(body) >= 1),
  CHECK (NOT (reply_to <=> id))
);

CREATE TABLE reactions (
  tenant_id CHAR(36) NOT NULL,
  comment_id CHAR(36) NOT NULL,
  user_id CHAR(36) NOT NULL,
  emoji VARCHAR(32) NOT NULL,
  PRIMARY KEY (tenant_id, comment_id, user_id, emoji),
  FOREIGN KEY (tenant_id, comment_id) REFERENCES comments (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE attachments (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  document_id CHAR(36) NOT NULL,
  file_name VARCHAR(255) NOT NULL,
  byte_size BIGINT NOT NULL,
  content_type VARCHAR(100) NOT NULL,
  sha256 CHAR(64) NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY (tenant_id, sha256),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id),
  CHECK (byte_size > 0),
  CHECK (content_type LIKE '%/%'),
  CHECK (sha256 REGEXP '^[0-9a-f]{64}$')
);

CREATE TABLE sources (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  kind VARCHAR(16) NOT NULL,
  url VARCHAR(2000),
  config JSON NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  CHECK (kind IN ('web', 'drive', 'wiki', 'upload')),
  CHECK ((kind = 'web' AND url IS NOT NULL) OR (kind <> 'web' AND url IS NULL))
);

CREATE TABLE source_credentials (
  tenant_id CHAR(36) NOT NULL,
  source_id CHAR(36) NOT NULL,
  credential_ref VARCHAR(200),
  rotated_at DATETIME(6),
  PRIMARY KEY (tenant_id, source_id),
  UNIQUE KEY (credential_ref),
  FOREIGN KEY (tenant_id, source_id) REFERENCES sources (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE ingest_jobs (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  source_id CHAR(36) NOT NULL,
  state VARCHAR(16) NOT NULL DEFAULT 'queued',
  attempts INT NOT NULL DEFAULT 0,
  error TEXT,
  queued_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (tenant_id, id),
  KEY (queued_at),
  FOREIGN KEY (tenant_id, source_id) REFERENCES sources (tenant_id, id),
  CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  CHECK (attempts BETWEEN 0 AND 10),
  CHECK ((state = 'failed' AND error IS NOT NULL) OR (state <> 'failed' AND error IS NULL))
);

CREATE TABLE ingest_job_events (
  tenant_id CHAR(36) NOT NULL,
  job_id BIGINT NOT NULL,
  seq INT NOT NULL,
  message VARCHAR(1000) NOT NULL,
  at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (tenant_id, job_id, seq),
  FOREIGN KEY (tenant_id, job_id) REFERENCES ingest_jobs (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE embedding_models (
  id VARCHAR(64) NOT NULL PRIMARY KEY,
  provider VARCHAR(32) NOT NULL,
  dimensions INT NOT NULL,
  retired BOOLEAN NOT NULL DEFAULT FALSE,
  CHECK (dimensions BETWEEN 1 AND 16000)
);

CREATE TABLE chunks (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  document_id CHAR(36) NOT NULL,
  ordinal INT NOT NULL,
  content TEXT NOT NULL,
  tokens INT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY (tenant_id, document_id, ordinal),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  CHECK (ordinal >= 0),
  CHECK (tokens BETWEEN 1 AND 8192)
);

CREATE TABLE chunk_embeddings (
  tenant_id CHAR(36) NOT NULL,
  chunk_id CHAR(36) NOT NULL,
  model_id VARCHAR(64) NOT NULL,
  model VARCHAR(64),
  norm DOUBLE NOT NULL,
  model_key VARCHAR(64) AS (COALESCE(model, '')) VIRTUAL,
  PRIMARY KEY (tenant_id, chunk_id, model_id),
  UNIQUE KEY chunk_embeddings_model_uq (tenant_id, chunk_id, model_key),
  FOREIGN KEY (model_id) REFERENCES embedding_models (id),
  FOREIGN KEY (tenant_id, chunk_id) REFERENCES chunks (tenant_id, id) ON DELETE CASCADE,
  CHECK (norm > 0)
);

CREATE TABLE search_queries (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  user_id CHAR(36),
  query VARCHAR(1000) NOT NULL,
  took_ms INT NOT NULL,
  asked_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (tenant_id, id),
  KEY search_queries_asked_idx (tenant_id, asked_at DESC),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id),
  CHECK (took_ms >= 0)
);

CREATE TABLE search_results (
  tenant_id CHAR(36) NOT NULL,
  query_id BIGINT NOT NULL,
  `rank` INT NOT NULL,
  chunk_id CHAR(36) NOT NULL,
  score DOUBLE NOT NULL,
  PRIMARY KEY (tenant_id, query_id, `rank`),
  FOREIGN KEY (tenant_id, query_id) REFERENCES search_queries (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, chunk_id) REFERENCES chunks (tenant_id, id) ON DELETE CASCADE,
  CHECK (`rank` >= 1),
  CHECK (score BETWEEN 0 AND 1)
);

CREATE TABLE publications (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  document_id CHAR(36) NOT NULL,
  channel VARCHAR(16) NOT NULL,
  slug VARCHAR(200) NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY (tenant_id, channel, slug),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id),
  CHECK (channel IN ('site', 'feed', 'email'))
);

CREATE TABLE publication_generations (
  tenant_id CHAR(36) NOT NULL,
  publication_id CHAR(36) NOT NULL,
  generation INT NOT NULL,
  state VARCHAR(16) NOT NULL,
  built_at DATETIME(6),
  PRIMARY KEY (tenant_id, publication_id, generation),
  FOREIGN KEY (tenant_id, publication_id) REFERENCES publications (tenant_id, id) ON DELETE CASCADE,
  CHECK (generation >= 1),
  CHECK (state IN ('building', 'live', 'retired')),
  CHECK ((state = 'building' AND built_at IS NULL) OR (state <> 'building' AND built_at IS NOT NULL))
);

CREATE TABLE subscriptions (
  tenant_id CHAR(36) NOT NULL PRIMARY KEY,
  plan_code VARCHAR(32) NOT NULL,
  seats INT NOT NULL,
  starts_on DATE NOT NULL,
  ends_on DATE,
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  FOREIGN KEY (plan_code) REFERENCES plans (code),
  CHECK (seats >= 1),
  CHECK (ends_on IS NULL OR ends_on > starts_on)
);

CREATE TABLE invoices (
  tenant_id CHAR(36) NOT NULL,
  number INT NOT NULL,
  issued_on DATE NOT NULL,
  total_cents BIGINT NOT NULL,
  currency CHAR(3) NOT NULL DEFAULT 'USD',
  paid BOOLEAN NOT NULL DEFAULT FALSE,
  PRIMARY KEY (tenant_id, number),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  CHECK (total_cents >= 0),
  CHECK (currency REGEXP '^[A-Z]{3}$')
);

CREATE TABLE invoice_lines (
  tenant_id CHAR(36) NOT NULL,
  invoice_number INT NOT NULL,
  line SMALLINT NOT NULL,
  description VARCHAR(500) NOT NULL,
  quantity INT NOT NULL,
  unit_cents BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, invoice_number, line),
  FOREIGN KEY (tenant_id, invoice_number) REFERENCES invoices (tenant_id, number) ON DELETE CASCADE,
  CHECK (line >= 1),
  CHECK (quantity > 0)
);

CREATE TABLE payments (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  invoice_number INT NOT NULL,
  amount_cents BIGINT NOT NULL,
  method VARCHAR(16) NOT NULL,
  received_at DATETIME(6) NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_number) REFERENCES invoices (tenant_id, number),
  CHECK (amount_cents > 0),
  CHECK (method IN ('card', 'transfer', 'credit'))
);

CREATE TABLE api_tokens (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  user_id CHAR(36) NOT NULL,
  token_hash CHAR(64) NOT NULL,
  scopes JSON NOT NULL,
  expires_at DATETIME(6),
  revoked BOOLEAN NOT NULL DEFAULT FALSE,
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY (token_hash),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  CHECK (JSON_TYPE(scopes) = 'ARRAY')
);

CREATE TABLE webhooks (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  url VARCHAR(2000) NOT NULL,
  events JSON NOT NULL,
  secret VARCHAR(128) NOT NULL,
  active BOOLEAN NOT NULL DEFAULT TRUE,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  CHECK (url LIKE 'https://%')
);

CREATE TABLE webhook_deliveries (
  tenant_id CHAR(36) NOT NULL,
  webhook_id BIGINT NOT NULL,
  id BIGINT NOT NULL,
  status_code SMALLINT,
  attempt SMALLINT NOT NULL DEFAULT 1,
  sent_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (tenant_id, webhook_id, id),
  FOREIGN KEY (tenant_id, webhook_id) REFERENCES webhooks (tenant_id, id) ON DELETE CASCADE,
  CHECK (status_code BETWEEN 100 AND 599)
);

CREATE TABLE audit_events (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  actor_id CHAR(36),
  action VARCHAR(64) NOT NULL,
  target VARCHAR(200),
  detail JSON,
  at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (tenant_id, id),
  KEY idx_audit_at (tenant_id, at),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  FOREIGN KEY (tenant_id, actor_id) REFERENCES users (tenant_id, id),
  CHECK (action REGEXP '^[a-z_]+[.][a-z_]+$')
);

CREATE TABLE notifications (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  user_id CHAR(36) NOT NULL,
  kind VARCHAR(32) NOT NULL,
  payload JSON NOT NULL,
  read_at DATETIME(6),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE notification_prefs (
  tenant_id CHAR(36) NOT NULL,
  user_id CHAR(36) NOT NULL,
  kind VARCHAR(32) NOT NULL,
  email BOOLEAN NOT NULL DEFAULT TRUE,
  digest_hour SMALLINT,
  PRIMARY KEY (tenant_id, user_id, kind),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  CHECK (digest_hour BETWEEN 0 AND 23)
);

CREATE TABLE feature_flags (
  `key` VARCHAR(64) NOT NULL PRIMARY KEY,
  description VARCHAR(500),
  default_on BOOLEAN NOT NULL DEFAULT FALSE,
  CHECK (`key` REGEXP '^[a-z][a-z0-9_]*$')
);

CREATE TABLE flag_overrides (
  tenant_id CHAR(36) NOT NULL,
  flag_key VARCHAR(64) NOT NULL,
  enabled BOOLEAN NOT NULL,
  PRIMARY KEY (tenant_id, flag_key),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
  FOREIGN KEY (flag_key) REFERENCES feature_flags (`key`) ON DELETE CASCADE
);

CREATE TABLE labels (
  tenant_id CHAR(36) NOT NULL,
  workspace_id CHAR(36) NOT NULL,
  name VARCHAR(64) NOT NULL,
  color CHAR(7) NOT NULL DEFAULT '#888888',
  PRIMARY KEY (tenant_id, workspace_id, name),
  FOREIGN KEY (tenant_id, workspace_id) REFERENCES workspaces (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE settings (
  tenant_id CHAR(36) NOT NULL,
  `key` VARCHAR(64) NOT NULL,
  value JSON NOT NULL,
  updated_by CHAR(36),
  PRIMARY KEY (tenant_id, `key`),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  FOREIGN KEY (tenant_id, updated_by) REFERENCES users (tenant_id, id),
  CHECK (CHAR_LENGTH(`key`) >= 1)
);

CREATE TABLE invitations (
  tenant_id CHAR(36) NOT NULL,
  id CHAR(36) NOT NULL,
  email VARCHAR(320) NOT NULL,
  invited_by CHAR(36) NOT NULL,
  accepted_at DATETIME(6),
  open_email VARCHAR(320) AS (CASE WHEN accepted_at IS NULL THEN lower(email) END) VIRTUAL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY invitations_open_uq (tenant_id, open_email),
  FOREIGN KEY (tenant_id, invited_by) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  CHECK (email LIKE '%@%')
);

CREATE TABLE exports (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  requested_by CHAR(36) NOT NULL,
  format VARCHAR(8) NOT NULL,
  state VARCHAR(16) NOT NULL DEFAULT 'pending',
  pending_format VARCHAR(8) AS (CASE WHEN state = 'pending' THEN format END) VIRTUAL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE KEY exports_pending_uq (tenant_id, requested_by, pending_format),
  FOREIGN KEY (tenant_id, requested_by) REFERENCES users (tenant_id, id),
  CHECK (format IN ('pdf', 'html', 'md')),
  CHECK (state IN ('pending', 'done', 'failed'))
);

CREATE TABLE document_links (
  tenant_id CHAR(36) NOT NULL,
  from_id CHAR(36) NOT NULL,
  to_id CHAR(36) NOT NULL,
  kind VARCHAR(16) NOT NULL DEFAULT 'ref',
  PRIMARY KEY (tenant_id, from_id, to_id),
  FOREIGN KEY (tenant_id, from_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, to_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE
);

-- Migration 41 made deleting a document delete its review requests; TiDB
-- takes the foreign key's action once the CHECK on its column exists.
CREATE TABLE review_requests (
  tenant_id CHAR(36) NOT NULL,
  id BIGINT NOT NULL,
  document_id CHAR(36) NOT NULL,
  reviewer_id CHAR(36) NOT NULL,
  due_on DATE,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, reviewer_id) REFERENCES users (tenant_id, id),
  CHECK (due_on IS NULL OR due_on >= '2020-01-01'),
  CHECK (document_id <> reviewer_id)
);
ALTER TABLE review_requests ADD CONSTRAINT review_requests_document_fkey
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE;
