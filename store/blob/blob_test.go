package blob

import (
	"context"
	"errors"
	"io"
	"testing"
)

func TestDisk(t *testing.T) {
	ctx := context.Background()
	d := NewDisk(t.TempDir())
	if err := d.Put(ctx, "0123abcd.jpg", []byte("jpeg")); err != nil {
		t.Fatal(err)
	}
	f, err := d.Open(ctx, "0123abcd.jpg")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "jpeg" {
		t.Fatalf("read %q", b)
	}
	for _, bad := range []string{"../x.jpg", "a/b.jpg", "..", "", "AB.jpg", "x"} {
		if err := d.Put(ctx, bad, nil); !errors.Is(err, ErrBadName) {
			t.Fatalf("Put(%q): %v", bad, err)
		}
		if _, err := d.Open(ctx, bad); !errors.Is(err, ErrBadName) {
			t.Fatalf("Open(%q): %v", bad, err)
		}
	}
	if err := d.Delete(ctx, "0123abcd.jpg"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Open(ctx, "0123abcd.jpg"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("open deleted: %v", err)
	}
	if err := d.Delete(ctx, "0123abcd.jpg"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete twice: %v", err)
	}
}
