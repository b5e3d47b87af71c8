package online

import (
	"fmt"
	"strings"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/stmtlex"
)

// LooseChecks is SG107: a CHECK that ALTER TABLE adds whose expression has
// OR, AND, XOR, || or && at its top. TiDB checks the existing rows with
// `WHERE NOT <expr>` unparenthesised (pingcap/tidb#71050), so it refuses
// rows that satisfy such a CHECK (3819) or accepts rows that break it.
// migrate diff writes CHECK ((...)), which TiDB checks whole.
func LooseChecks(toks []stmtlex.Token) []dialects.StmtFinding {
	if stmtlex.StmtKind(toks) != "ALTER TABLE" {
		return nil
	}
	var out []dialects.StmtFinding
	for i, t := range toks {
		if t.Upper() != "CHECK" || i+1 >= len(toks) || toks[i+1].Text != "(" {
			continue
		}
		depth, between := 0, 0
		rest := toks[i+1:]
		for j, u := range rest {
			double := j+1 < len(rest) && rest[j+1].Text == u.Text && rest[j+1].Off == u.Off+1
			switch {
			case u.Text == "(":
				depth++
			case u.Text == ")":
				depth--
			case depth != 1:
			case u.Upper() == "BETWEEN":
				between++
			case u.Upper() == "AND" && between > 0:
				between--
			case u.Upper() == "OR", u.Upper() == "AND", u.Upper() == "XOR", (u.Text == "|" || u.Text == "&") && double:
				out = append(out, dialects.StmtFinding{Code: "SG107", Off: u.Off,
					Msg: fmt.Sprintf("TiDB checks the existing rows of this CHECK as (NOT a) %s b (pingcap/tidb#71050): it refuses rows that satisfy it or accepts rows that break it; write CHECK ((...))", strings.ToUpper(u.Text)+map[bool]string{true: u.Text}[double])})
			}
			if depth == 0 || len(out) > 0 && out[len(out)-1].Off == u.Off {
				break
			}
		}
	}
	return out
}

// TruncatedParts is TD110 for ALTER TABLE ... TRUNCATE PARTITION, which
// deletes the rows of the parts it names as DROP PARTITION does, but
// changes no schema: the replay, which finds DROP PARTITION's hazard in
// what the statement changed, sees nothing.
func TruncatedParts(toks []stmtlex.Token) []dialects.StmtFinding {
	if stmtlex.StmtKind(toks) != "ALTER TABLE" || len(toks) < 3 {
		return nil
	}
	table := unquote(toks[2].Text)
	for i := 3; i+2 < len(toks); i++ {
		if toks[i].Depth != 0 || toks[i].Upper() != "TRUNCATE" || toks[i+1].Upper() != "PARTITION" {
			continue
		}
		var parts []string
		for _, t := range toks[i+2:] {
			if t.Text == "," {
				continue
			}
			if t.Kind != stmtlex.Word && t.Kind != stmtlex.BQuote || t.Depth != 0 {
				break
			}
			parts = append(parts, unquote(t.Text))
		}
		what := "the rows of part " + strings.Join(parts, ", ") + " are deleted"
		if len(parts) == 1 && strings.EqualFold(parts[0], "ALL") {
			what = "the rows of every part are deleted"
		} else if len(parts) > 1 {
			what = "the rows of parts " + strings.Join(parts, ", ") + " are deleted"
		}
		return []dialects.StmtFinding{{Code: codePart, Off: toks[i].Off,
			Msg: fmt.Sprintf("TRUNCATE PARTITION deletes its rows (TiDB): %s: loses data; %s", table, what)}}
	}
	return nil
}

// unquote is a `quoted` identifier's name.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}
