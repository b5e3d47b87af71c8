package plantest

import (
	"context"
	"fmt"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/plantest/evolve"
)

// Reproduce runs two steps, before (as HCL; none when empty) and then
// after, with rows of rowSeed, and returns the failure of the second.
func (r *Runner) Reproduce(ctx context.Context, rowSeed uint64, before, after string, what string) (*Failure, error) {
	ev, err := r.start(ctx, 0, true)
	if err != nil {
		return nil, err
	}
	defer ev.close()
	ev.rowSeed = rowSeed
	if strings.TrimSpace(before) != "" {
		f, err := ev.run(ctx, []byte(before), nil)
		if err != nil || f != nil {
			if f != nil {
				f.Kind = "before: " + f.Kind
			}
			return f, err
		}
	}
	f, err := ev.run(ctx, []byte(after), []*evolve.Edit{{What: what}})
	if f != nil {
		f.After = after
	}
	return f, err
}

// ReproduceData runs model (as HCL) with rows of rowSeed, then places the
// data migration data over it, as the oracle places one between steps,
// and returns the failure of the data step or of the step after it (to
// the same model).
func (r *Runner) ReproduceData(ctx context.Context, rowSeed uint64, model, data string) (*Failure, error) {
	ev, err := r.start(ctx, 0, true)
	if err != nil {
		return nil, err
	}
	defer ev.close()
	ev.rowSeed = rowSeed
	if f, err := ev.run(ctx, []byte(model), nil); err != nil || f != nil {
		if f != nil {
			f.Kind = "before: " + f.Kind
		}
		return f, err
	}
	ev.dataSQL, ev.dataHCL = data, model
	return ev.run(ctx, []byte(model), []*evolve.Edit{{What: "no change"}})
}

// Shrink makes f smaller while the same kind of failure stays: one edit of
// the step's, then parts of the model before it removed one at a time.
// budget bounds the number of runs.
func (r *Runner) Shrink(ctx context.Context, f *Failure, budget int) (*Failure, error) {
	if f.Data != "" {
		// A data migration names the model's tables and columns: the
		// failure is printed with its whole model (Regression).
		return f, nil
	}
	try := func(before *difftest.Model, edits []*evolve.Edit) (bool, error) {
		if budget <= 0 {
			return false, nil
		}
		after := before.Clone()
		for _, e := range edits {
			if !e.Apply(after) {
				return false, nil
			}
		}
		if !evolve.ViewsValid(before) || !evolve.ViewsValid(after) || gen.CompileSource("schema.hcl", []byte(after.HCL())).Failed() || len(before.Tables) > 0 && gen.CompileSource("schema.hcl", []byte(before.HCL())).Failed() {
			return false, nil
		}
		budget--
		nf, err := r.Reproduce(ctx, f.RowSeed, before.HCL(), after.HCL(), describe(edits))
		if err != nil || nf == nil || nf.Kind != f.Kind {
			return false, err
		}
		nf.Seed, nf.Before, nf.Edits = f.Seed, before, edits
		f = nf
		return true, nil
	}
	if f.After == "" {
		// The failure as found, for its After text.
		if ok, err := try(f.Before, f.Edits); err != nil || !ok {
			f.After = applyAll(f.Before, f.Edits).HCL()
			if err != nil {
				return f, err
			}
			if f.Seed != 0 && f.Steps > 0 {
				// It needs the steps before (evolution 61616184896:
				// a data migration had changed the rows): no smaller
				// model shows it either.
				f.Unreproduced = true
				return f, nil
			}
		}
	}
	if len(f.Edits) > 1 {
		for _, e := range f.Edits {
			ok, err := try(f.Before, []*evolve.Edit{e})
			if err != nil {
				return f, err
			}
			if ok {
				break
			}
		}
	}
	for changed := true; changed && budget > 0; {
		changed = false
		for _, cand := range difftest.Reductions(f.Before) {
			ok, err := try(cand, f.Edits)
			if err != nil {
				return f, err
			}
			if ok {
				changed = true
				break
			}
		}
	}
	return f, nil
}

func applyAll(m *difftest.Model, edits []*evolve.Edit) *difftest.Model {
	c := m.Clone()
	for _, e := range edits {
		e.Apply(c)
	}
	return c
}

// Regression writes f as a Go test to paste into regression_test.go.
func (f *Failure) Regression(name string) string {
	quote := func(s string) string { return "`\n" + strings.ReplaceAll(s, "`", "` + \"`\" + `") + "`" }
	before := ""
	if f.Before != nil && len(f.Before.Tables) > 0 {
		before = f.Before.HCL()
	}
	if f.Data != "" {
		return fmt.Sprintf("// %s\nfunc Test%s(t *testing.T) {\n\tplantest.ReplayData(t, %d, %s, %s)\n}\n",
			strings.ReplaceAll(strings.TrimSpace(f.What), "\n", "\n// "), name, f.RowSeed, quote(before), quote(f.Data))
	}
	if f.Unreproduced {
		return fmt.Sprintf("// %s\n// The step passes over its models alone: the evolution is replayed by its seed.\nfunc Test%s(t *testing.T) {\n\tplantest.ReplayEvolution(t, %d, %d)\n}\n",
			strings.ReplaceAll(strings.TrimSpace(f.What), "\n", "\n// "), name, f.Seed, f.Steps)
	}
	replay := "Replay"
	if strings.HasPrefix(f.Kind, "lint ") {
		// Lint found it: the test lints as the oracle does.
		replay = "ReplayLinted"
	}
	return fmt.Sprintf("// %s\nfunc Test%s(t *testing.T) {\n\tplantest.%s(t, %d, %s, %s)\n}\n",
		strings.ReplaceAll(strings.TrimSpace(f.What), "\n", "\n// "), name, replay, f.RowSeed, quote(before), quote(f.After))
}
