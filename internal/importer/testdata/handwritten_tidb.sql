-- A lending library, as a team writes its TiDB (MySQL dialect) migration by
-- hand: unnamed constraints whose names TiDB makes up (fk_1, t_chk_1, a
-- unique index named after its column), AUTO_INCREMENT keys, functional key
-- parts, and types that only MySQL has.

CREATE TABLE branches (
  id SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  code CHAR(4) NOT NULL UNIQUE,
  name VARCHAR(100) NOT NULL,
  opened YEAR NOT NULL,
  region ENUM('north', 'south', 'east', 'west') NOT NULL DEFAULT 'north',
  settings JSON,
  CHECK (code REGEXP '^[A-Z]{3}[0-9]$'),
  CHECK (settings IS NULL OR JSON_TYPE(settings) = 'OBJECT')
) COMMENT = 'Where books are lent';

CREATE TABLE members (
  id BIGINT NOT NULL AUTO_INCREMENT,
  branch_id SMALLINT UNSIGNED NOT NULL,
  email VARCHAR(320) NOT NULL,
  name VARCHAR(200) NOT NULL COMMENT 'As printed on the card',
  birth_year YEAR,
  status ENUM('active', 'suspended', 'closed') NOT NULL DEFAULT 'active',
  flags SET('newsletter', 'sms', 'large_print') NOT NULL DEFAULT '',
  joined_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY (email),
  KEY members_lower_name_idx ((lower(name))),
  FOREIGN KEY (branch_id) REFERENCES branches (id),
  CHECK (email LIKE '%@%'),
  CHECK (birth_year BETWEEN 1900 AND 2100)
);

CREATE TABLE member_cards (
  member_id BIGINT NOT NULL,
  card_no INT UNSIGNED NOT NULL,
  issued DATE NOT NULL,
  expires DATE,
  PRIMARY KEY (member_id, card_no),
  UNIQUE KEY member_cards_no_uq (card_no),
  FOREIGN KEY (member_id) REFERENCES members (id) ON DELETE CASCADE,
  CHECK (expires IS NULL OR expires > issued)
);

CREATE TABLE authors (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(200) NOT NULL,
  born SMALLINT,
  died SMALLINT,
  bio TINYTEXT,
  CHECK (died IS NULL OR died >= born)
);

CREATE TABLE publishers (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(200) NOT NULL,
  country CHAR(2) NOT NULL DEFAULT 'US',
  UNIQUE KEY (name, country),
  CHECK (country REGEXP '^[A-Z]{2}$')
);

CREATE TABLE books (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  isbn CHAR(13) NOT NULL,
  title VARCHAR(300) NOT NULL,
  publisher_id INT,
  published YEAR,
  pages MEDIUMINT UNSIGNED,
  language CHAR(2) NOT NULL DEFAULT 'en',
  format ENUM('hardcover', 'paperback', 'ebook', 'audio') NOT NULL,
  metadata JSON,
  UNIQUE KEY (isbn),
  KEY books_title_idx ((upper(title)), published DESC),
  CONSTRAINT books_publisher_fk FOREIGN KEY (publisher_id) REFERENCES publishers (id),
  CHECK (isbn REGEXP '^[0-9]{12}[0-9X]$'),
  CHECK (pages BETWEEN 1 AND 20000),
  CHECK (language IN ('en', 'fr', 'de', 'es', 'it')),
  CHECK (JSON_TYPE(metadata) IN ('OBJECT', 'ARRAY'))
);

CREATE TABLE book_authors (
  book_id INT NOT NULL,
  author_id INT NOT NULL,
  role VARCHAR(20) NOT NULL DEFAULT 'author',
  position TINYINT UNSIGNED NOT NULL DEFAULT 1,
  PRIMARY KEY (book_id, author_id),
  FOREIGN KEY (book_id) REFERENCES books (id) ON DELETE CASCADE,
  FOREIGN KEY (author_id) REFERENCES authors (id) ON DELETE CASCADE,
  CHECK (role IN ('author', 'editor', 'translator', 'illustrator'))
);

