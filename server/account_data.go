package server

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/blob"
)

// maxDataDownloads bounds the data downloads running at once on an
// instance; each account runs one at a time.
const maxDataDownloads = 4

// dataStall is how long a data download may wait for the client to take
// more bytes before the connection is cut.
const dataStall = time.Minute

const dataReadme = `Your Layerfix data, as this server keeps it.

account.json   your account: email, display name, plan and this month's usage
printers.json  your printers
issues.json    every issue: what you described, the settings, the analysis,
               your ticked steps and resolution, the attached files' text,
               and the names of its photos in photos/
photos/        the photos you uploaded, as stored (JPEG, metadata removed)
`

// downloadSlots hands out the data downloads that may run at once.
type downloadSlots struct {
	mu     sync.Mutex
	active map[int64]bool
	max    int
}

func newDownloadSlots(n int) *downloadSlots {
	return &downloadSlots{active: map[int64]bool{}, max: n}
}

// take reserves a download for userID; release it when done.
func (d *downloadSlots) take(userID int64) (release func(), err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.active[userID] {
		return nil, apiErr(http.StatusTooManyRequests, CodeRateLimited, "Your data download is already running. Wait for it to finish, then try again.")
	}
	if len(d.active) >= d.max {
		return nil, apiErr(http.StatusTooManyRequests, "BUSY", "Several data downloads are running right now. Please try again in a minute.")
	}
	d.active[userID] = true
	return func() {
		d.mu.Lock()
		delete(d.active, userID)
		d.mu.Unlock()
	}, nil
}

// stallWriter moves the connection's write deadline on while bytes flow, so
// a long download is not cut by the server's write timeout but a client
// that stops reading holds the connection at most dataStall.
type stallWriter struct {
	w    io.Writer
	rc   *http.ResponseController
	last time.Time
}

func (s *stallWriter) Write(p []byte) (int, error) {
	if now := time.Now(); now.Sub(s.last) > time.Second {
		s.last = now
		_ = s.rc.SetWriteDeadline(now.Add(dataStall))
	}
	return s.w.Write(p)
}

// dataIssue is an issue of the data download: the JSON export's record and
// the files of its photos in the archive.
type dataIssue struct {
	exportedIssue
	Photos []string `json:"photos"`
}

// downloadData handles GET /api/user/data: everything the server keeps
// about the maker as one zip, streamed as it is read: account.json,
// printers.json, issues.json (each issue as the JSON export has it, with
// its attachments and the names of its photos) and photos/. Issues are read
// 500 at a time and each photo is copied from the photo store in chunks, so
// memory stays bounded however large the account. The status goes first: a
// failure later cuts the archive short (a broken zip), and is logged.
func (h *accountAPI) downloadData(c echo.Context) error {
	u, ctx := currentUser(c), c.Request().Context()
	release, err := h.downloads.take(u.ID)
	if err != nil {
		return err
	}
	defer release()
	// The account as stored now, not as the session cached it.
	acct, err := h.store.UserByID(ctx, u.ID)
	if err != nil {
		return err
	}
	printers, err := h.store.ListPrinters(ctx, u.ID)
	if err != nil {
		return err
	}
	res := c.Response()
	hdr := res.Header()
	hdr.Set(echo.HeaderContentType, "application/zip")
	hdr.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="layerfix-data-%s.zip"`, h.now().UTC().Format("2006-01-02")))
	hdr.Set("Cache-Control", "no-store")
	res.WriteHeader(http.StatusOK)
	zw := zip.NewWriter(&stallWriter{w: res, rc: http.NewResponseController(res.Writer)})
	err = h.writeData(ctx, zw, acct, printers)
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		err = fmt.Errorf("data download of user %d: %w", u.ID, err)
		if ctx.Err() == nil { // not a client that went away
			h.log.Error("data download cut short", "err", err)
		}
	}
	return err
}

func (h *accountAPI) writeData(ctx context.Context, zw *zip.Writer, acct *store.User, printers []store.Printer) error {
	modified := h.now()
	file := func(name string, method uint16) (io.Writer, error) {
		return zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: modified})
	}
	writeJSON := func(name string, v any) error {
		w, err := file(name, zip.Deflate)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	w, err := file("README.txt", zip.Deflate)
	if err == nil {
		_, err = io.WriteString(w, dataReadme)
	}
	if err != nil {
		return err
	}
	if err := writeJSON("account.json", acct); err != nil {
		return err
	}
	if err := writeJSON("printers.json", printers); err != nil {
		return err
	}
	if w, err = file("issues.json", zip.Deflate); err != nil {
		return err
	}
	err = writeIssueArray(ctx, h.store, w, acct.ID, func(v *store.IssueView) (any, error) {
		e, err := exportWithAttachments(ctx, h.store, v)
		if err != nil {
			return nil, err
		}
		d := dataIssue{exportedIssue: e, Photos: []string{}}
		for _, url := range v.PhotoURLs {
			if id, ok := photoIDOf(url); ok {
				d.Photos = append(d.Photos, "photos/"+id+photos.FileSuffix)
			}
		}
		return d, nil
	})
	if err != nil {
		return err
	}
	return h.store.EachPhoto(ctx, acct.ID, func(p *store.Photo) error {
		f, err := h.blobs.Open(ctx, p.ID+photos.FileSuffix)
		if errors.Is(err, blob.ErrNotFound) {
			h.log.Warn("data download: photo file missing", "photo", p.ID)
			return nil
		}
		if err != nil {
			return err
		}
		defer f.Close() //nolint:errcheck // opened for reading
		// JPEGs do not shrink: stored, not deflated.
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "photos/" + p.ID + photos.FileSuffix, Method: zip.Store, Modified: p.CreatedAt})
		if err != nil {
			return err
		}
		_, err = io.Copy(w, f)
		return err
	})
}
