-- A knowledge platform's PostgreSQL schema at version 42, as its team wrote
-- it migration by migration: unnamed constraints whose names PostgreSQL
-- makes up, composite tenant-scoped foreign keys, partial and expression
-- indexes, IS DISTINCT FROM, jsonb, tsvector, DEFERRABLE foreign keys.
-- testdata/pair_tidb.sql is the same application on TiDB, at the same version.

CREATE TABLE tenants (
  id uuid PRIMARY KEY,
  slug varchar(63) NOT NULL UNIQUE CHECK (slug ~ '^[a-z][a-z0-9-]*$'),
  name varchar(200) NOT NULL,
  settings jsonb NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE plans (
  code varchar(32) PRIMARY KEY,
  name varchar(100) NOT NULL,
  monthly_cents integer NOT NULL CHECK (monthly_cents >= 0),
  seats integer CHECK (seats >= 1 AND seats <= 10000)
);

CREATE TABLE users (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  email varchar(320) NOT NULL,
  display_name varchar(200),
  role varchar(16) NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'admin', 'member')),
  previous_role varchar(16),
  active boolean NOT NULL DEFAULT true,
  PRIMARY KEY (tenant_id, id),
  CHECK (previous_role IS DISTINCT FROM role)
);
CREATE UNIQUE INDEX users_email_key ON users (tenant_id, lower(email));
CREATE INDEX users_active_idx ON users (tenant_id) WHERE active;

CREATE TABLE workspaces (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  name varchar(100) NOT NULL,
  parent_id uuid,
  archived boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, parent_id) REFERENCES workspaces (tenant_id, id),
  CHECK (parent_id IS DISTINCT FROM id)
);
CREATE UNIQUE INDEX workspaces_live_name_key ON workspaces (tenant_id, parent_id, name) WHERE NOT archived;

CREATE TABLE workspace_members (
  tenant_id uuid NOT NULL,
  workspace_id uuid NOT NULL,
  user_id uuid NOT NULL,
  level smallint NOT NULL DEFAULT 1 CHECK (level >= 1 AND level <= 3),
  PRIMARY KEY (tenant_id, workspace_id, user_id),
  FOREIGN KEY (tenant_id, workspace_id) REFERENCES workspaces (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE folders (
  tenant_id uuid NOT NULL,
  id bigint NOT NULL,
  workspace_id uuid NOT NULL,
  name varchar(200) NOT NULL CHECK (char_length(name) >= 1),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, workspace_id) REFERENCES workspaces (tenant_id, id)
);

CREATE TABLE documents (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  folder_id bigint,
  title varchar(300) NOT NULL,
  status varchar(16) NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'review', 'published', 'archived')),
  body jsonb NOT NULL,
  search tsvector,
  word_count integer NOT NULL DEFAULT 0 CHECK (word_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, folder_id) REFERENCES folders (tenant_id, id),
  CHECK (updated_at >= created_at)
);
CREATE INDEX documents_search_idx ON documents USING gin (search);
CREATE INDEX documents_status_idx ON documents (tenant_id, status) WHERE status <> 'archived';
CREATE INDEX documents_title_idx ON documents (lower(title));
CREATE INDEX documents_published_idx ON documents (tenant_id, (CASE WHEN status = 'published' THEN 1 ELSE 0 END));

CREATE TABLE document_versions (
  tenant_id uuid NOT NULL,
  document_id uuid NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  author_id uuid NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, document_id, version),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, author_id) REFERENCES users (tenant_id, id)
);

CREATE TABLE sections (
  tenant_id uuid NOT NULL,
  document_id uuid NOT NULL,
  position integer NOT NULL,
  heading varchar(300),
  depth smallint NOT NULL DEFAULT 1 CHECK (depth >= 1 AND depth <= 6),
  PRIMARY KEY (tenant_id, document_id, position),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE tags (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id bigint NOT NULL,
  label varchar(64) NOT NULL CHECK (label ~ '^[a-z0-9-]+$'),
  color char(7) CHECK (color ~ '^#[0-9a-f]{6}$'),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, label)
);

