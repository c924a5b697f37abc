package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/blob"
	"github.com/layerfix/layerfix/textcheck"
)

// Upload limits: how many photos one request carries and its body.
const (
	maxUploadFiles = maxImages
	maxUploadBody  = 55 << 20 // five 10 MB files plus multipart framing
)

// photoStore is what the photo routes need from the database.
type photoStore interface {
	CreatePhotos(ctx context.Context, photos []store.Photo) error
	PhotoByID(ctx context.Context, id string) (*store.Photo, error)
	PhotosOf(ctx context.Context, userID int64, ids []string) ([]store.Photo, error)
	ServerKey(ctx context.Context, name, newSecret string) (string, error)
	OrphanPhotos(ctx context.Context, before time.Time, limit int) ([]store.Photo, error)
	DeletePhotos(ctx context.Context, ids []string) error
}

// photosAPI uploads and serves photos.
//
// An <img> tag cannot send a bearer token, so photo URLs handed to the
// owner carry a signature: /api/photos/<id>.jpg?exp=<unix>&sig=<hmac>. The
// HMAC covers the id, the owner's user id and the expiry, with a key kept
// in the database (so every instance agrees). The expiry is rounded to a
// UTC day (7 to 8 days ahead), so a photo keeps one URL for a day and the
// browser's cache works. A request without a valid signature is served
// only to the owner's bearer token; anyone else gets 404, the same answer
// as for an id that does not exist.
type photosAPI struct {
	store    photoStore
	blobs    blob.Store
	basePath string
	now      func() time.Time
	log      *slog.Logger
	keys     *keyring
	metrics  *metrics // nil when metrics are off
}

const (
	photoKeyName  = "photo-url-v1"
	photoURLLife  = 7 * 24 * time.Hour
	photoIDLength = 32 // hex characters: 128 random bits
)

var photoPathPattern = regexp.MustCompile(`^([0-9a-f]{32})\.jpg$`)

// newPhotoID is 128 random bits in hex.
func newPhotoID() string {
	b := make([]byte, photoIDLength/2)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// signingKey is the photo URL signing key (created once, kept in the database).
func (p *photosAPI) signingKey(ctx context.Context) ([]byte, error) {
	return p.keys.key(ctx, photoKeyName)
}

func photoSignature(key []byte, id string, owner, exp int64) string {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "photo\x00%s\x00%d\x00%d", id, owner, exp)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// photoPath is the unsigned path of a photo, as stored in issues.
func (p *photosAPI) photoPath(id string) string {
	return p.basePath + "/api/photos/" + id + photos.FileSuffix
}

// signedURL is the photo's URL for its owner's browser.
func (p *photosAPI) signedURL(ctx context.Context, id string, owner int64) (string, error) {
	key, err := p.signingKey(ctx)
	if err != nil {
		return "", err
	}
	now := p.now().UTC()
	exp := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).Add(photoURLLife + 24*time.Hour).Unix()
	return fmt.Sprintf("%s?exp=%d&sig=%s", p.photoPath(id), exp, photoSignature(key, id, owner, exp)), nil
}

// signURLs turns stored photo paths into signed URLs for their owner;
// anything that is not one of our photo paths is returned unchanged.
func (p *photosAPI) signURLs(ctx context.Context, urls []string, owner int64) ([]string, error) {
	out := make([]string, len(urls))
	for i, u := range urls {
		id, ok := photoIDOf(u)
		if !ok {
			out[i] = u
			continue
		}
		s, err := p.signedURL(ctx, id, owner)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// photoIDOf extracts the id of a photo URL (relative or absolute, signed
// or not, with or without a base path).
func photoIDOf(u string) (string, bool) {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	dir, file := path.Split(u)
	m := photoPathPattern.FindStringSubmatch(file)
	if m == nil || !strings.HasSuffix(dir, "/api/photos/") {
		return "", false
	}
	return m[1], true
}

type uploadedImage struct {
	URL string `json:"url"`
}

// upload handles POST /api/upload-images: repeated "images" parts, each
// checked and re-encoded before anything is stored.
func (p *photosAPI) upload(c echo.Context) error {
	req := c.Request()
	mt, _, err := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType))
	if err != nil || mt != echo.MIMEMultipartForm {
		return apiErr(http.StatusUnsupportedMediaType, CodeUnsupportedType, "Send the photos as multipart/form-data with one 'images' part per file.")
	}
	mr, err := req.MultipartReader()
	if err != nil {
		return apiErr(http.StatusBadRequest, CodeBadRequest, "The upload could not be read as multipart/form-data.")
	}
	var processed []*photos.Processed
	n := 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return uploadReadErr(err)
		}
		if part.FormName() != "images" {
			if _, err := io.Copy(io.Discard, part); err != nil {
				return uploadReadErr(err)
			}
			continue
		}
		n++
		if n > maxUploadFiles {
			return validationErr(map[string]string{"images": fmt.Sprintf("You can upload at most %d images at a time", maxUploadFiles)})
		}
		name := describeFile(n, part.FileName())
		ph, err := p.readPhoto(req.Context(), part, name)
		if err != nil {
			return err
		}
		processed = append(processed, ph)
	}
	if n == 0 {
		return validationErr(map[string]string{"images": "Choose at least one image to upload"})
	}

	ctx, user := req.Context(), currentUser(c)
	records := make([]store.Photo, len(processed))
	for i, ph := range processed {
		records[i] = store.Photo{ID: newPhotoID(), UserID: user.ID, SizeBytes: len(ph.Data), Width: ph.Width, Height: ph.Height}
		if err := p.blobs.Put(ctx, records[i].ID+photos.FileSuffix, ph.Data); err != nil {
			p.removeBlobs(records[:i])
			return fmt.Errorf("store photo: %w", err)
		}
	}
	if err := p.store.CreatePhotos(ctx, records); err != nil {
		p.removeBlobs(records)
		return err
	}
	if p.metrics != nil {
		for _, r := range records {
			p.metrics.photoBytes.Add(float64(r.SizeBytes))
		}
	}
	out := make([]uploadedImage, len(records))
	for i, r := range records {
		u, err := p.signedURL(ctx, r.ID, user.ID)
		if err != nil {
			return err
		}
		out[i] = uploadedImage{URL: u}
	}
	return c.JSON(http.StatusOK, uploadResponse{Images: out})
}

