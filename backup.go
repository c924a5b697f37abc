package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
)

const backupUsage = `usage: layerfix backup [--out FILE] [flags]
  writes a .tar.gz with the database and every photo (FILE "-" is standard output;
  default layerfix-backup-<time>.tar.gz here); safe while the server runs`

const restoreUsage = `usage: layerfix restore FILE [--force] [flags]
  restores a backup into the data dir (and LAYERFIX_DATABASE_URL for a PostgreSQL backup);
  the server must be stopped; --force replaces an existing database (the old files are kept)`

// ownFlags takes a command's own flags out of args; the rest are the server's.
func ownFlags(args []string, valued, boolean map[string]*string) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if p, ok := boolean[a]; ok {
			*p = "true"
			continue
		}
		if p, ok := valued[a]; ok {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("%s needs a value", a)
			}
			*p = args[i+1]
			i++
			continue
		}
		rest = append(rest, a)
	}
	return rest, nil
}

func backupCmd(args []string, stdout, stderr io.Writer) error {
	var out string
	rest, err := ownFlags(args, map[string]*string{"--out": &out, "-out": &out, "-o": &out}, nil)
	if err != nil {
		return fmt.Errorf("%v\n%s", err, backupUsage)
	}
	cfg, extra, err := config.Parse(rest, os.Getenv)
	if err != nil {
		return err
	}
	if len(extra) != 0 {
		return errors.New(backupUsage)
	}
	if out == "" {
		out = "layerfix-backup-" + time.Now().UTC().Format("20060102-150405") + ".tar.gz"
	}
	ctx := context.Background()
	opts := store.BackupOptions{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, Version: buildVersion()}
	if out == "-" {
		_, err := store.Backup(ctx, opts, stdout)
		return err
	}
	// Written beside its final name and renamed: a cut-short backup never looks complete.
	tmp, err := os.CreateTemp(filepath.Dir(out), ".layerfix-backup-*")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer os.Remove(tmp.Name())
	m, err := store.Backup(ctx, opts, tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	st, _ := os.Stat(out)
	fmt.Fprintf(stderr, "backup: %s (%s database, schema %d, %d photos, %.1f MB)\n", out, m.Dialect, m.Schema, m.Photos, float64(st.Size())/1e6)
	return nil
}

func restoreCmd(args []string, stderr io.Writer) error {
	var force string
	rest, err := ownFlags(args, nil, map[string]*string{"--force": &force, "-force": &force})
	if err != nil {
		return err
	}
	// The file may come before the server's flags ("restore FILE -data-dir D").
	var file string
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		file, rest = rest[0], rest[1:]
	}
	cfg, extra, err := config.Parse(rest, os.Getenv)
	if err != nil {
		return err
	}
	if file == "" && len(extra) == 1 {
		file, extra = extra[0], nil
	}
	if file == "" || len(extra) != 0 {
		return errors.New(restoreUsage)
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer f.Close() //nolint:errcheck // opened for reading
	m, err := store.Restore(context.Background(), store.RestoreOptions{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, Force: force != ""}, f)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "restore: %s backup of %s (schema %d, %d photos) restored into %s\n", m.Dialect, m.CreatedAt.Format(time.RFC3339), m.Schema, m.Photos, cfg.DataDir)
	return nil
}
