package dialects_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects/all"
)

// A per-dialect name override renames a check, a foreign key and an index in
// its dialect only, survives Write and Load, and skip leaves a foreign key
// out of one dialect.
func TestPerDialectNames(t *testing.T) {
	src := `
table "a" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
table "b" {
  column "id" {
    type = int
  }
  column "a_id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  check "b_a_id_ck" {
    expr = "a_id > 0"
    tidb {
      name = "b_chk_1"
    }
  }
  foreign_key "b_a_id_fkey" {
    columns     = ["a_id"]
    ref_table   = "a"
    ref_columns = ["id"]
    tidb {
      name = "fk_1"
    }
  }
  foreign_key "b_id_fkey" {
    columns     = ["id"]
    ref_table   = "a"
    ref_columns = ["id"]
    postgres {
      skip = true
    }
  }
  index "b_a_id_idx" {
    columns = ["a_id"]
    postgres {
      name = "b_a"
    }
  }
}
`
	opts := load.Options{Dialects: all.Names()}
	s, diags := load.Source(opts, "n.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// Written and loaded again, the model is the same.
	again, diags := load.Source(opts, "w.hcl", compiler.Write(s, nil))
	if diags.HasErrors() {
		t.Fatalf("%v\n%s", diags, compiler.Write(s, nil))
	}
	out := map[string]string{}
	for _, name := range []string{"postgres", "tidb"} {
		o, diags := all.Get(name).Generate(again)
		if diags.HasErrors() {
			t.Fatal(name, diags)
		}
		out[name] = string(o.SQL)
	}
	for _, c := range []struct {
		dialect string
		has     []string
		hasNot  []string
	}{
		{"postgres", []string{`"b_a_id_ck"`, `"b_a_id_fkey"`, `"b_a"`}, []string{"b_chk_1", "fk_1", "b_a_id_idx", `CONSTRAINT "b_id_fkey"`}},
		{"tidb", []string{"`b_chk_1`", "`fk_1`", "`b_a_id_idx`", "`b_id_fkey`"}, []string{"b_a_id_ck", "b_a_id_fkey", "`b_a`"}},
	} {
		for _, w := range c.has {
			if !strings.Contains(out[c.dialect], w) {
				t.Errorf("%s: no %s in\n%s", c.dialect, w, out[c.dialect])
			}
		}
		for _, w := range c.hasNot {
			if strings.Contains(out[c.dialect], w) {
				t.Errorf("%s: %s in\n%s", c.dialect, w, out[c.dialect])
			}
		}
	}
}

// An expression key part TiDB cannot index directly is indexed through a
// VIRTUAL generated column on TiDB (named by the on block's tidb override,
// else after the index), and directly on PostgreSQL.
func TestTiDBGeneratedColumnIndex(t *testing.T) {
	src := `
table "e" {
  column "id" {
    type = int
  }
  column "model" {
    type = varchar(64)
    null = true
  }
  column "rank" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  index "e_model_uq" {
    unique = true
    on {
      column = "id"
    }
    on {
      expr = "coalesce(model, '')"
      tidb {
        column = "model_key"
      }
    }
  }
  index "e_rank_idx" {
    on {
      expr = "coalesce(rank, 0)"
    }
  }
}
`
	generatesAfterWrite(t, "g.hcl", src, map[string][]string{
		"tidb": {
			"`model_key` VARCHAR(64) COLLATE utf8mb4_0900_bin AS (COALESCE(`model`, '')) VIRTUAL",
			"`e_rank_idx_0` BIGINT AS (COALESCE(`rank`, 0)) VIRTUAL",
			"UNIQUE INDEX `e_model_uq` (`id`, `model_key`)",
			"INDEX `e_rank_idx` (`e_rank_idx_0`)",
		},
		"postgres": {`ON "e" ("id", (COALESCE("model", '')))`, `ON "e" ((COALESCE("rank", 0)))`},
	})
}

// A CASE key part is indexed directly on TiDB (its expression index check
// looks at function calls only), unless the part names its TiDB column: then
// through that VIRTUAL generated column, as teams write it by hand. A CHECK
// that is a CASE of conditions is compared with TRUE on TiDB, whose CASE is
// an integer.
func TestTiDBCaseKeyPart(t *testing.T) {
	src := `
table "d" {
  column "id" {
    type = int
  }
  column "status" {
    type = varchar(16)
  }
  column "n" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  check "d_ck" {
    expr = "CASE WHEN status = 'done' THEN n > 0 ELSE TRUE END"
  }
  index "d_pub_idx" {
    on {
      expr = "CASE WHEN status = 'published' THEN 1 ELSE 0 END"
    }
  }
  index "d_pub2_idx" {
    on {
      column = "id"
    }
    on {
      expr = "CASE WHEN status = 'published' THEN 1 ELSE 0 END"
      tidb {
        column = "is_published"
      }
    }
  }
}
`
	generatesAfterWrite(t, "c.hcl", src, map[string][]string{
		"tidb": {
			"CHECK ((CASE WHEN `status` = 'done' THEN `n` > 0 ELSE TRUE END) = TRUE)",
			"INDEX `d_pub_idx` ((CASE WHEN `status` = 'published' THEN 1 ELSE 0 END))",
			"`is_published` BIGINT AS (CASE WHEN `status` = 'published' THEN 1 ELSE 0 END) VIRTUAL",
			"INDEX `d_pub2_idx` (`id`, `is_published`)",
		},
		"postgres": {
			`CHECK (CASE WHEN "status" = 'done' THEN "n" > 0 ELSE TRUE END)`,
			`ON "d" ((CASE WHEN "status" = 'published' THEN 1 ELSE 0 END))`,
			`ON "d" ("id", (CASE WHEN "status" = 'published' THEN 1 ELSE 0 END))`,
		},
	})
}

// generatesAfterWrite loads src, writes the model back as HCL and loads that
// again (what import writes must mean the same), then requires each
// dialect's DDL of it to hold every line of want.
func generatesAfterWrite(t *testing.T, file, src string, want map[string][]string) {
	t.Helper()
	opts := load.Options{Dialects: all.Names()}
	s, diags := load.Source(opts, file, []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	again, diags := load.Source(opts, "w.hcl", compiler.Write(s, nil))
	if diags.HasErrors() {
		t.Fatalf("%v\n%s", diags, compiler.Write(s, nil))
	}
	for d, ws := range want {
		o, diags := all.Get(d).Generate(again)
		if diags.HasErrors() {
			t.Fatal(d, diags)
		}
		for _, w := range ws {
			if !strings.Contains(string(o.SQL), w) {
				t.Errorf("%s: no %s in\n%s", d, w, o.SQL)
			}
		}
	}
}
