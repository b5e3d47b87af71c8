package lower

import "testing"

func TestBaseType(t *testing.T) {
	for sql, want := range map[string]string{
		"INT": "int", "int AUTO_INCREMENT": "int", "integer": "int", "smallint unsigned AUTO_INCREMENT": "smallint unsigned",
		"VARCHAR(10)": "varchar", "varchar(10) COLLATE utf8mb4_bin": "varchar", "CHAR(10)": "char", "DECIMAL(5,2)": "decimal",
	} {
		if got := baseType(sql); got != want {
			t.Errorf("baseType(%q) = %q, want %q", sql, got, want)
		}
	}
}
