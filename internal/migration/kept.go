package migration

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/scratch"
)

// Kept replay states: every command that needs the state of a migration
// directory's files (migrate diff and diff --check, migrate lint) starts
// from the longest prefix of them whose state is kept in the cache (the
// generated DDL a migrate diff proved it equal to, Cache.Proven) and
// replays only the files after it: a directory of 50 files and one new
// file replays one file.

// EditedHistoryError is a file of a directory that a kept state was
// reached through and whose text has changed since: a database that
// applied it would refuse the directory (migrate apply), and the states
// kept after it are no longer the directory's.
type EditedHistoryError struct {
	Env  string
	File string // its path
}

func (e *EditedHistoryError) Error() string {
	return fmt.Sprintf("%s changed after it became part of the migration history (an earlier run replayed it or a later migration was planned on it): a migration once in the history must not change; restore its text and write the change as a new migration (`schemagen migrate diff NAME` or `schemagen migrate new NAME`)",
		e.File)
}

// CheckHistory refuses files of the directory at dirPath that changed
// after a kept state was reached through them, with an
// *EditedHistoryError; the files the latest migrate diff wrote may still
// be edited (reviewed, data statements added) until a later one is kept.
func CheckHistory(cache *scratch.Cache, t Target, dirPath string, files []migrate.File) error {
	if name := cache.History(t.Dialect, dirPath).Edited(files); name != "" {
		return &EditedHistoryError{Env: t.Env.Name, File: filepath.Join(dirPath, name)}
	}
	return nil
}

// ReplayHook, when set, is called with each migration file a command
// replays on a scratch database (tests count them). Calls may come from
// several goroutines.
var ReplayHook func(dirPath, file string)

// Replayed calls ReplayHook with files replayed from the directory at
// dirPath.
func Replayed(dirPath string, files ...migrate.File) {
	if h := ReplayHook; h != nil {
		for _, f := range files {
			h(dirPath, f.Name())
		}
	}
}

// KeptStart is where the state of files (every file of the directory at
// dirPath up to one) starts: the longest prefix files[:k] whose state the
// cache keeps, with the generated DDL that gives it, or k = 0. A clean
// database starts at the latest checkpoint instead when it lies after
// that prefix (checkpoint.go): then src is nil and k is the checkpoint's.
func KeptStart(cache *scratch.Cache, t Target, files []migrate.File) (k int, src []byte) {
	k, src = cache.Kept(cache.PrefixKeys(t.Dialect, t.Env.Dev, files))
	if c := migrate.FilesLastIndex(files, IsCheckpoint); c >= k {
		return max(c, 0), nil
	}
	return k, src
}

// KeptState is DirState for files (every file of the directory at dirPath
// up to one) started from the longest prefix of them whose state is kept
// (KeptStart): that state is loaded and only the files after it are
// replayed. It also reports whether a kept state was loaded.
func KeptState(ctx context.Context, dev *scratch.Dev, cache *scratch.Cache, t Target, dirPath string, files []migrate.File) (*State, bool, error) {
	k, src := KeptStart(cache, t, files)
	if src != nil {
		s, err := newState(ctx, dev, t, func(drv migrate.Driver) error {
			if err := scratch.Exec(ctx, drv, fmt.Sprintf("%s (the state of its first %d files, kept by an earlier run)", dirPath, k), src); err != nil {
				return err
			}
			return replayFiles(ctx, t, drv, dirPath, files[k:])
		})
		if err == nil {
			return s, true, nil
		}
		if re := (*ReplayError)(nil); errors.As(err, &re) {
			return nil, false, err
		}
		// Only a cache: the directory is replayed instead.
		k = max(migrate.FilesLastIndex(files, IsCheckpoint), 0)
	}
	s, err := DirState(ctx, dev, t, dirPath, files[k:])
	return s, false, err
}

// Keep records that the directory at dirPath holding files reaches the
// state of the generated DDL src, and the files' texts (written: the files
// migrate diff has just written, which may still be edited).
func Keep(cache *scratch.Cache, t Target, dirPath string, files []migrate.File, src []byte, written []string) {
	keys := cache.PrefixKeys(t.Dialect, t.Env.Dev, files)
	if keys == nil {
		return
	}
	cache.MarkProven(keys[len(files)], src)
	cache.MarkHistory(t.Dialect, dirPath, files, written)
}
