package scratch

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects"
)

// History is what the kept states of one migration directory held: every
// file a kept state was reached through, with the hash of its text then.
// A file of the directory with one of these names and another text was
// edited after its state was kept, which `migrate apply` would refuse on a
// database that applied it; only the files the latest `migrate diff`
// wrote (Editable) are reviewed and edited before anyone applies them.
type History struct {
	Files []HistoryFile `json:"files"`
	// Editable names the files the latest migrate diff wrote here.
	Editable []string `json:"editable,omitempty"`
}

// HistoryFile is one file of a History.
type HistoryFile struct {
	Name string `json:"name"`
	Sum  string `json:"sum"` // base64 SHA-256 of its text, as atlas.sum's
}

// FileSum is the hash of a file's text as History records it.
func FileSum(f migrate.File) string {
	h := sha256.Sum256(f.Bytes())
	return base64.StdEncoding.EncodeToString(h[:])
}

// historyKey names the History of the directory at dirPath of dialect d:
// unlike the states, it outlives schemagen builds and dev databases, which
// do not change what a file was.
func historyKey(d dialects.Named, dirPath string) string {
	if abs, err := filepath.Abs(dirPath); err == nil {
		dirPath = abs
	}
	return chain("", cacheFormat, "history", d.Name(), dirPath)
}

// History returns the History of a directory, nil when none is kept.
func (c *Cache) History(d dialects.Named, dirPath string) *History {
	if c == nil || c.Dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(c.Dir, "history", historyKey(d, dirPath)))
	if err != nil {
		return nil
	}
	var h History
	if json.Unmarshal(b, &h) != nil {
		return nil
	}
	return &h
}

// Edited returns the first file of files that h holds with another text,
// but for the Editable ones ("" when none).
func (h *History) Edited(files []migrate.File) string {
	if h == nil {
		return ""
	}
	sums := make(map[string]string, len(h.Files))
	for _, f := range h.Files {
		sums[f.Name] = f.Sum
	}
	for _, f := range files {
		if sum, ok := sums[f.Name()]; ok && sum != FileSum(f) && !slices.Contains(h.Editable, f.Name()) {
			return f.Name()
		}
	}
	return ""
}

// MarkHistory records that a state was kept through files (a prefix of
// the directory at dirPath); written names the files migrate diff has just
// written there (nil: none, the Editable ones stay). A history that holds
// files as they are and more is left as it is.
func (c *Cache) MarkHistory(d dialects.Named, dirPath string, files []migrate.File, written []string) {
	if c == nil || c.Dir == "" {
		return
	}
	old := c.History(d, dirPath)
	h := History{Editable: written}
	if written == nil && old != nil {
		h.Editable = old.Editable
	}
	for _, f := range files {
		h.Files = append(h.Files, HistoryFile{Name: f.Name(), Sum: FileSum(f)})
	}
	if written == nil && old != nil && len(old.Files) >= len(h.Files) && slices.Equal(old.Files[:len(h.Files)], h.Files) {
		return
	}
	b, err := json.Marshal(h)
	if err != nil {
		return
	}
	c.put("history", historyKey(d, dirPath), b)
}

// MarkApplied records that migrate apply ran the files named on a
// database: they are history, no longer Editable.
func (c *Cache) MarkApplied(d dialects.Named, dirPath string, names []string) {
	h := c.History(d, dirPath)
	if h == nil || len(names) == 0 {
		return
	}
	n := len(h.Editable)
	h.Editable = slices.DeleteFunc(h.Editable, func(e string) bool { return slices.Contains(names, e) })
	if len(h.Editable) == n {
		return
	}
	if b, err := json.Marshal(h); err == nil {
		c.put("history", historyKey(d, dirPath), b)
	}
}
