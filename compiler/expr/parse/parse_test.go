package parse_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/expr/parse"
)

// TestExprTerms reads portable text into raw terms: precedence, offsets
// and the parentheses written, before any meaning is given.
func TestExprTerms(t *testing.T) {
	src := "(a + 1) * 2 = b OR NOT c"
	term, err := parse.Expr(parse.Portable, src)
	if err != nil {
		t.Fatal(err)
	}
	if term.Kind != parse.TermBinary || term.Text != "or" {
		t.Fatalf("top term is %v %q, want the OR", term.Kind, term.Text)
	}
	eq := term.Args[0]
	if eq.Kind != parse.TermBinary || eq.Text != "=" {
		t.Fatalf("left of OR is %q, want =", eq.Text)
	}
	mul := eq.Args[0]
	if mul.Text != "*" || !mul.Args[0].Group() || mul.Args[0].Text != "+" || mul.Args[0].Parens[0] != 0 {
		t.Fatalf("(a + 1) * 2 read as %q over %q (parens %v)", mul.Text, mul.Args[0].Text, mul.Args[0].Parens)
	}
	if not := term.Args[1]; not.Kind != parse.TermUnary || not.Text != "not" || not.Args[0].Off != strings.LastIndex(src, "c") {
		t.Fatalf("NOT c read as %v %q at %d", not.Kind, not.Text, not.Args[0].Off)
	}
	other, err := parse.Expr(parse.Portable, "((a+1))*2 = b or not c")
	if err != nil || !other.Same(term) {
		t.Fatalf("the same expression written otherwise is not Same: %v", err)
	}
}

// TestExprRefused stops at what the grammar refuses, at its offset.
func TestExprRefused(t *testing.T) {
	_, err := parse.Expr(parse.Portable, "a / 2 = 1")
	e, ok := err.(*parse.Error)
	if !ok || e.Offset != 2 || !strings.Contains(e.Msg, "division") {
		t.Fatalf("a / 2: got %v, want the division refusal at offset 2", err)
	}
}

// TestStmtsAndTokens reads a data migration's statements and lexes a
// dialect's statement text into spans.
func TestStmtsAndTokens(t *testing.T) {
	stmts, err := parse.Stmts("UPDATE t SET a = 1 WHERE b IS NULL; DELETE FROM t WHERE a = 2")
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 2 || stmts[0].Kind != "update" || stmts[1].Kind != "delete" || stmts[1].Table.Name != "t" {
		t.Fatalf("read %d statements: %+v", len(stmts), stmts)
	}
	g := &parse.Grammar{IdentQuote: '"', DollarStrings: true, Operators: []string{"::"}}
	var kinds []parse.SpanKind
	for _, sp := range parse.Tokens(g, `ALTER TABLE "t" ADD CHECK (x <> $$a$$)`) {
		kinds = append(kinds, sp.Kind)
	}
	want := []parse.SpanKind{parse.SpanWord, parse.SpanWord, parse.SpanQuoted, parse.SpanWord, parse.SpanWord}
	if len(kinds) < len(want) {
		t.Fatalf("spans %v", kinds)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("span %d is %v, want %v (all: %v)", i, kinds[i], want[i], kinds)
		}
	}
	var str bool
	for _, sp := range parse.Tokens(g, `ALTER TABLE "t" ADD CHECK (x <> $$a$$)`) {
		str = str || sp.Kind == parse.SpanString
	}
	if !str {
		t.Fatal("the dollar-quoted string is not a string span")
	}
}
