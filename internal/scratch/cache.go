package scratch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// Cache remembers results by the hash of everything they depend on, so that
// repeated runs need no dev database:
//   - which (migration directory, generated DDL) pairs are in step: a diff
//     found nothing to do, or `migrate diff` wrote the file that gets there;
//   - states that dev databases reported (a directory replayed, a generated
//     file loaded), stored as Atlas HCL.
//
// Anything that changes a file, the dev database or schemagen itself changes
// the key.
type Cache struct {
	Dir string // empty disables the cache
}

// CacheUnless is DefaultCache, or no cache when disabled is set (--no-cache).
func CacheUnless(disabled bool) *Cache {
	if disabled {
		return nil
	}
	return DefaultCache()
}

// DefaultCache is the cache in the user's cache directory, or a disabled one.
func DefaultCache() *Cache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return &Cache{}
	}
	return &Cache{Dir: filepath.Join(dir, "schemagen")}
}

const cacheFormat = "schemagen cache v3"

// Key hashes everything the result of a diff depends on: the migration
// directory, the generated DDL src, the dialect, the dev database (devURL,
// "" for the embedded one) and the schemagen build. It is "" for a nil or
// disabled cache.
func (c *Cache) Key(d dialects.Named, devURL string, dir *migrate.LocalDir, src []byte) (string, error) {
	if c == nil || c.Dir == "" {
		return "", nil
	}
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s\n", len(s), s) }
	field(cacheFormat)
	field(binaryIdentity())
	field(d.Name())
	// The dev database's server and version shape normalised text; a
	// configured URL names it, the embedded one is part of this machine.
	field(devURL)
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

// DirKey hashes what a directory's state depends on: its files, the
// dialect, the dev database and the schemagen build ("" for a nil or
// disabled cache). It is the last of PrefixKeys.
func (c *Cache) DirKey(d dialects.Named, devURL string, dir *migrate.LocalDir) (string, error) {
	if c == nil || c.Dir == "" {
		return "", nil
	}
	files, err := dir.Files()
	if err != nil {
		return "", err
	}
	keys := c.PrefixKeys(d, devURL, files)
	return keys[len(files)], nil
}

// PrefixKeys returns, for k from 0 to len(files), the DirKey of a directory
// holding files[:k]: each key chains the one before it with file k's name
// and text, so that the keys of every prefix cost one pass over the files.
// It is nil for a nil or disabled cache.
func (c *Cache) PrefixKeys(d dialects.Named, devURL string, files []migrate.File) []string {
	if c == nil || c.Dir == "" {
		return nil
	}
	keys := make([]string, 0, len(files)+1)
	key := chain("", cacheFormat, binaryIdentity(), d.Name(), devURL)
	keys = append(keys, key)
	for _, f := range files {
		key = chain(key, f.Name(), string(f.Bytes()))
		keys = append(keys, key)
	}
	return keys
}

func chain(key string, fields ...string) string {
	h := sha256.New()
	for _, f := range append([]string{key}, fields...) {
		fmt.Fprintf(h, "%d:%s\n", len(f), f)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Kept returns the longest prefix of the directory whose state is kept
// (Proven under keys[k], PrefixKeys), with the generated DDL that gives it;
// k is 0 when none is.
func (c *Cache) Kept(keys []string) (k int, src []byte) {
	for k := len(keys) - 1; k > 0; k-- {
		if src, ok := c.Proven(keys[k]); ok {
			return k, src
		}
	}
	return 0, nil
}

// Proven returns the generated DDL that the directory of key (DirKey) was
// proven to reach: migrate diff ran its last file on a database holding
// the files before it and found that database equal to one loaded from
// this DDL. Loading it gives the directory's state without replaying it.
func (c *Cache) Proven(key string) ([]byte, bool) {
	if c == nil || key == "" {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(c.Dir, "proven", key))
	if err != nil {
		return nil, false
	}
	head, src, ok := strings.Cut(string(b), "\n")
	if !ok || head != cacheFormat {
		return nil, false
	}
	return []byte(src), true
}

// MarkProven records that the directory of key reaches the state of the
// generated DDL src.
func (c *Cache) MarkProven(key string, src []byte) {
	if c == nil || key == "" {
		return
	}
	c.put("proven", key, append([]byte(cacheFormat+"\n"), src...))
}

// InStep reports whether the diff of key is known to find nothing to do.
func (c *Cache) InStep(key string) bool {
	if c == nil || key == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(c.Dir, "in-step", key))
	return err == nil
}

// MarkInStep records that the diff of key finds nothing to do.
func (c *Cache) MarkInStep(key string) {
	if c == nil || key == "" {
		return
	}
	c.put("in-step", key, []byte(cacheFormat+"\n"))
}

// put stores a cache entry. The cache only saves time: failing to write it
// is not an error, and a half-written entry is never read (it is renamed
// into place).
func (c *Cache) put(kind, key string, b []byte) {
	dir := filepath.Join(c.Dir, kind)
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil && cerr == nil {
		if os.Rename(f.Name(), filepath.Join(dir, key)) == nil {
			return
		}
	}
	os.Remove(f.Name())
}

// StoredState is a state as the cache keeps it: its Fingerprint is known
// without reading the state back, which is slow.
type StoredState struct {
	Fingerprint string
	// Objects are what Atlas does not inspect (extensions, views), nil for
	// a dialect without them.
	Objects *dialects.Objects
	dialect dialects.Atlas
	raw     []byte
	once    sync.Once
	schema  *schema.Schema
	err     error
}

// Schema returns the state, reading it back on first use.
func (s *StoredState) Schema() (*schema.Schema, error) {
	s.once.Do(func() {
		if s.schema == nil {
			s.schema, s.err = s.dialect.UnmarshalState(s.raw)
		}
	})
	return s.schema, s.err
}

// Stored returns the state stored under the hash of parts (with what every
// key holds: the dialect, the dev database devURL and the schemagen build),
// or builds it with build and stores it. A nil or disabled cache only
// builds.
func (c *Cache) Stored(d dialects.Atlas, devURL string, parts []string, build func() (*schema.Schema, *dialects.Objects, error)) (*StoredState, error) {
	key := ""
	if c != nil && c.Dir != "" {
		h := sha256.New()
		for _, p := range append([]string{cacheFormat, binaryIdentity(), d.Name(), devURL}, parts...) {
			fmt.Fprintf(h, "%d:%s\n", len(p), p)
		}
		key = hex.EncodeToString(h.Sum(nil))
		b, err := os.ReadFile(filepath.Join(c.Dir, "states", key))
		fp, ferr := os.ReadFile(filepath.Join(c.Dir, "states", key+".fingerprint"))
		ob, oerr := os.ReadFile(filepath.Join(c.Dir, "states", key+".objects"))
		var objs *dialects.Objects
		if oerr == nil {
			oerr = json.Unmarshal(ob, &objs)
		}
		if err == nil && ferr == nil && oerr == nil {
			return &StoredState{Fingerprint: string(fp), Objects: objs, dialect: d, raw: b}, nil
		}
	}
	s, objs, err := build()
	if err != nil {
		return nil, err
	}
	fp := Fingerprint(s)
	if key != "" {
		b, err := d.MarshalState(s)
		ob, oerr := json.Marshal(objs)
		if err == nil && oerr == nil {
			c.put("states", key, b)
			c.put("states", key+".objects", ob)
			c.put("states", key+".fingerprint", []byte(fp))
		}
	}
	return &StoredState{Fingerprint: fp, Objects: objs, dialect: d, schema: s}, nil
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