CREATE TABLE document_tags (
  tenant_id uuid NOT NULL,
  document_id uuid NOT NULL,
  tag_id bigint NOT NULL,
  PRIMARY KEY (tenant_id, document_id, tag_id),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, tag_id) REFERENCES tags (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE comments (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  document_id uuid NOT NULL,
  author_id uuid NOT NULL,
  reply_to uuid,
  body text NOT NULL CHECK (char_length(body) >= 1),
  resolved boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, author_id) REFERENCES users (tenant_id, id),
  FOREIGN KEY (tenant_id, reply_to) REFERENCES comments (tenant_id, id) DEFERRABLE INITIALLY DEFERRED,
  CHECK (reply_to IS DISTINCT FROM id)
);
CREATE INDEX comments_open_idx ON comments (tenant_id, document_id) WHERE NOT resolved;

CREATE TABLE reactions (
  tenant_id uuid NOT NULL,
  comment_id uuid NOT NULL,
  user_id uuid NOT NULL,
  emoji varchar(32) NOT NULL,
  PRIMARY KEY (tenant_id, comment_id, user_id, emoji),
  FOREIGN KEY (tenant_id, comment_id) REFERENCES comments (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE attachments (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  document_id uuid NOT NULL,
  file_name varchar(255) NOT NULL,
  byte_size bigint NOT NULL CHECK (byte_size > 0),
  content_type varchar(100) NOT NULL CHECK (content_type LIKE '%/%'),
  sha256 char(64) NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, sha256),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id)
);

CREATE TABLE sources (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  kind varchar(16) NOT NULL CHECK (kind IN ('web', 'drive', 'wiki', 'upload')),
  url varchar(2000),
  config jsonb NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  CHECK ((kind = 'web' AND url IS NOT NULL) OR (kind <> 'web' AND url IS NULL))
);

CREATE TABLE source_credentials (
  tenant_id uuid NOT NULL,
  source_id uuid NOT NULL,
  credential_ref varchar(200),
  rotated_at timestamptz,
  PRIMARY KEY (tenant_id, source_id),
  FOREIGN KEY (tenant_id, source_id) REFERENCES sources (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX source_credentials_ref_key ON source_credentials (credential_ref) WHERE credential_ref IS NOT NULL;

CREATE TABLE ingest_jobs (
  tenant_id uuid NOT NULL,
  id bigint NOT NULL,
  source_id uuid NOT NULL,
  state varchar(16) NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0 AND attempts <= 10),
  error text,
  queued_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, source_id) REFERENCES sources (tenant_id, id),
  CHECK ((state = 'failed' AND error IS NOT NULL) OR (state <> 'failed' AND error IS NULL))
);
CREATE INDEX ingest_jobs_queue_idx ON ingest_jobs (queued_at) WHERE state = 'queued';