// readPhoto reads one uploaded file (holding its bytes from photos.Body) and
// processes it.
func (p *photosAPI) readPhoto(ctx context.Context, part io.Reader, name string) (*photos.Processed, error) {
	release, err := photos.Body.Acquire(ctx, maxImageBytes+1)
	if err != nil {
		return nil, budgetErr(err)
	}
	defer release()
	raw, err := io.ReadAll(io.LimitReader(part, maxImageBytes+1))
	if err != nil {
		return nil, uploadReadErr(err)
	}
	if len(raw) > maxImageBytes {
		return nil, validationErr(map[string]string{"images": name + " is larger than 10 MB"})
	}
	if len(raw) == 0 {
		return nil, validationErr(map[string]string{"images": name + " is empty"})
	}
	ph, err := photos.Process(ctx, raw)
	var pe *photos.Error
	if errors.As(err, &pe) {
		return nil, validationErr(map[string]string{"images": name + " " + pe.Error()})
	}
	if err != nil {
		return nil, budgetErr(err)
	}
	return ph, nil
}

func (p *photosAPI) removeBlobs(records []store.Photo) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, r := range records {
		if err := p.blobs.Delete(ctx, r.ID+photos.FileSuffix); err != nil && !errors.Is(err, blob.ErrNotFound) {
			p.log.Warn("remove photo after a failed upload", "err", err)
		}
	}
}

// describeFile names the n-th file for messages, with its (cleaned) name.
func describeFile(n int, filename string) string {
	base := textcheck.Clean(path.Base(strings.ReplaceAll(filename, `\`, "/")), 60)
	if base == "" || base == "." || base == "/" {
		return fmt.Sprintf("Image %d", n)
	}
	return fmt.Sprintf("Image %d (%s)", n, base)
}

func uploadReadErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return apiErr(http.StatusRequestEntityTooLarge, CodeTooLarge,
			"request entity too large: upload at most 5 images of at most 10 MB each.")
	}
	return apiErr(http.StatusBadRequest, CodeBadRequest, "The upload could not be read as multipart/form-data.")
}

// serve handles GET /api/photos/:name for the owner (bearer token or a
// valid signed URL); everyone else gets 404.
func (p *photosAPI) serve(c echo.Context) error {
	m := photoPathPattern.FindStringSubmatch(c.Param("name"))
	if m == nil {
		return notFoundErr("Photo")
	}
	id := m[1]
	ctx := c.Request().Context()
	ph, err := p.store.PhotoByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return notFoundErr("Photo")
	}
	if err != nil {
		return err
	}
	ok, err := p.allowed(c, ph)
	if err != nil {
		return err
	}
	if !ok {
		return notFoundErr("Photo")
	}
	f, err := p.blobs.Open(ctx, id+photos.FileSuffix)
	if errors.Is(err, blob.ErrNotFound) {
		return notFoundErr("Photo")
	}
	if err != nil {
		return err
	}
	defer f.Close() //nolint:errcheck // opened for reading
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, photos.MIME)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "private, max-age=31536000, immutable")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Add("Vary", "Authorization")
	http.ServeContent(c.Response(), c.Request(), id+photos.FileSuffix, ph.CreatedAt, f)
	return nil
}

func (p *photosAPI) allowed(c echo.Context, ph *store.Photo) (bool, error) {
	if u := currentUser(c); u != nil && u.ID == ph.UserID {
		return true, nil
	}
	exp, err := strconv.ParseInt(c.QueryParam("exp"), 10, 64)
	sig := c.QueryParam("sig")
	if err != nil || sig == "" || p.now().Unix() > exp {
		return false, nil
	}
	key, err := p.signingKey(c.Request().Context())
	if err != nil {
		return false, err
	}
	want := photoSignature(key, ph.ID, ph.UserID, exp)
	return subtle.ConstantTimeCompare([]byte(sig), []byte(want)) == 1, nil
}
