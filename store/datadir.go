package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// prepareDataDir creates the data directory (0700: it holds password and
// session hashes and the signing keys) and checks that this process can
// write there, with an error that says what is wrong and for which user,
// instead of SQLite's "unable to open database file".
func prepareDataDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if errors.Is(err, syscall.EROFS) {
			return fmt.Errorf("data directory %s is on a read-only file system: mount it read-write or set LAYERFIX_DATA_DIR", dir)
		}
		if errors.Is(err, os.ErrPermission) {
			return fmt.Errorf("cannot create the data directory %s: permission denied for uid %d; create it and give that user write access, or set LAYERFIX_DATA_DIR", dir, os.Getuid())
		}
		return fmt.Errorf("create data dir %s: %w", dir, err)
	}
	probe, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		switch {
		case errors.Is(err, syscall.EROFS):
			return fmt.Errorf("data directory %s is read-only (read-only file system): mount it read-write or set LAYERFIX_DATA_DIR", dir)
		case errors.Is(err, os.ErrPermission):
			return fmt.Errorf("data directory %s is read-only for uid %d (permission denied): give that user write access (chown %d %s) or set LAYERFIX_DATA_DIR",
				dir, os.Getuid(), os.Getuid(), dir)
		case errors.Is(err, syscall.ENOSPC):
			return fmt.Errorf("data directory %s: the disk is full", dir)
		}
		return fmt.Errorf("data directory %s is not writable: %w", dir, err)
	}
	_ = probe.Close() // an empty probe file, removed at once
	os.Remove(probe.Name())
	return nil
}

// restrictDBFiles makes the database and its WAL files readable by this
// user only.
func restrictDBFiles(path string) {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o077 != 0 {
			_ = os.Chmod(p, 0o600) // best effort: the data dir itself is created 0700
		}
	}
}

// DiskProblem reports why writes would fail in the data directory: little
// free space (under 1 % or 20 MB) or a directory that is not writable; ""
// when writes can proceed. PostgreSQL stores keep only photos here.
func DiskProblem(dir string) string {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return "" // created on first use (photos of a PostgreSQL install)
	}
	if free, total, err := diskSpace(dir); err == nil {
		if free < 20<<20 || (total > 0 && free*100 < total) {
			return fmt.Sprintf("disk full: %d MB free in %s", free>>20, dir)
		}
	}
	if err := syscall.Access(dir, 2 /* W_OK */); err != nil {
		return "data directory not writable: " + filepath.Clean(dir)
	}
	return ""
}

// diskSpace reports the bytes this process may still write on dir's file
// system, and its size.
func diskSpace(dir string) (free, total uint64, err error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), uint64(st.Blocks) * uint64(st.Bsize), nil
}
