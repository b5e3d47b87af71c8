package expr

// DataFunctions are the functions of data statements beyond Functions,
// each with one meaning on both databases (docs/data-migrations.md): the
// dialects render each where the databases differ (NULL, empty strings,
// out-of-range positions, negative lengths), and the checker refuses the
// arguments whose meaning they cannot keep.
var DataFunctions = map[string]bool{
	"substring": true, "position": true, "split_part": true, "replace": true, "trim": true, "ltrim": true,
	"rtrim": true, "concat": true, "left": true, "right": true, "lpad": true, "rpad": true,
	"greatest": true, "least": true, "date_trunc": true,
}
