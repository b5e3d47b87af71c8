package lower

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr/parse"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/stmtlex"
	"github.com/schemagen/schemagen/dialects/postgres/internal/builtin"
)

// rawGrammar reads the raw PostgreSQL texts of a model (defaults, CHECKs,
// index statements, raw blocks) into tokens.
var rawGrammar = &parse.Grammar{IdentQuote: '"', EscapeStrings: true, PrefixedStrings: true, DollarStrings: true, Operators: []string{"::"}}

// created are the names the model's PostgreSQL DDL creates or has, read
// once (known): what a raw text may name.
type created struct {
	// sequences are those of the raw blocks before the tables and of the
	// serial and identity columns (<table>_<column>_seq, as PostgreSQL
	// names them); relations add the tables and the raw blocks' tables and
	// views. Names are as PostgreSQL folds them, schema-qualified outside
	// public.
	sequences, relations map[string]bool
	// functions are those the raw blocks before the tables create, and
	// those of the declared extensions the snapshot knows.
	functions map[string]bool
	// late are the names the raw blocks after the tables create, with the
	// block: they do not exist yet when the tables are created.
	late map[string]string
	// unknownExt are the declared extensions the snapshot does not know:
	// a function they may create cannot be told from a misspelt one.
	unknownExt []string
}

// known reads what the model creates on PostgreSQL, once.
func (l *lowerer) known() *created {
	if l.made != nil {
		return l.made
	}
	k := &created{sequences: map[string]bool{}, relations: map[string]bool{}, functions: map[string]bool{}, late: map[string]string{}}
	l.made = k
	cat := builtin.Get()
	for _, e := range l.schema.Extensions {
		x := cat.Extensions[e.Name]
		if x == nil {
			k.unknownExt = append(k.unknownExt, e.Name)
			continue
		}
		for f := range x.Functions {
			k.functions[f] = true
		}
	}
	for _, r := range l.schema.Raw {
		toks := stmtlex.Tokenize(r.SQL[Name], rawGrammar)
		for i, tk := range toks {
			if tk.Depth != 0 || tk.Kind != stmtlex.Word || tk.Upper() != "CREATE" {
				continue
			}
			kind, name := createdObject(toks[i+1:])
			if name == "" {
				continue
			}
			if r.After {
				if _, ok := k.late[name]; !ok {
					k.late[name] = r.Name
				}
				continue
			}
			switch kind {
			case "FUNCTION", "PROCEDURE", "AGGREGATE":
				k.functions[name] = true
			case "SEQUENCE":
				k.sequences[name] = true
				k.relations[name] = true
			case "TABLE", "VIEW":
				k.relations[name] = true
			}
		}
	}
	for _, t := range l.schema.Tables {
		if t.Overrides.Skipped(Name) {
			continue
		}
		k.relations[t.Name] = true
		for _, c := range t.Columns {
			o := c.Overrides.For(Name)
			if c.Identity != nil || o != nil && strings.Contains(strings.ToLower(o.RawType), "serial") {
				k.sequences[t.Name+"_"+c.Name+"_seq"] = true
				k.relations[t.Name+"_"+c.Name+"_seq"] = true
			}
		}
	}
	return k
}

// createdObject reads the kind and name of what a CREATE statement creates
// from the tokens after CREATE: FUNCTION, PROCEDURE, AGGREGATE, SEQUENCE,
// TABLE or VIEW (a materialized one too), or "" for others.
func createdObject(toks []stmtlex.Token) (kind, name string) {
	i := 0
	for ; i < len(toks) && toks[i].Kind == stmtlex.Word; i++ {
		switch w := toks[i].Upper(); w {
		case "OR", "REPLACE", "TEMP", "TEMPORARY", "UNLOGGED", "GLOBAL", "LOCAL", "RECURSIVE", "MATERIALIZED":
			continue
		case "FUNCTION", "PROCEDURE", "AGGREGATE", "SEQUENCE", "TABLE", "VIEW":
			kind = w
		}
		break
	}
	if kind == "" || i >= len(toks) {
		return "", ""
	}
	i++
	if i+2 < len(toks) && toks[i].Upper() == "IF" && toks[i+1].Upper() == "NOT" && toks[i+2].Upper() == "EXISTS" {
		i += 3
	}
	name, _ = qualifiedAt(toks, i)
	return kind, name
}

