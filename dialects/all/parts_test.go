package all_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
)

// parts are the interfaces package dialects declares, by name: what a
// dialect is made of. TestParts fails on one declared there and missing
// here, so that every part is listed.
var parts = map[string]reflect.Type{
	"Dialect":          typeOf[dialects.Dialect](),
	"Named":            typeOf[dialects.Named](),
	"Gen":              typeOf[dialects.Gen](),
	"DB":               typeOf[dialects.DB](),
	"Atlas":            typeOf[dialects.Atlas](),
	"Lint":             typeOf[dialects.Lint](),
	"Database":         typeOf[dialects.Database](),
	"Describer":        typeOf[dialects.Describer](),
	"IndexChange":      typeOf[dialects.IndexChange](),
	"StmtRules":        typeOf[dialects.StmtRules](),
	"Revisions":        typeOf[dialects.Revisions](),
	"Online":           typeOf[dialects.Online](),
	"Sessions":         typeOf[dialects.Sessions](),
	"RowCounter":       typeOf[dialects.RowCounter](),
	"RuleBook":         typeOf[dialects.RuleBook](),
	"ErrorDetailer":    typeOf[dialects.ErrorDetailer](),
	"DataRenderer":     typeOf[dialects.DataRenderer](),
	"Batcher":          typeOf[dialects.Batcher](),
	"ObjectDialect":    typeOf[dialects.ObjectDialect](),
	"TriggerDialect":   typeOf[dialects.TriggerDialect](),
	"Importer":         typeOf[dialects.Importer](),
	"KeyTyper":         typeOf[dialects.KeyTyper](),
	"TypeReader":       typeOf[dialects.TypeReader](),
	"CaseKeyer":        typeOf[dialects.CaseKeyer](),
	"ShapeReader":      typeOf[dialects.ShapeReader](),
	"DeferrableReader": typeOf[dialects.DeferrableReader](),
	"IndexReader":      typeOf[dialects.IndexReader](),
	"CheckTexter":      typeOf[dialects.CheckTexter](),
	"ColumnClauser":    typeOf[dialects.ColumnClauser](),
	"IdentityReader":   typeOf[dialects.IdentityReader](),
	"IdentityNoter":    typeOf[dialects.IdentityNoter](),
	"LayoutReader":     typeOf[dialects.LayoutReader](),
	"TTLReader":        typeOf[dialects.TTLReader](),
	"PartitionReader":  typeOf[dialects.PartitionReader](),
	"OnUpdater":        typeOf[dialects.OnUpdater](),
	"OnUpdateReader":   typeOf[dialects.OnUpdateReader](),
	"NotNullReader":    typeOf[dialects.NotNullReader](),
	"OwnChecker":       typeOf[dialects.OwnChecker](),
	"GeneratedTexter":  typeOf[dialects.GeneratedTexter](),
	"GeneratedKeyer":   typeOf[dialects.GeneratedKeyer](),
	"SerialFixer":      typeOf[dialects.SerialFixer](),
	"RawObjectReader":  typeOf[dialects.RawObjectReader](),
	"SettingsInferrer": typeOf[dialects.SettingsInferrer](),
	"DomainReader":     typeOf[dialects.DomainReader](),
	"RawTypeNoter":     typeOf[dialects.RawTypeNoter](),
	"OnUpdateFolder":   typeOf[dialects.OnUpdateFolder](),
	"ColumnCollator":   typeOf[dialects.ColumnCollator](),
	"RangeReader":      typeOf[dialects.RangeReader](),
	"IdentityFolder":   typeOf[dialects.IdentityFolder](),
	"PrimaryKeyNamer":  typeOf[dialects.PrimaryKeyNamer](),
}

