// An insert that sets a generated column (total): tsc must refuse this file.
import { Kysely, PostgresDialect } from "kysely";
import type { Database } from "./everyday";

declare const pool: ConstructorParameters<typeof PostgresDialect>[0]["pool"];
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });

export async function generatedColumn(): Promise<void> {
  await db.insertInto("order_lines").values({ product_id: "p", sku: "s", price: "1.50", qty: 3, total: "4.50" }).execute();
}
