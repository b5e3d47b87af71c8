-- A legacy PostgreSQL database, written by hand over the years: serial ids,
-- PostgreSQL's own types, a sequence two tables share, a view, a trigger
-- and its function, two extensions, a text and a bytea primary key.
CREATE EXTENSION IF NOT EXISTS citext;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE SEQUENCE invoice_number_seq START WITH 1000;

CREATE TABLE customers (
  id serial PRIMARY KEY,
  email citext NOT NULL UNIQUE,
  name text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  created_at timestamp without time zone NOT NULL DEFAULT now(),
  last_ip inet
);

CREATE TABLE orders (
  id bigserial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers (id),
  placed_at timestamp without time zone NOT NULL DEFAULT now(),
  total numeric NOT NULL DEFAULT 0 CHECK (total >= 0),
  weight real,
  notes json
);
CREATE INDEX orders_customer_placed_idx ON orders (customer_id, placed_at);

CREATE TABLE invoices (
  id bigserial PRIMARY KEY,
  number bigint NOT NULL DEFAULT nextval('invoice_number_seq') UNIQUE,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  amount numeric(12,2) NOT NULL,
  tax numeric(12,2) GENERATED ALWAYS AS (amount * 0.2) STORED
);

CREATE TABLE credit_notes (
  id serial PRIMARY KEY,
  number bigint NOT NULL DEFAULT nextval('invoice_number_seq'),
  invoice_id bigint NOT NULL REFERENCES invoices (id),
  amount numeric(12,2) NOT NULL
);

CREATE TABLE shifts (
  id serial PRIMARY KEY,
  starts time NOT NULL,
  length interval NOT NULL DEFAULT '8 hours',
  label varchar(40) NOT NULL
);
CREATE INDEX shifts_starts_idx ON shifts (starts);

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

-- Content-addressed blobs: a bytea key, which TiDB cannot index.
CREATE TABLE blobs (
  digest bytea PRIMARY KEY,
  size integer NOT NULL
);

CREATE TABLE products (
  id serial PRIMARY KEY,
  sku varchar(32) NOT NULL UNIQUE,
  name text NOT NULL,
  price numeric(10,2) NOT NULL,
  updated_at timestamp without time zone NOT NULL DEFAULT now()
);
CREATE INDEX products_name_trgm ON products USING gin (name gin_trgm_ops);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  table_name text NOT NULL,
  changed_at timestamp without time zone NOT NULL DEFAULT now(),
  payload json
);

CREATE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END
$$;

CREATE TRIGGER products_touch BEFORE UPDATE ON products
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE VIEW customer_orders AS
  SELECT c.email, count(o.id) AS orders
  FROM customers c LEFT JOIN orders o ON o.customer_id = c.id
  GROUP BY c.email;

-- Support tickets: numbered by a sequence named as a serial's, but with a
-- bound of its own, and with a NOT NULL named by hand, which PostgreSQL 18
-- keeps as a constraint of that name (earlier versions ignore the name).
CREATE SEQUENCE tickets_id_seq MAXVALUE 99999;
CREATE TABLE tickets (
  id integer NOT NULL DEFAULT nextval('tickets_id_seq') PRIMARY KEY,
  subject text CONSTRAINT tickets_subject_required NOT NULL
);