// embeddedFrom are the interfaces of other packages that parts embed.
var embeddedFrom = map[string]reflect.Type{
	"migrate.RevisionReadWriter": typeOf[migrate.RevisionReadWriter](),
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// wantParts is what each registered dialect implements, beyond Dialect and
// the parts it is made of (every dialect has those).
var wantParts = map[string][]string{
	"postgres": {"Batcher", "ColumnClauser", "DataRenderer", "DeferrableReader", "DomainReader", "ErrorDetailer", "GeneratedTexter", "IdentityFolder", "IdentityReader", "Importer", "IndexReader", "NotNullReader", "ObjectDialect", "OnUpdateReader", "Online", "PartitionReader", "PrimaryKeyNamer", "RawObjectReader", "RawTypeNoter", "RowCounter", "RuleBook", "SerialFixer", "Sessions", "TriggerDialect"},
	"tidb":     {"Batcher", "CaseKeyer", "CheckTexter", "ColumnClauser", "ColumnCollator", "DataRenderer", "DomainReader", "GeneratedKeyer", "IdentityFolder", "IdentityNoter", "IdentityReader", "Importer", "IndexReader", "KeyTyper", "LayoutReader", "ObjectDialect", "OnUpdateFolder", "OnUpdater", "Online", "OwnChecker", "PartitionReader", "RangeReader", "RawTypeNoter", "RowCounter", "RuleBook", "Sessions", "SettingsInferrer", "ShapeReader", "TTLReader", "TypeReader"},
}

// declaredInterfaces parses package dialects (non-test files) and returns
// its interface types by name.
func declaredInterfaces(t *testing.T) map[string]*ast.InterfaceType {
	t.Helper()
	files, err := filepath.Glob("../*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.InterfaceType{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if it, ok := ts.Type.(*ast.InterfaceType); ok {
					out[ts.Name.Name] = it
				}
			}
			return true
		})
	}
	return out
}

// TestInterfaceSizes: every interface of package dialects shows at most 8
// entries in `go doc` (methods and the parts it embeds), and every one but
// Dialect, which is only made of parts, has at most 8 methods in all.
func TestInterfaceSizes(t *testing.T) {
	const most = 8
	decl := declaredInterfaces(t)
	var flat func(name string) int
	flat = func(name string) int {
		n := 0
		for _, f := range decl[name].Methods.List {
			switch x := f.Type.(type) {
			case *ast.FuncType:
				n += len(f.Names)
			case *ast.Ident:
				n += flat(x.Name)
			case *ast.SelectorExpr:
				key := x.X.(*ast.Ident).Name + "." + x.Sel.Name
				rt, ok := embeddedFrom[key]
				if !ok {
					t.Fatalf("%s embeds %s: add it to embeddedFrom", name, key)
				}
				n += rt.NumMethod()
			}
		}
		return n
	}
	for name, it := range decl {
		shown := 0
		for _, f := range it.Methods.List {
			shown += max(len(f.Names), 1)
		}
		if shown > most {
			t.Errorf("dialects.%s shows %d methods and parts, more than %d", name, shown, most)
		}
		if all := flat(name); all > most && name != "Dialect" {
			t.Errorf("dialects.%s has %d methods, more than %d: split it into parts", name, all, most)
		}
		t.Logf("dialects.%s: %d entries, %d methods", name, shown, flat(name))
	}
}

// TestParts lists the parts each registered dialect implements, and fails
// on a part declared in package dialects that the list above does not know.
func TestParts(t *testing.T) {
	for name := range declaredInterfaces(t) {
		if parts[name] == nil {
			t.Errorf("dialects.%s is not in parts: add it", name)
		}
	}
	base := []string{"Atlas", "DB", "Database", "Describer", "Dialect", "Gen", "Lint", "Named", "Revisions", "StmtRules"}
	for _, d := range all.Dialects() {
		rt := reflect.TypeOf(d)
		var has, extra []string
		for name, p := range parts {
			if rt.Implements(p) {
				has = append(has, name)
				if !slices.Contains(base, name) {
					extra = append(extra, name)
				}
			}
		}
		sort.Strings(has)
		sort.Strings(extra)
		t.Logf("%s implements %s", d.Name(), strings.Join(has, ", "))
		for _, b := range base {
			if b != "Revisions" && !slices.Contains(has, b) {
				t.Errorf("%s does not implement %s", d.Name(), b)
			}
		}
		if want, ok := wantParts[d.Name()]; ok && !slices.Equal(extra, want) {
			t.Errorf("%s implements the optional parts\n  %q\nwant\n  %q", d.Name(), extra, want)
		}
	}
}

