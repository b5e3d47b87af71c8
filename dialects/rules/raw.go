package rules

import (
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// RawIndexes checks the raw statements that stand for indexes in dialect d
// (`d { sql = "..." }`): one CREATE [UNIQUE] INDEX statement that creates the
// index of that name on its own table (or, for a unique index, an ALTER
// TABLE that adds a UNIQUE constraint of that name to it), so that the
// model's names, scopes and dependencies stay true of what the database
// gets.
func RawIndexes(s *compiler.Schema, d string, r *dialects.Rules, rep Reporter) {
	for _, t := range s.Tables {
		if t.Overrides.Skipped(d) {
			continue
		}
		for _, idx := range t.Indexes {
			o := idx.Overrides.For(d)
			if o == nil || o.SQL == "" {
				continue
			}
			// The statement names the index as the dialect does.
			name := idx.Overrides.NameIn(d, idx.Name)
			if msg := rawIndex(o.SQL, r, idx, name, t.Name); msg != "" {
				rep.Errorf(o.Range, "Invalid raw index statement", "The %s statement of index %q %s Write CREATE %sINDEX %s ON %s (...).", d, idx.Name, msg, map[bool]string{true: "UNIQUE "}[idx.Unique], quote(r, name), quote(r, t.Name))
			}
		}
	}
}

func quote(r *dialects.Rules, name string) string {
	q := string(r.IdentQuote)
	return q + strings.ReplaceAll(name, q, q+q) + q
}

// rawIndex returns what is wrong with a raw CREATE INDEX statement, or "".
func rawIndex(sql string, r *dialects.Rules, idx *compiler.Index, index, table string) string {
	toks, ok := words(sql, r)
	if !ok {
		return "cannot be read (an unterminated quote)."
	}
	if moreThanOne(sql) {
		return "holds more than one statement."
	}
	i := 0
	next := func() (word, bool) {
		if i >= len(toks) {
			return word{}, false
		}
		i++
		return toks[i-1], true
	}
	kw := func(w word, k string) bool { return !w.quoted && strings.EqualFold(w.text, k) }
	w, _ := next()
	if kw(w, "alter") && idx.Unique {
		return uniqueConstraint(next, kw, r, idx, index, table)
	}
	if !kw(w, "create") {
		return "is not a CREATE INDEX statement."
	}
	w, _ = next()
	unique := kw(w, "unique")
	if unique {
		w, _ = next()
	}
	if !kw(w, "index") {
		return "is not a CREATE INDEX statement."
	}
	if unique != idx.Unique {
		if idx.Unique {
			return "creates a non-unique index, but the model's index is unique."
		}
		return "creates a unique index, but the model's index is not unique."
	}
	w, _ = next()
	if kw(w, "concurrently") {
		w, _ = next()
	}
	if kw(w, "if") {
		next()
		next()
		w, _ = next()
	}
	name := w
	for i < len(toks) && toks[i].text == "." && !toks[i].quoted {
		next()
		name, _ = next()
	}
	if kw(name, "on") || !same(r, name, index) {
		return "creates an index of another name (" + name.text + ")."
	}
	w, _ = next()
	if !kw(w, "on") {
		return "does not say ON which table."
	}
	w, _ = next()
	if kw(w, "only") {
		w, _ = next()
	}
	for i < len(toks) && toks[i].text == "." && !toks[i].quoted {
		next()
		w, _ = next()
	}
	if !same(r, w, table) {
		return "creates the index on another table (" + w.text + ")."
	}
	return ""
}

// uniqueConstraint checks, after its ALTER, a statement that adds a unique
// constraint, which a unique index of the model may stand for (PostgreSQL's
// UNIQUE NULLS NOT DISTINCT): ALTER TABLE [ONLY] table ADD CONSTRAINT name
// UNIQUE.
func uniqueConstraint(next func() (word, bool), kw func(word, string) bool, r *dialects.Rules, idx *compiler.Index, index, table string) string {
	const not = "is not a CREATE INDEX statement, nor an ALTER TABLE that adds a UNIQUE constraint."
	if w, _ := next(); !kw(w, "table") {
		return not
	}
	w, _ := next()
	if kw(w, "only") {
		w, _ = next()
	}
	// A qualified name: the last part is the table.
	for {
		dot, ok := next()
		if !ok || dot.quoted || dot.text != "." {
			if !same(r, w, table) {
				return "creates the index on another table (" + w.text + ")."
			}
			w = dot
			break
		}
		w, _ = next()
	}
	if !kw(w, "add") {
		return not
	}
	if w, _ = next(); !kw(w, "constraint") {
		return not
	}
	if name, _ := next(); !same(r, name, index) {
		return "creates an index of another name (" + name.text + ")."
	}
	if w, _ = next(); !kw(w, "unique") {
		return not
	}
	return ""
}

type word struct {
	text   string
	quoted bool
}

// same reports whether the word w names name in the dialect.
func same(r *dialects.Rules, w word, name string) bool {
	text := w.text
	if !w.quoted && r.LowerUnquoted {
		text = strings.ToLower(text)
	}
	return r.Fold(text) == r.Fold(name)
}

// words splits the head of a statement into words, quoted identifiers and
// punctuation; it stops at the first parenthesis.
func words(sql string, r *dialects.Rules) ([]word, bool) {
	var out []word
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(':
			return out, true
		case c == r.IdentQuote:
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(sql) {
					return nil, false
				}
				if sql[j] == r.IdentQuote {
					if j+1 < len(sql) && sql[j+1] == r.IdentQuote {
						b.WriteByte(c)
						j += 2
						continue
					}
					break
				}
				b.WriteByte(sql[j])
				j++
			}
			out = append(out, word{b.String(), true})
			i = j + 1
		case c == '.' || c == ';':
			out = append(out, word{string(c), false})
			i++
		default:
			j := i
			for j < len(sql) && !strings.ContainsRune(" \t\n\r(.;", rune(sql[j])) && sql[j] != r.IdentQuote {
				j++
			}
			out = append(out, word{sql[i:j], false})
			i = j
		}
	}
	return out, true
}

// moreThanOne reports whether sql has text after a semicolon outside quotes.
func moreThanOne(sql string) bool {
	var quote byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == ';':
			return strings.TrimSpace(strings.Trim(sql[i:], "; \t\n\r")) != ""
		}
	}
	return false
}
