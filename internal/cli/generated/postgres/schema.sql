-- Generated from schema.hcl by schemagen for postgres. Do not edit:
-- change schema.hcl and run `schemagen generate`.

CREATE TABLE "parent" (
  "id" INTEGER NOT NULL,
  PRIMARY KEY ("id")
);

CREATE TABLE "child" (
  "p" INTEGER NOT NULL,
  CONSTRAINT "child_p_fk" FOREIGN KEY ("p") REFERENCES "parent" ("id") DEFERRABLE
);