CREATE TABLE subjects (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  parent_id INT,
  name VARCHAR(100) NOT NULL,
  UNIQUE KEY subjects_name_uq (parent_id, name),
  FOREIGN KEY (parent_id) REFERENCES subjects (id) ON DELETE SET NULL
);

CREATE TABLE book_subjects (
  book_id INT NOT NULL,
  subject_id INT NOT NULL,
  PRIMARY KEY (book_id, subject_id),
  FOREIGN KEY (book_id) REFERENCES books (id) ON DELETE CASCADE,
  FOREIGN KEY (subject_id) REFERENCES subjects (id) ON DELETE CASCADE
);

CREATE TABLE copies (
  branch_id SMALLINT UNSIGNED NOT NULL,
  copy_no INT NOT NULL,
  book_id INT NOT NULL,
  barcode VARCHAR(32) NOT NULL,
  acquired DATE NOT NULL,
  price DECIMAL(8, 2) UNSIGNED,
  state ENUM('shelf', 'loaned', 'repair', 'lost') NOT NULL DEFAULT 'shelf',
  damaged BIT(1) NOT NULL DEFAULT b'0',
  PRIMARY KEY (branch_id, copy_no),
  UNIQUE KEY copies_barcode_uq (barcode),
  KEY (book_id),
  FOREIGN KEY (branch_id) REFERENCES branches (id),
  FOREIGN KEY (book_id) REFERENCES books (id),
  CHECK (barcode REGEXP '^[0-9A-Z]+$' AND barcode NOT LIKE '0%')
);

CREATE TABLE loans (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  branch_id SMALLINT UNSIGNED NOT NULL,
  copy_no INT NOT NULL,
  member_id BIGINT NOT NULL,
  loaned_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  due DATE NOT NULL,
  returned_at DATETIME(3),
  renewals TINYINT NOT NULL DEFAULT 0,
  KEY loans_member_idx (member_id, loaned_at DESC),
  FOREIGN KEY (branch_id, copy_no) REFERENCES copies (branch_id, copy_no),
  FOREIGN KEY (member_id) REFERENCES members (id),
  CHECK (renewals BETWEEN 0 AND 5),
  CHECK (returned_at IS NULL OR returned_at >= loaned_at)
);

CREATE TABLE holds (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  book_id INT NOT NULL,
  member_id BIGINT NOT NULL,
  pickup_branch SMALLINT UNSIGNED,
  placed_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  state VARCHAR(16) NOT NULL DEFAULT 'waiting',
  UNIQUE KEY holds_once_uq (book_id, member_id),
  FOREIGN KEY (book_id) REFERENCES books (id) ON DELETE CASCADE,
  FOREIGN KEY (member_id) REFERENCES members (id) ON DELETE CASCADE,
  FOREIGN KEY (pickup_branch) REFERENCES branches (id) ON DELETE SET NULL,
  CHECK (state IN ('waiting', 'ready', 'collected', 'expired'))
);

CREATE TABLE fines (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  loan_id BIGINT NOT NULL,
  amount DECIMAL(8, 2) NOT NULL,
  reason VARCHAR(200) NOT NULL DEFAULT '',
  paid TINYINT(1) NOT NULL DEFAULT 0,
  waived_by BIGINT,
  FOREIGN KEY (loan_id) REFERENCES loans (id),
  FOREIGN KEY (waived_by) REFERENCES members (id),
  CHECK (amount > 0),
  CHECK (NOT (waived_by <=> NULL) OR paid IN (0, 1))
);

