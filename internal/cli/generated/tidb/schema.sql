-- Generated from schema.hcl by schemagen for tidb. Do not edit:
-- change schema.hcl and run `schemagen generate`.
-- CHECK constraints need tidb_enable_check_constraint = ON; without it TiDB ignores them.

CREATE TABLE `parent` (
  `id` INT NOT NULL,
  PRIMARY KEY (`id`)
);

-- foreign key child_p_fk: left out of tidb by the model [omitted]
CREATE TABLE `child` (
  `p` INT NOT NULL
);
