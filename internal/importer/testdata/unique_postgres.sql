-- Every way PostgreSQL's CREATE INDEX and ALTER TABLE write a unique index
-- or constraint (TestImportUniqueIndexes). Lines marked "15:" need
-- PostgreSQL 15 (NULLS NOT DISTINCT); the test drops the marks there, and
-- the lines below 15.
CREATE TABLE u (
  id int PRIMARY KEY,
  a int, b int, c text, d text, e int, f int, g int, h int, k int, m int,
  CONSTRAINT u_def_key UNIQUE (e) DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT u_defi_key UNIQUE (f) DEFERRABLE,
  CONSTRAINT u_fill_key UNIQUE (g) WITH (fillfactor = 70),
  CONSTRAINT u_inc_key UNIQUE (h) INCLUDE (a)
);
-- 15: ALTER TABLE u ADD CONSTRAINT u_nnd_key UNIQUE NULLS NOT DISTINCT (m);
CREATE UNIQUE INDEX u_plain_uq ON u (a, b);
CREATE UNIQUE INDEX u_expr_uq ON u (lower(c));
CREATE UNIQUE INDEX u_part_uq ON u (a) WHERE b > 0;
CREATE UNIQUE INDEX u_incl_uq ON u (b) INCLUDE (c);
-- 15: CREATE UNIQUE INDEX u_nnd_uq ON u (k) NULLS NOT DISTINCT;
CREATE UNIQUE INDEX u_ops_uq ON u (c text_pattern_ops);
CREATE UNIQUE INDEX u_coll_uq ON u (d COLLATE "C");
CREATE UNIQUE INDEX u_desc_uq ON u (a DESC NULLS LAST, b);
CREATE UNIQUE INDEX u_descdef_uq ON u (k DESC, a);
CREATE UNIQUE INDEX u_nf_uq ON u (b NULLS FIRST, a);
CREATE UNIQUE INDEX u_fill_uq ON u (e, f) WITH (fillfactor = 80);
-- A unique index over the primary key's columns, and two over a unique
-- constraint's.
CREATE UNIQUE INDEX u_pkdup_uq ON u (id);
CREATE UNIQUE INDEX u_dup_uq ON u (g);
CREATE UNIQUE INDEX u_dup2_uq ON u (g);
-- A unique constraint made from an index (which takes the constraint's name).
CREATE TABLE v (id int PRIMARY KEY, code text NOT NULL);
CREATE UNIQUE INDEX v_code_idx ON v (code);
ALTER TABLE v ADD CONSTRAINT v_code_key UNIQUE USING INDEX v_code_idx;
-- The rows that make a CREATE UNIQUE INDEX CONCURRENTLY fail, which the
-- test runs: it leaves an INVALID index w_x_uq.
CREATE TABLE w (id int PRIMARY KEY, x int);
INSERT INTO w VALUES (1, 1), (2, 1);
-- A partitioned table's unique constraint and index, and its partition.
CREATE TABLE p (id int, region int, code int, PRIMARY KEY (id, region), CONSTRAINT p_code_key UNIQUE (code, region)) PARTITION BY LIST (region);
CREATE TABLE p1 PARTITION OF p FOR VALUES IN (1);
CREATE UNIQUE INDEX p_uq ON p (region, id);
-- Names that TiDB compares equal.
CREATE TABLE q (id int PRIMARY KEY, a int, b int);
CREATE UNIQUE INDEX "Q_a_uq" ON q (a);
CREATE UNIQUE INDEX q_a_uq ON q (b);
-- Columns TiDB cannot index as they are: json, and text (varchar there).
CREATE TABLE r (id int PRIMARY KEY, doc jsonb, body text);
CREATE UNIQUE INDEX r_doc_uq ON r (doc);
CREATE UNIQUE INDEX r_body_uq ON r (body);
