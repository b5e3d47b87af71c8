package expr

// Checker is the analysis as the checks of package datacheck see it: the
// functions, casts and batches of data statements, which CHECKs and index
// expressions do not have.
type Checker interface {
	// Kind checks n and returns the kind of its value.
	Kind(n Node) Kind
	// Want checks that x has kind k (a uuid counts as a string).
	Want(x Node, k Kind, what string)
	// OneKind checks that the arguments of n have one kind, as coalesce's,
	// and returns it.
	OneKind(n *Call) Kind
	Errorf(n Node, format string, args ...any)
	ErrAt(off int, format string, args ...any)
	Table(name string) *CatalogTable
	// Owner is the table (its name in the query) that c belongs to, ""
	// for one of the queries around it.
	Owner(c *Column) string
	// Outer are the names of the tables of the queries around this one.
	Outer() []string
}

// DataChecks are the checks of data statements that package datacheck
// holds; it sets them when it is linked in (internal/datamig imports it),
// and AnalyzeStmts refuses to run without them.
var DataChecks struct {
	// Call checks a call of one of DataFunctions and returns its kind.
	Call func(c Checker, n *Call) Kind
	// Cast checks a cast and returns the kind it gives.
	Cast func(c Checker, n *Cast) Kind
	// Batch checks the BATCH of a statement of table t (n rows, at off)
	// that sets set (nil: a DELETE).
	Batch func(c Checker, t *TableRef, n, off int, set []Assign)
	// Pinned checks that each row of an UPDATE ... FROM meets at most one
	// row of the other tables.
	Pinned func(c Checker, u *Update)
	// Scalar checks that a scalar subquery finds at most one row; it runs
	// in the subquery's scope.
	Scalar func(c Checker, q *Select)
}

func (a *analyzer) Kind(n Node) Kind                          { return a.kind(n) }
func (a *analyzer) Want(x Node, k Kind, what string)          { a.want(x, k, what) }
func (a *analyzer) OneKind(n *Call) Kind                      { return a.coalesce(n) }
func (a *analyzer) Errorf(n Node, format string, args ...any) { a.errorf(n, format, args...) }
func (a *analyzer) ErrAt(off int, format string, args ...any) { a.errAt(off, format, args...) }
func (a *analyzer) Table(name string) *CatalogTable           { return a.cat(name) }
func (a *analyzer) Owner(c *Column) string                    { return a.owner(c) }

func (a *analyzer) Outer() []string {
	var out []string
	for sc := a.sc.outer; sc != nil; sc = sc.outer {
		for _, t := range sc.tables {
			out = append(out, t.ref.Ref())
		}
	}
	return out
}
