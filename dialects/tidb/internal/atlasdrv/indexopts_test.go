package atlasdrv

import (
	"testing"

	"ariga.io/atlas/sql/schema"
)

// vectorShowCreate is a CREATE TABLE with a vector index and an invisible
// index in the form TiDB's SHOW CREATE TABLE prints them (KEY `name`
// (`col`) /*!80000 INVISIBLE */; VECTOR INDEX `name`((VEC_..._DISTANCE(
// `col`))) USING HNSW, as TiDB's vector search docs write it). The pinned
// tidb-server has no TiFlash and refuses vector indexes, so this text was
// not read from it: docs/language.md says so.
const vectorShowCreate = "CREATE TABLE `docs` (\n" +
	"  `id` bigint NOT NULL,\n" +
	"  `tenant` varchar(40) NOT NULL,\n" +
	"  `embedding` vector(3) DEFAULT NULL,\n" +
	"  `other` vector(3) DEFAULT NULL,\n" +
	"  PRIMARY KEY (`id`) /*T![clustered_index] CLUSTERED */,\n" +
	"  KEY `docs_tenant_idx` (`tenant`) /*!80000 INVISIBLE */,\n" +
	"  KEY `docs_visible_idx` (`tenant`) COMMENT 'INVISIBLE in a comment',\n" +
	"  VECTOR INDEX `docs_embedding_idx`((VEC_COSINE_DISTANCE(`embedding`))) USING HNSW,\n" +
	"  VECTOR INDEX `docs_other_idx` ((VEC_L2_DISTANCE(`other`)))\n" +
	") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"

// TestVectorIndexFixture reads the invisible and vector indexes of a
// recorded CREATE TABLE text.
func TestVectorIndexFixture(t *testing.T) {
	invisible, vector := ReadIndexOptions(vectorShowCreate)
	if len(invisible) != 1 || invisible[0] != "docs_tenant_idx" {
		t.Errorf("invisible: %q", invisible)
	}
	want := map[string]VectorIndex{
		"docs_embedding_idx": {Distance: "VEC_COSINE_DISTANCE", Column: "embedding"},
		"docs_other_idx":     {Distance: "VEC_L2_DISTANCE", Column: "other"},
	}
	if len(vector) != len(want) {
		t.Fatalf("vector indexes: %+v", vector)
	}
	for k, v := range want {
		if g := vector[k]; g.Distance != v.Distance || g.Column != v.Column {
			t.Errorf("%s: %+v, want %+v", k, g, v)
		}
	}
	tbl := schema.NewTable("docs").AddIndexes(schema.NewIndex("docs_tenant_idx"), schema.NewIndex("docs_embedding_idx"), schema.NewIndex("docs_visible_idx"))
	readIndexOptions(tbl, vectorShowCreate)
	if !InvisibleOf(tbl.Indexes[0]) || InvisibleOf(tbl.Indexes[2]) || VectorOf(tbl.Indexes[1]) == nil || VectorOf(tbl.Indexes[0]) != nil {
		t.Errorf("attributes: %+v", tbl.Indexes)
	}
}
