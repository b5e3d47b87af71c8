package migration

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"ariga.io/atlas/sql/migrate"
)

// Cache remembers, by content hash, which (migration directory, generated
// DDL) pairs are known to be in step, so that a repeated `migrate diff` with
// no model change answers without starting or loading a dev database. A
// directory is known to be in step when a diff found nothing to do, and after
// `migrate diff` wrote the file that brings it there. Anything that changes a
// file, the dev database or schemagen itself changes the key.
type Cache struct {
	Dir string // empty disables the cache
}

// DefaultCache is the cache in the user's cache directory, or a disabled one.
func DefaultCache() *Cache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return &Cache{}
	}
	return &Cache{Dir: filepath.Join(dir, "schemagen", "in-step")}
}

const cacheFormat = "schemagen in-step v1"

// key hashes everything the result of a diff depends on.
func (c *Cache) key(t Target, dir *migrate.LocalDir, src []byte) (string, error) {
	if c == nil || c.Dir == "" {
		return "", nil
	}
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s\n", len(s), s) }
	field(cacheFormat)
	field(binaryIdentity())
	field(t.Dialect.Name())
	// The dev database's server and version shape normalised text; a
	// configured URL names it, the embedded one is part of this machine.
	field(t.Env.Dev)
	field(string(src))
	files, err := dir.Files()
	if err != nil {
		return "", err
	}
	for _, f := range files {
		field(f.Name())
		field(string(f.Bytes()))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (c *Cache) inStep(key string) bool {
	if c == nil || key == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(c.Dir, key))
	return err == nil
}

func (c *Cache) markInStep(key string) {
	if c == nil || key == "" {
		return
	}
	// The cache only saves time: failing to write it is not an error.
	if os.MkdirAll(c.Dir, 0o755) == nil {
		os.WriteFile(filepath.Join(c.Dir, key), []byte(cacheFormat+"\n"), 0o644)
	}
}

// binaryIdentity names the running schemagen build, whose planning rules are
// part of every result.
func binaryIdentity() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	info, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return fmt.Sprintf("%s %d %d", exe, info.Size(), info.ModTime().UnixNano())
}
