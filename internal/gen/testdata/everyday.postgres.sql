-- Generated from everyday.hcl by schemagen for postgres. Do not edit:
-- change everyday.hcl and run `schemagen generate`.

-- column id: uuid() as gen_random_uuid() (a random version-4 UUID)
-- column weight: float as REAL (4-byte IEEE float)
-- columns opens, closes: time as TIME (a time of day, 00:00:00 to 24:00:00; microsecond precision unless given)
-- column launched: datetime as TIMESTAMP (wall-clock time without a time zone; microsecond precision unless given)
-- columns created_at, updated_at: timestamp as TIMESTAMPTZ (an instant; microsecond precision unless given)
-- column updated_at: on_update = now() by the trigger products_on_update, which schemagen owns: an UPDATE that changes the row and does not change the column sets it to now() [added]
CREATE TABLE "products" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "sku" VARCHAR(32) NOT NULL,
  "price" NUMERIC(10,2) NOT NULL,
  "weight" REAL,
  "opens" TIME(6) NOT NULL DEFAULT '09:00:00',
  "closes" TIME(0),
  "launched" TIMESTAMP(6),
  "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY ("id"),
  CONSTRAINT "products_price_ck" CHECK ("price" >= 0)
);
CREATE FUNCTION "products_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF ROW(NEW."id", NEW."sku", NEW."price", NEW."weight", NEW."opens", NEW."closes", NEW."launched", NEW."created_at") IS DISTINCT FROM ROW(OLD."id", OLD."sku", OLD."price", OLD."weight", OLD."opens", OLD."closes", OLD."launched", OLD."created_at") THEN
    IF NEW."updated_at" IS NOT DISTINCT FROM OLD."updated_at" THEN NEW."updated_at" := now(); END IF;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "products_on_update" BEFORE UPDATE ON "products" FOR EACH ROW EXECUTE FUNCTION "products_on_update"();

-- column id: uuid() as gen_random_uuid() (a random version-4 UUID)
-- columns label, bulk: stored = false as STORED: PostgreSQL before 18 has no VIRTUAL generated columns; the values read are the same
-- columns placed_at, changed_at: datetime as TIMESTAMP (wall-clock time without a time zone; microsecond precision unless given)
-- column changed_at: on_update = now() by the trigger order_lines_on_update, which schemagen owns: an UPDATE that changes the row and does not change the column sets it to now() [added]
CREATE TABLE "order_lines" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "product_id" UUID NOT NULL,
  "sku" VARCHAR(32) NOT NULL,
  "price" NUMERIC(10,2) NOT NULL,
  "qty" INTEGER NOT NULL,
  "total" NUMERIC(14,2) GENERATED ALWAYS AS ("price" * "qty"::bigint) STORED NOT NULL,
  "label" VARCHAR(64) GENERATED ALWAYS AS ((LOWER("sku") || '-') || 'line') STORED NOT NULL,
  "bulk" BOOLEAN GENERATED ALWAYS AS ("qty" >= 10) STORED NOT NULL,
  "placed_at" TIMESTAMP(3) NOT NULL DEFAULT now(),
  "changed_at" TIMESTAMP(6) NOT NULL DEFAULT now(),
  PRIMARY KEY ("id"),
  CONSTRAINT "order_lines_total_ck" CHECK ("total" < 1000000),
  CONSTRAINT "order_lines_product_fk" FOREIGN KEY ("product_id") REFERENCES "products" ("id")
);
CREATE INDEX "order_lines_label_idx" ON "order_lines" ("label");
CREATE INDEX "order_lines_total_idx" ON "order_lines" ("total");
CREATE FUNCTION "order_lines_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF ROW(NEW."id", NEW."product_id", NEW."sku", NEW."price", NEW."qty", NEW."placed_at") IS DISTINCT FROM ROW(OLD."id", OLD."product_id", OLD."sku", OLD."price", OLD."qty", OLD."placed_at") THEN
    IF NEW."changed_at" IS NOT DISTINCT FROM OLD."changed_at" THEN NEW."changed_at" := now(); END IF;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "order_lines_on_update" BEFORE UPDATE ON "order_lines" FOR EACH ROW EXECUTE FUNCTION "order_lines_on_update"();
