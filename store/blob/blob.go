// Package blob keeps uploaded photo bytes. Disk stores them under the data
// dir; an object store can implement Store later without touching callers.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// ErrNotFound is returned by Open and Delete for an unknown name.
var ErrNotFound = errors.New("blob not found")

// ErrBadName is returned for a name outside [a-z0-9._-] or with a path.
var ErrBadName = errors.New("invalid blob name")

// Store keeps immutable blobs by name.
type Store interface {
	// Put stores data under name, replacing nothing: names are unique.
	Put(ctx context.Context, name string, data []byte) error
	// Open returns a reader of the blob; the caller closes it.
	Open(ctx context.Context, name string) (io.ReadSeekCloser, error)
	// Delete removes the blob; a missing one gives ErrNotFound.
	Delete(ctx context.Context, name string) error
}

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{2,127}(\.[a-z0-9]{1,8})?$`)

// Disk is a Store on the local file system: dir/<first two characters>/<name>.
type Disk struct {
	dir string
}

// NewDisk returns a Disk store rooted at dir (created at the first Put).
func NewDisk(dir string) *Disk { return &Disk{dir: dir} }

func (d *Disk) path(name string) (string, error) {
	if !validName.MatchString(name) {
		return "", ErrBadName
	}
	return filepath.Join(d.dir, name[:2], name), nil
}

// Put writes data to a temp file and renames it into place, so a reader
// never sees a half-written blob.
func (d *Disk) Put(ctx context.Context, name string, data []byte) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("create photo dir: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o600)
	}
	if werr == nil {
		werr = os.Rename(tmp, p)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, werr)
	}
	return nil
}

// Open opens the blob for reading.
func (d *Disk) Open(_ context.Context, name string) (io.ReadSeekCloser, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return f, nil
}

// Delete removes the blob.
func (d *Disk) Delete(_ context.Context, name string) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	err = os.Remove(p)
	if errors.Is(err, os.ErrNotExist) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", name, err)
	}
	return nil
}