// TestNoHiddenInterfaces fails when code outside dialects/ asks a value for
// an unexported interface it declares itself (or one spelt inline), instead
// of a part declared in package dialects: what a dialect may provide is then
// hidden from those who write one. An alias of a part is not hidden.
func TestNoHiddenInterfaces(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	byDir := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if e.IsDir() {
			if rel == "dialects" || rel == "tools" || strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			byDir[filepath.Dir(path)] = append(byDir[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(byDir) < 10 {
		t.Fatalf("found %d packages under %s: the walk is wrong", len(byDir), root)
	}
	fset := token.NewFileSet()
	asserts := 0
	for _, files := range byDir {
		hidden := map[string]bool{}
		var parsed []*ast.File
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(src), "//go:build ignore") {
				continue
			}
			f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, f)
			ast.Inspect(f, func(n ast.Node) bool {
				if ts, ok := n.(*ast.TypeSpec); ok && !ts.Assign.IsValid() && !ts.Name.IsExported() {
					if _, ok := ts.Type.(*ast.InterfaceType); ok {
						hidden[ts.Name.Name] = true
					}
				}
				return true
			})
		}
		check := func(x ast.Expr) {
			asserts++
			switch x := x.(type) {
			case *ast.Ident:
				if hidden[x.Name] {
					t.Errorf("%s: asserts %s, an unexported interface its package declares: declare it in package dialects, as a part", fset.Position(x.Pos()), x.Name)
				}
			case *ast.InterfaceType:
				t.Errorf("%s: asserts an interface spelt inline: declare it in package dialects, as a part", fset.Position(x.Pos()))
			}
		}
		for _, f := range parsed {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.TypeAssertExpr:
					if n.Type != nil {
						check(n.Type)
					}
				case *ast.TypeSwitchStmt:
					for _, c := range n.Body.List {
						for _, x := range c.(*ast.CaseClause).List {
							check(x)
						}
					}
				}
				return true
			})
		}
	}
	if asserts == 0 {
		t.Fatal("no type assertion found anywhere: the scan is wrong")
	}
}

// wholeDialect are the functions outside dialects/ that may take the whole
// Dialect, by package and name, with why: they call more than one of its
// required parts (see the rule in the doc of dialects.Dialect).
var wholeDialect = map[string]string{
	"read.Database": "Atlas (OpenAtlas) and Gen (ParseExpr), with Importer and the import hooks",
}

// TestConsumersTakeParts fails when a function outside dialects/ takes the
// whole dialects.Dialect (alone, in a slice, array or variadic) without
// being in wholeDialect: a consumer takes the part it calls. It also fails
// when an entry of wholeDialect no longer exists, so that the list stays
// true.
func TestConsumersTakeParts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	isDialect := func(x ast.Expr) bool {
		for {
			switch y := x.(type) {
			case *ast.ArrayType:
				x = y.Elt
				continue
			case *ast.Ellipsis:
				x = y.Elt
				continue
			case *ast.SelectorExpr:
				id, ok := y.X.(*ast.Ident)
				return ok && id.Name == "dialects" && y.Sel.Name == "Dialect"
			}
			return false
		}
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	funcs := 0
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if e.IsDir() {
			if rel == "dialects" || rel == "tools" || strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			funcs++
			key := f.Name.Name + "." + fd.Name.Name
			for _, p := range fd.Type.Params.List {
				if !isDialect(p.Type) {
					continue
				}
				seen[key] = true
				if _, ok := wholeDialect[key]; !ok {
					t.Errorf("%s: %s takes the whole dialects.Dialect: take the part it calls (see dialects.Dialect's doc), or list it in wholeDialect with the parts it calls", fset.Position(p.Pos()), key)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if funcs < 500 {
		t.Fatalf("found %d functions under %s: the walk is wrong", funcs, root)
	}
	for key := range wholeDialect {
		if !seen[key] {
			t.Errorf("wholeDialect lists %s, which takes no dialects.Dialect (any more): remove it", key)
		}
	}
}