// qualifiedAt reads the name, [schema.]name, at toks[i], folded as
// PostgreSQL folds it and without the schema public, and the index of its
// last token; "" when no name is there.
func qualifiedAt(toks []stmtlex.Token, i int) (string, int) {
	var parts []string
	for ; i < len(toks); i += 2 {
		if toks[i].Kind != stmtlex.Word && toks[i].Kind != stmtlex.DQuote {
			break
		}
		parts = append(parts, identName(toks[i]))
		if i+1 >= len(toks) || toks[i+1].Text != "." {
			break
		}
	}
	if len(parts) == 0 {
		return "", i
	}
	return qualified(parts), i
}

func identName(t stmtlex.Token) string {
	if t.Kind == stmtlex.DQuote {
		return stmtlex.Unquote(t)
	}
	return strings.ToLower(t.Text)
}

// qualified joins a name's parts, without the schema public.
func qualified(parts []string) string {
	if len(parts) == 2 && parts[0] == "public" {
		return parts[1]
	}
	return strings.Join(parts, ".")
}

// relationIn reads the relation a string names ('x', '"X"', 's.x'), as
// regclass does.
func relationIn(lit string) string {
	lit = strings.TrimLeft(lit, "Ee")
	s := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(lit, "'"), "'"), "''", "'")
	toks := stmtlex.Tokenize(s, rawGrammar)
	name, _ := qualifiedAt(toks, 0)
	return name
}

// rawText is one raw PostgreSQL text to check: the object it belongs to,
// how the messages name it ("The default X of t.c"), where it is, and
// whether it is a whole CREATE INDEX statement.
type rawText struct {
	object compiler.ObjectRef
	what   string
	text   string
	rng    hcl.Range
	index  bool
}

