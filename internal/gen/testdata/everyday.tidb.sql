-- Generated from everyday.hcl by schemagen for tidb. Do not edit:
-- change everyday.hcl and run `schemagen generate`.
-- CHECK constraints need tidb_enable_check_constraint = ON; without it TiDB ignores them.

-- column id: identity as AUTO_INCREMENT with AUTO_ID_CACHE = 1 (ids in INSERT order, one after another); an INSERT that gives the column a value moves the next id past it
CREATE TABLE `accounts` (
  `id` BIGINT NOT NULL AUTO_INCREMENT,
  `name` VARCHAR(80) NOT NULL,
  PRIMARY KEY (`id`)
) AUTO_ID_CACHE = 1;

-- column id: identity as AUTO_INCREMENT with AUTO_ID_CACHE = 1 (ids in INSERT order, one after another); an INSERT that gives the column a value moves the next id past it
CREATE TABLE `invoices` (
  `id` INT NOT NULL AUTO_INCREMENT,
  `account_id` BIGINT NOT NULL,
  `total` DECIMAL(12,2) NOT NULL,
  PRIMARY KEY (`id`),
  CONSTRAINT `invoices_total_ck` CHECK (`total` >= 0),
  CONSTRAINT `invoices_account_fk` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`)
) AUTO_INCREMENT = 1000 AUTO_ID_CACHE = 1;
