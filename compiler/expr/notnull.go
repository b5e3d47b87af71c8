package expr

// NotNullOn returns the columns that n requires to be non-null when n is a
// conjunction of `col IS NOT NULL` tests, or nil.
func NotNullOn(n Node) []string {
	switch n := n.(type) {
	case *Paren:
		return NotNullOn(n.X)
	case *IsNull:
		if c, ok := n.X.(*Column); ok && n.Not {
			return []string{c.Name}
		}
	case *Binary:
		if n.Op == OpAnd {
			l, r := NotNullOn(n.L), NotNullOn(n.R)
			if l != nil && r != nil {
				return append(l, r...)
			}
		}
	}
	return nil
}
