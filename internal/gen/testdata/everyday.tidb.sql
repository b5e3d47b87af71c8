-- Generated from everyday.hcl by schemagen for tidb. Do not edit:
-- change everyday.hcl and run `schemagen generate`.
-- CHECK constraints need tidb_enable_check_constraint = ON; without it TiDB ignores them.

-- column name: COLLATE utf8mb4_0900_bin: trailing spaces count, as on PostgreSQL (exact_strings)
-- column id: identity as AUTO_INCREMENT with AUTO_ID_CACHE = 1 (ids in INSERT order, one after another); an INSERT that gives the column a value moves the next id past it. A refused INSERT may leave other gaps than on PostgreSQL: a NULL in a NOT NULL column takes an id there and not here, a value one database refuses as input and the other by a CHECK takes one on the CHECK's side only, so later ids may differ
CREATE TABLE `accounts` (
  `id` BIGINT NOT NULL AUTO_INCREMENT,
  `name` VARCHAR(80) COLLATE utf8mb4_0900_bin NOT NULL,
  PRIMARY KEY (`id`)
) AUTO_ID_CACHE = 1;

-- column id: identity as AUTO_INCREMENT with AUTO_ID_CACHE = 1 (ids in INSERT order, one after another); an INSERT that gives the column a value moves the next id past it. A refused INSERT may leave other gaps than on PostgreSQL: a NULL in a NOT NULL column takes an id there and not here, a value one database refuses as input and the other by a CHECK takes one on the CHECK's side only, so later ids may differ
CREATE TABLE `invoices` (
  `id` INT NOT NULL AUTO_INCREMENT,
  `account_id` BIGINT NOT NULL,
  `total` DECIMAL(12,2) NOT NULL,
  `status` ENUM('pending', 'paid', 'shipped', 'cancelled'),
  PRIMARY KEY (`id`),
  CONSTRAINT `invoices_status_ck` CHECK (`status` IS NULL OR `status` <> 'cancelled' OR `total` = 0),
  CONSTRAINT `invoices_total_ck` CHECK (`total` >= 0),
  CONSTRAINT `invoices_account_fk` FOREIGN KEY (`account_id`) REFERENCES `accounts` (`id`)
) AUTO_INCREMENT = 1000 AUTO_ID_CACHE = 1;

-- column id: uuid as CHAR(36)
-- column id: uuid() as the expression default (UUID()): a version-1 UUID (time and node), where PostgreSQL makes a random version-4 one
-- column sku: COLLATE utf8mb4_0900_bin: trailing spaces count, as on PostgreSQL (exact_strings)
-- column weight: float as FLOAT (4-byte IEEE float)
-- columns opens, closes: time as TIME with a CHECK of PostgreSQL's range, 00:00:00 to 24:00:00 (TiDB's own reaches -838:59:59 to 838:59:59)
-- column launched: datetime as DATETIME (wall-clock time without a time zone; microsecond precision unless given)
-- columns created_at, updated_at: timestamp as DATETIME (no time zone: the application stores UTC; millisecond precision unless given)
-- columns created_at, updated_at: now() as CURRENT_TIMESTAMP in the session time zone (keep it UTC)
-- column updated_at: on_update = now() as ON UPDATE CURRENT_TIMESTAMP in the session time zone (keep it UTC)
-- column launched: CHECK products_launched_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column created_at: CHECK products_created_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column updated_at: CHECK products_updated_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK products_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `products` (
  `id` CHAR(36) NOT NULL DEFAULT (UUID()),
  `sku` VARCHAR(32) COLLATE utf8mb4_0900_bin NOT NULL,
  `price` DECIMAL(10,2) NOT NULL,
  `weight` FLOAT,
  `opens` TIME(6) NOT NULL DEFAULT '09:00:00',
  `closes` TIME(0),
  `launched` DATETIME(6),
  `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `updated_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`id`),
  CONSTRAINT `products_closes_time_ck` CHECK (`closes` BETWEEN '00:00:00' AND '24:00:00'),
  CONSTRAINT `products_created_at_range_ck` CHECK (`created_at` >= '0001-01-01'),
  CONSTRAINT `products_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `products_launched_range_ck` CHECK (`launched` >= '0001-01-01'),
  CONSTRAINT `products_opens_time_ck` CHECK (`opens` BETWEEN '00:00:00' AND '24:00:00'),
  CONSTRAINT `products_price_ck` CHECK (`price` >= 0),
  CONSTRAINT `products_updated_at_range_ck` CHECK (`updated_at` >= '0001-01-01')
);

-- columns id, product_id: uuid as CHAR(36)
-- column id: uuid() as the expression default (UUID()): a version-1 UUID (time and node), where PostgreSQL makes a random version-4 one
-- columns sku, label: COLLATE utf8mb4_0900_bin: trailing spaces count, as on PostgreSQL (exact_strings)
-- column label: || as CONCAT
-- column bulk: bool as TINYINT(1)
-- columns placed_at, changed_at: datetime as DATETIME (wall-clock time without a time zone; microsecond precision unless given)
-- columns placed_at, changed_at: now() as CURRENT_TIMESTAMP in the session time zone (keep it UTC)
-- column changed_at: on_update = now() as ON UPDATE CURRENT_TIMESTAMP in the session time zone (keep it UTC)
-- column placed_at: CHECK order_lines_placed_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column changed_at: CHECK order_lines_changed_at_range_ck: from year 1, as on PostgreSQL (TiDB also takes year 0) [added]
-- column id: CHECK order_lines_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
-- column product_id: CHECK order_lines_product_id_uuid_ck keeps PostgreSQL's guarantee of a well-formed UUID (uuid_check) [added]
CREATE TABLE `order_lines` (
  `id` CHAR(36) NOT NULL DEFAULT (UUID()),
  `product_id` CHAR(36) NOT NULL,
  `sku` VARCHAR(32) COLLATE utf8mb4_0900_bin NOT NULL,
  `price` DECIMAL(10,2) NOT NULL,
  `qty` INT NOT NULL,
  `total` DECIMAL(14,2) AS (`price` * `qty`) STORED NOT NULL,
  `label` VARCHAR(64) COLLATE utf8mb4_0900_bin AS (CONCAT((CONCAT(LOWER(`sku`), '-')), 'line')) VIRTUAL NOT NULL,
  `bulk` TINYINT(1) AS (`qty` >= 10) VIRTUAL NOT NULL,
  `status` ENUM('pending', 'paid', 'shipped', 'cancelled') NOT NULL DEFAULT 'pending',
  `placed_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `changed_at` DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),
  PRIMARY KEY (`id`),
  CONSTRAINT `order_lines_changed_at_range_ck` CHECK (`changed_at` >= '0001-01-01'),
  CONSTRAINT `order_lines_id_uuid_ck` CHECK (`id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `order_lines_placed_at_range_ck` CHECK (`placed_at` >= '0001-01-01'),
  CONSTRAINT `order_lines_product_id_uuid_ck` CHECK (`product_id` REGEXP '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'),
  CONSTRAINT `order_lines_total_ck` CHECK (`total` < 1000000),
  CONSTRAINT `order_lines_product_fk` FOREIGN KEY (`product_id`) REFERENCES `products` (`id`),
  INDEX `order_lines_label_idx` (`label`),
  INDEX `order_lines_status_idx` (`status`, `placed_at`),
  INDEX `order_lines_total_idx` (`total`)
);
