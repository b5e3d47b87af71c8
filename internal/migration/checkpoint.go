package migration

import "ariga.io/atlas/sql/migrate"

// FromCheckpoint is what a clean database runs of files, as Atlas's
// executor chooses it (migrate.FilesFromLastCheckpoint): the last
// checkpoint file and the files after it, or every file when there is no
// checkpoint. A checkpoint holds the whole state of the files before it.
func FromCheckpoint(files []migrate.File) []migrate.File {
	i := migrate.FilesLastIndex(files, IsCheckpoint)
	if i < 0 {
		return files
	}
	return files[i:]
}

// IsCheckpoint reports whether f is a checkpoint file (its first lines say
// `-- atlas:checkpoint`).
func IsCheckpoint(f migrate.File) bool {
	ck, ok := f.(migrate.CheckpointFile)
	return ok && ck.IsCheckpoint()
}