CREATE TABLE staff (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  branch_id SMALLINT UNSIGNED NOT NULL,
  login VARCHAR(32) NOT NULL UNIQUE,
  manager_id INT,
  role ENUM('librarian', 'assistant', 'manager') NOT NULL,
  hourly_rate DECIMAL(6, 2),
  FOREIGN KEY (branch_id) REFERENCES branches (id),
  FOREIGN KEY (manager_id) REFERENCES staff (id),
  CHECK (login REGEXP '^[a-z][a-z0-9_]*$'),
  CHECK (NOT (manager_id <=> branch_id))
);

CREATE TABLE shifts (
  staff_id INT NOT NULL,
  day DATE NOT NULL,
  starts TIME NOT NULL,
  ends TIME NOT NULL,
  PRIMARY KEY (staff_id, day, starts),
  FOREIGN KEY (staff_id) REFERENCES staff (id) ON DELETE CASCADE
);

CREATE TABLE events (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  branch_id SMALLINT UNSIGNED NOT NULL,
  title VARCHAR(200) NOT NULL,
  starts_at DATETIME NOT NULL,
  capacity SMALLINT UNSIGNED NOT NULL DEFAULT 20,
  audience SET('children', 'teens', 'adults', 'seniors') NOT NULL,
  FOREIGN KEY (branch_id) REFERENCES branches (id),
  CHECK (capacity BETWEEN 1 AND 500)
);

CREATE TABLE event_signups (
  event_id INT NOT NULL,
  member_id BIGINT NOT NULL,
  seats TINYINT UNSIGNED NOT NULL DEFAULT 1,
  PRIMARY KEY (event_id, member_id),
  FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE CASCADE,
  FOREIGN KEY (member_id) REFERENCES members (id) ON DELETE CASCADE
);

CREATE TABLE reviews (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  book_id INT NOT NULL,
  member_id BIGINT NOT NULL,
  stars TINYINT NOT NULL,
  body TEXT,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  UNIQUE KEY reviews_once_uq (book_id, member_id),
  FOREIGN KEY (book_id) REFERENCES books (id),
  FOREIGN KEY (member_id) REFERENCES members (id),
  CHECK (stars BETWEEN 1 AND 5),
  CHECK (body IS NULL OR CHAR_LENGTH(body) <= 5000)
);

CREATE TABLE suppliers (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(200) NOT NULL,
  email VARCHAR(320),
  phone VARCHAR(32),
  UNIQUE KEY suppliers_email_uq ((lower(email))),
  CHECK (phone IS NULL OR phone REGEXP '^[+]?[0-9 ]{6,20}$')
);

CREATE TABLE purchase_orders (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  supplier_id INT NOT NULL,
  branch_id SMALLINT UNSIGNED NOT NULL,
  ordered DATE NOT NULL,
  status ENUM('draft', 'sent', 'received', 'cancelled') NOT NULL DEFAULT 'draft',
  total DECIMAL(10, 2) NOT NULL DEFAULT 0.00,
  FOREIGN KEY (supplier_id) REFERENCES suppliers (id),
  FOREIGN KEY (branch_id) REFERENCES branches (id),
  CHECK (total >= 0)
);

CREATE TABLE purchase_lines (
  order_id INT NOT NULL,
  line SMALLINT NOT NULL,
  isbn CHAR(13) NOT NULL,
  quantity SMALLINT UNSIGNED NOT NULL,
  unit_price DECIMAL(8, 2) NOT NULL,
  PRIMARY KEY (order_id, line),
  FOREIGN KEY (order_id) REFERENCES purchase_orders (id) ON DELETE CASCADE,
  CHECK (quantity > 0),
  CHECK (isbn REGEXP '^[0-9]{12}[0-9X]$')
);

CREATE TABLE audit_log (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  actor VARCHAR(64) NOT NULL DEFAULT 'system',
  action VARCHAR(32) NOT NULL,
  payload JSON NOT NULL,
  KEY audit_log_at_idx (at),
  CHECK (action REGEXP '^[a-z]+[.][a-z_]+$'),
  CHECK (JSON_TYPE(payload) = 'OBJECT')
);