CREATE TABLE ingest_job_events (
  tenant_id uuid NOT NULL,
  job_id bigint NOT NULL,
  seq integer NOT NULL,
  message varchar(1000) NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id, seq),
  FOREIGN KEY (tenant_id, job_id) REFERENCES ingest_jobs (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE embedding_models (
  id varchar(64) PRIMARY KEY,
  provider varchar(32) NOT NULL,
  dimensions integer NOT NULL CHECK (dimensions >= 1 AND dimensions <= 16000),
  retired boolean NOT NULL DEFAULT false
);

CREATE TABLE chunks (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  document_id uuid NOT NULL,
  ordinal integer NOT NULL CHECK (ordinal >= 0),
  content text NOT NULL,
  tokens integer NOT NULL CHECK (tokens >= 1 AND tokens <= 8192),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, document_id, ordinal),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE chunk_embeddings (
  tenant_id uuid NOT NULL,
  chunk_id uuid NOT NULL,
  model_id varchar(64) NOT NULL REFERENCES embedding_models (id),
  model varchar(64),
  norm double precision NOT NULL CHECK (norm > 0),
  PRIMARY KEY (tenant_id, chunk_id, model_id),
  FOREIGN KEY (tenant_id, chunk_id) REFERENCES chunks (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX chunk_embeddings_model_key ON chunk_embeddings (tenant_id, chunk_id, COALESCE(model, ''));

CREATE TABLE search_queries (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id bigint NOT NULL,
  user_id uuid,
  query varchar(1000) NOT NULL,
  took_ms integer NOT NULL CHECK (took_ms >= 0),
  asked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
);
CREATE INDEX search_queries_asked_idx ON search_queries (tenant_id, asked_at DESC);

CREATE TABLE search_results (
  tenant_id uuid NOT NULL,
  query_id bigint NOT NULL,
  rank integer NOT NULL CHECK (rank >= 1),
  chunk_id uuid NOT NULL,
  score double precision NOT NULL CHECK (score >= 0 AND score <= 1),
  PRIMARY KEY (tenant_id, query_id, rank),
  FOREIGN KEY (tenant_id, query_id) REFERENCES search_queries (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, chunk_id) REFERENCES chunks (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE publications (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  document_id uuid NOT NULL,
  channel varchar(16) NOT NULL CHECK (channel IN ('site', 'feed', 'email')),
  slug varchar(200) NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, channel, slug),
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id)
);

CREATE TABLE publication_generations (
  tenant_id uuid NOT NULL,
  publication_id uuid NOT NULL,
  generation integer NOT NULL CHECK (generation >= 1),
  state varchar(16) NOT NULL CHECK (state IN ('building', 'live', 'retired')),
  built_at timestamptz,
  PRIMARY KEY (tenant_id, publication_id, generation),
  FOREIGN KEY (tenant_id, publication_id) REFERENCES publications (tenant_id, id) ON DELETE CASCADE,
  CHECK ((state = 'building' AND built_at IS NULL) OR (state <> 'building' AND built_at IS NOT NULL))
);

CREATE TABLE subscriptions (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
  plan_code varchar(32) NOT NULL REFERENCES plans (code),
  seats integer NOT NULL CHECK (seats >= 1),
  starts_on date NOT NULL,
  ends_on date,
  CHECK (ends_on IS NULL OR ends_on > starts_on)
);

CREATE TABLE invoices (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  number integer NOT NULL,
  issued_on date NOT NULL,
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  currency char(3) NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  paid boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, number)
);
CREATE INDEX invoices_unpaid_idx ON invoices (issued_on) WHERE NOT paid;

CREATE TABLE invoice_lines (
  tenant_id uuid NOT NULL,
  invoice_number integer NOT NULL,
  line smallint NOT NULL CHECK (line >= 1),
  description varchar(500) NOT NULL,
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_cents bigint NOT NULL,
  PRIMARY KEY (tenant_id, invoice_number, line),
  FOREIGN KEY (tenant_id, invoice_number) REFERENCES invoices (tenant_id, number) ON DELETE CASCADE
);

CREATE TABLE payments (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  invoice_number integer NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  method varchar(16) NOT NULL CHECK (method IN ('card', 'transfer', 'credit')),
  received_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, invoice_number) REFERENCES invoices (tenant_id, number)
);

CREATE TABLE api_tokens (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  token_hash char(64) NOT NULL UNIQUE,
  scopes jsonb NOT NULL CHECK (jsonb_typeof(scopes) = 'array'),
  expires_at timestamptz,
  revoked boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE webhooks (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id bigint NOT NULL,
  url varchar(2000) NOT NULL CHECK (url LIKE 'https://%'),
  events jsonb NOT NULL,
  secret varchar(128) NOT NULL,
  active boolean NOT NULL DEFAULT true,
  PRIMARY KEY (tenant_id, id)
);

CREATE TABLE webhook_deliveries (
  tenant_id uuid NOT NULL,
  webhook_id bigint NOT NULL,
  id bigint NOT NULL,
  status_code smallint CHECK (status_code >= 100 AND status_code <= 599),
  attempt smallint NOT NULL DEFAULT 1,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, webhook_id, id),
  FOREIGN KEY (tenant_id, webhook_id) REFERENCES webhooks (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE audit_events (
  tenant_id uuid NOT NULL,
  id bigint NOT NULL,
  actor_id uuid,
  action varchar(64) NOT NULL CHECK (action ~ '^[a-z_]+[.][a-z_]+$'),
  target varchar(200),
  detail jsonb,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id) REFERENCES tenants (id),
  FOREIGN KEY (tenant_id, actor_id) REFERENCES users (tenant_id, id)
);
CREATE INDEX audit_events_at_idx ON audit_events (tenant_id, at);

CREATE TABLE notifications (
  tenant_id uuid NOT NULL,
  id bigint NOT NULL,
  user_id uuid NOT NULL,
  kind varchar(32) NOT NULL,
  payload jsonb NOT NULL,
  read_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX notifications_unread_idx ON notifications (tenant_id, user_id) WHERE read_at IS NULL;

CREATE TABLE notification_prefs (
  tenant_id uuid NOT NULL,
  user_id uuid NOT NULL,
  kind varchar(32) NOT NULL,
  email boolean NOT NULL DEFAULT true,
  digest_hour smallint CHECK (digest_hour >= 0 AND digest_hour <= 23),
  PRIMARY KEY (tenant_id, user_id, kind),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE feature_flags (
  key varchar(64) PRIMARY KEY CHECK (key ~ '^[a-z][a-z0-9_]*$'),
  description varchar(500),
  default_on boolean NOT NULL DEFAULT false
);

CREATE TABLE flag_overrides (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  flag_key varchar(64) NOT NULL REFERENCES feature_flags (key) ON DELETE CASCADE,
  enabled boolean NOT NULL,
  PRIMARY KEY (tenant_id, flag_key)
);

CREATE TABLE labels (
  tenant_id uuid NOT NULL,
  workspace_id uuid NOT NULL,
  name varchar(64) NOT NULL,
  color char(7) NOT NULL DEFAULT '#888888',
  PRIMARY KEY (tenant_id, workspace_id, name),
  FOREIGN KEY (tenant_id, workspace_id) REFERENCES workspaces (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE settings (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  key varchar(64) NOT NULL,
  value jsonb NOT NULL,
  updated_by uuid,
  PRIMARY KEY (tenant_id, key),
  FOREIGN KEY (tenant_id, updated_by) REFERENCES users (tenant_id, id),
  CHECK (char_length(key) >= 1)
);

CREATE TABLE invitations (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  email varchar(320) NOT NULL CHECK (email LIKE '%@%'),
  invited_by uuid NOT NULL,
  accepted_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, invited_by) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX invitations_open_key ON invitations (tenant_id, lower(email)) WHERE accepted_at IS NULL;

CREATE TABLE exports (
  tenant_id uuid NOT NULL,
  id bigint NOT NULL,
  requested_by uuid NOT NULL,
  format varchar(8) NOT NULL CHECK (format IN ('pdf', 'html', 'md')),
  state varchar(16) NOT NULL DEFAULT 'pending',
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, requested_by) REFERENCES users (tenant_id, id),
  CHECK (state IN ('pending', 'done', 'failed'))
);
CREATE UNIQUE INDEX exports_pending_key ON exports (tenant_id, requested_by, format) WHERE state = 'pending';

CREATE TABLE document_links (
  tenant_id uuid NOT NULL,
  from_id uuid NOT NULL,
  to_id uuid NOT NULL,
  kind varchar(16) NOT NULL DEFAULT 'ref',
  PRIMARY KEY (tenant_id, from_id, to_id),
  FOREIGN KEY (tenant_id, from_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, to_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE
);

-- Migration 41 made deleting a document delete its review requests.
CREATE TABLE review_requests (
  tenant_id uuid NOT NULL,
  id bigint NOT NULL,
  document_id uuid NOT NULL,
  reviewer_id uuid NOT NULL,
  due_on date,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, reviewer_id) REFERENCES users (tenant_id, id),
  CHECK (due_on IS NULL OR due_on >= '2020-01-01')
);
ALTER TABLE review_requests ADD CONSTRAINT review_requests_document_fkey
  FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE;
ALTER TABLE review_requests ADD CHECK (document_id <> reviewer_id);