// checkRaw resolves the functions a raw PostgreSQL text calls and the
// sequences and relations it names (nextval, currval, setval, ::regclass,
// ::regclass) against PostgreSQL's catalog (package builtin),
// the declared extensions and what the model creates before its tables:
// an unknown one would fail only when the DDL runs (42883, 42P01), so it is
// an error at the text. PostgreSQL's parser is not at hand: the syntax,
// columns, types and operators are left to PostgreSQL, and explain says
// so, with the names that could not be resolved either way.
func (l *lowerer) checkRaw(r rawText) {
	k, cat := l.known(), builtin.Get()
	toks := stmtlex.Tokenize(r.text, rawGrammar)
	skip := map[int]bool{}
	var unchecked []string
	relation := func(name, why string) {
		switch {
		case k.relations[name]:
		case k.late[name] != "":
			l.rec.Errorf(r.rng, "Created after the tables", "%s names %s %q, which raw block %q creates after the tables: the DDL would fail before it runs. Give the block position = \"before_tables\".", r.what, why, name, k.late[name])
		case strings.Contains(name, ".") && !strings.HasPrefix(name, "pg_catalog."):
			unchecked = append(unchecked, why+" "+name)
		default:
			l.rec.Errorf(r.rng, "Unknown relation", "%s names %s %q, which the model does not create: name one of its tables, or add a raw block with position = \"before_tables\" that creates it.", r.what, why, name)
		}
	}
	if r.index {
		for i, tk := range toks {
			if tk.Depth != 0 || tk.Kind != stmtlex.Word {
				continue
			}
			switch tk.Upper() {
			case "ON":
				j := i + 1
				if j < len(toks) && toks[j].Upper() == "ONLY" {
					j++
				}
				// The table: the dialect's rules check that it is the
				// index's (rules.RawIndexes).
				_, last := qualifiedAt(toks, j)
				for ; j <= last && j < len(toks); j++ {
					skip[j] = true
				}
			case "USING": // the method: USING gin (...)
				skip[i+1] = true
			case "INCLUDE":
				skip[i] = true
			}
		}
	}
	sequenceArg := map[int]bool{}
	for i, tk := range toks {
		if tk.Kind != stmtlex.Word && tk.Kind != stmtlex.DQuote || skip[i] || i+1 >= len(toks) || toks[i+1].Text != "(" {
			continue
		}
		if i > 0 && (toks[i-1].Kind == stmtlex.Cast || toks[i-1].Upper() == "AS") {
			continue // a type's modifiers: ::numeric(10, 2)
		}
		parts := []string{identName(tk)}
		if i >= 2 && toks[i-1].Text == "." && (toks[i-2].Kind == stmtlex.Word || toks[i-2].Kind == stmtlex.DQuote) {
			parts = []string{identName(toks[i-2]), parts[0]}
		}
		name := qualified(parts)
		if len(parts) == 1 && tk.Kind == stmtlex.Word && (cat.Keywords[name] || cat.Types[name]) {
			continue // syntax (COALESCE, IN, ARRAY) or a type's modifiers
		}
		switch {
		case len(parts) == 1 && cat.Functions[name], strings.HasPrefix(name, "pg_catalog.") && cat.Functions[parts[1]], k.functions[name]:
		case k.late[name] != "":
			l.rec.Errorf(r.rng, "Created after the tables", "%s calls function %s, which raw block %q creates after the tables: the DDL would fail (42883) before it runs. Give the block position = \"before_tables\".", r.what, name, k.late[name])
		case len(k.unknownExt) > 0 || len(parts) == 2 && parts[0] != "pg_catalog":
			unchecked = append(unchecked, "function "+name)
		default:
			l.rec.Errorf(r.rng, "Unknown function", "%s calls function %s, which is not PostgreSQL's (%s), nor of a declared extension, nor created by a raw block before the tables: the DDL would fail (42883). Declare its extension (extension \"NAME\" {}) or add a raw block with position = \"before_tables\" that creates it.", r.what, name, cat.Version)
		}
		if fn := strings.TrimPrefix(name, "pg_catalog."); (fn == "nextval" || fn == "currval" || fn == "setval") && i+2 < len(toks) && toks[i+2].Kind == stmtlex.String {
			sequenceArg[i+2] = true
			seq := relationIn(toks[i+2].Text)
			switch {
			case k.sequences[seq]:
			case k.late[seq] != "":
				l.rec.Errorf(r.rng, "Created after the tables", "%s draws from sequence %q, which raw block %q creates after the tables: the DDL would fail before it runs. Give the block position = \"before_tables\".", r.what, seq, k.late[seq])
			case strings.Contains(seq, "."):
				unchecked = append(unchecked, "sequence "+seq)
			default:
				l.rec.Errorf(r.rng, "Unknown sequence", "%s draws from sequence %q, which the model does not create: add a raw block that creates it (CREATE SEQUENCE) with position = \"before_tables\", or make the column an identity.", r.what, seq)
			}
		}
	}
	for i, tk := range toks {
		if tk.Kind == stmtlex.String && !sequenceArg[i] && i+2 < len(toks) && toks[i+1].Kind == stmtlex.Cast && strings.EqualFold(toks[i+2].Text, "regclass") {
			relation(relationIn(tk.Text), "relation")
		}
	}
	note := fmt.Sprintf("%s: the functions, sequences and relations it names are resolved against PostgreSQL %s's catalog, the declared extensions and the model; its syntax, columns, types and operators are checked by PostgreSQL when the DDL runs", r.what, cat.Version)
	if len(unchecked) > 0 {
		why := "in a schema the model does not create"
		if len(k.unknownExt) > 0 {
			why = "perhaps of the extensions " + strings.Join(k.unknownExt, ", ") + ", whose objects schemagen does not know"
		}
		note += fmt.Sprintf("; not resolved (%s): %s", why, strings.Join(unchecked, ", "))
	}
	l.rec.Decide(r.object, dialects.Overridden, "%s", note)
}

// rawDefault checks a column's raw PostgreSQL default (checkRaw).
func (l *lowerer) rawDefault(t *compiler.Table, c *compiler.Column, o *compiler.Override) {
	l.checkRaw(rawText{object: t.Ref(compiler.KindColumn, c.Name), what: fmt.Sprintf("The default %s of %s.%s", o.Default, t.Name, c.Name), text: o.Default, rng: o.Range})
}
