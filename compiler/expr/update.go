package expr

// from adds the tables of UPDATE ... FROM to the target's scope. A LEFT
// JOIN is refused: PostgreSQL's FROM cannot join to the target, so its
// ON moves to WHERE, which only an inner join allows.
func (a *analyzer) from(u *Update) {
	f := u.From
	a.table(a.sc, f.From)
	for _, j := range f.Joins {
		if j.Left {
			a.errAt(j.Table.Offset(), "a LEFT JOIN in UPDATE ... FROM has no portable form (PostgreSQL cannot join to the updated table); read a value that may be missing with a scalar subquery, SET c = (SELECT ...)")
		}
		a.table(a.sc, j.Table)
		j.On = a.cond(j.On, "ON")
	}
}

// owner is the table (its name in the query) that the column c of the
// current scope belongs to.
func (a *analyzer) owner(c *Column) string {
	if c.Table != "" {
		return c.Table
	}
	for _, t := range a.sc.tables {
		if t.table.Column(c.Name) != nil {
			return t.ref.Ref()
		}
	}
	return ""
}
