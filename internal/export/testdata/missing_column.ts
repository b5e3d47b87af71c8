// An insert without a required column (uri): tsc must refuse this file.
import { Kysely, PostgresDialect } from "kysely";
import type { Database } from "./schema";

declare const pool: ConstructorParameters<typeof PostgresDialect>[0]["pool"];
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });

export async function missingColumn(): Promise<void> {
  await db.insertInto("sources").values({
    id: "0b0f8a6e-8a51-4f55-9d0b-1b2c3d4e5f61",
    knowledge_space_id: "0b0f8a6e-8a51-4f55-9d0b-1b2c3d4e5f60",
    type: "web",
    status: "active",
    name: "docs",
    metadata: {},
    permission_scope: {},
    version: 1,
    created_at: new Date(),
    updated_at: new Date(),
  }).execute();
}
