// Typed Kysely queries over the exported modules: this file must compile
// under tsc --strict (TestTypeScriptKysely).
import { Kysely, PostgresDialect, Insertable, Selectable } from "kysely";
import type { Database, SourcesRow, SourcesInsert } from "./schema";
import { catalog } from "./schema";
import type { Database as Everyday, OrderStatus, OrderLinesRow, OrderLinesInsert } from "./everyday";
import type { NotesInsert, NotesRow, Visibility } from "./rest";

declare const pool: ConstructorParameters<typeof PostgresDialect>[0]["pool"];
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
const shop = new Kysely<Everyday>({ dialect: new PostgresDialect({ pool }) });

export async function queries(): Promise<void> {
  const rows: Pick<SourcesRow, "id" | "credential_ref">[] = await db
    .selectFrom("sources")
    .select(["id", "credential_ref"])
    .where("knowledge_space_id", "=", "0b0f8a6e-8a51-4f55-9d0b-1b2c3d4e5f60")
    .execute();
  const ref: string | null = rows[0].credential_ref;

  const source: SourcesInsert = {
    id: "0b0f8a6e-8a51-4f55-9d0b-1b2c3d4e5f61",
    knowledge_space_id: "0b0f8a6e-8a51-4f55-9d0b-1b2c3d4e5f60",
    type: "web",
    status: "active",
    name: "docs",
    uri: "https://example.com",
    metadata: { depth: 2, tags: ["a"] },
    permission_scope: null,
    version: 1,
    created_at: new Date(),
    updated_at: "2026-01-01T00:00:00Z",
  };
  await db.insertInto("sources").values(source).execute();
  await db.updateTable("sources").set({ status: "paused", credential_ref: null }).where("id", "=", source.id).execute();

  // Generated, identity and default columns: left out of an insert.
  const line: OrderLinesInsert = { product_id: "p", sku: "s", price: "1.50", qty: 3 };
  await shop.insertInto("order_lines").values(line).execute();
  await shop.insertInto("accounts").values({ name: "a" }).execute();
  const status: OrderStatus = "paid";
  const lines: Selectable<Everyday["order_lines"]>[] = await shop.selectFrom("order_lines").selectAll().where("status", "=", status).execute();
  const total: string = lines[0].total;
  const same: OrderLinesRow = lines[0];
  const ins: Insertable<Everyday["invoices"]> = { account_id: "1", total: 2 };
  const purpose: string = catalog.tables[1].indexes[0].name;
  // An identity, a default and a generated column: only body_text is needed.
  const note: NotesInsert = { body_text: "x" };
  const seen: Visibility = "team";
  const read: Pick<NotesRow, "id" | "length" | "meta" | "blob"> = { id: "100", length: 1, meta: { any: "thing" }, blob: null };
  void ref; void total; void same; void ins; void purpose; void note; void seen; void read;
}
