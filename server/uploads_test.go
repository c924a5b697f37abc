package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/photos/photostest"
)

// gpsJPEG is a w×h JPEG with an APP1 Exif segment holding an orientation
// tag and a GPS IFD whose latitude reference carries a marker string.
func gpsJPEG(t *testing.T, w, h int, orientation uint16) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{0, 0, 255, 255}
			if x < w/2 && y < h/2 {
				c = color.RGBA{255, 0, 0, 255} // red top-left quadrant
			}
			img.Set(x, y, c)
		}
	}
	var enc bytes.Buffer
	if err := jpeg.Encode(&enc, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	// TIFF, big-endian: IFD0 at 8 with Orientation and GPSInfo; GPS IFD at 38.
	var tiff bytes.Buffer
	be := binary.BigEndian
	tiff.WriteString("MM\x00\x2a")
	binary.Write(&tiff, be, uint32(8))
	binary.Write(&tiff, be, uint16(2))
	binary.Write(&tiff, be, []uint16{0x0112, 3})
	binary.Write(&tiff, be, uint32(1))
	binary.Write(&tiff, be, []uint16{orientation, 0})
	binary.Write(&tiff, be, []uint16{0x8825, 4})
	binary.Write(&tiff, be, uint32(1))
	binary.Write(&tiff, be, uint32(38))
	binary.Write(&tiff, be, uint32(0)) // no IFD1
	binary.Write(&tiff, be, uint16(1)) // GPS IFD at 38
	marker := "GPS51.50741N"
	binary.Write(&tiff, be, []uint16{0x0001, 2})
	binary.Write(&tiff, be, uint32(len(marker)))
	binary.Write(&tiff, be, uint32(56))
	binary.Write(&tiff, be, uint32(0))
	tiff.WriteString(marker)
	app1 := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	var out bytes.Buffer
	out.Write([]byte{0xFF, 0xD8, 0xFF, 0xE1})
	binary.Write(&out, be, uint16(len(app1)+2))
	out.Write(app1)
	out.Write(enc.Bytes()[2:])
	return out.Bytes()
}

// storedPhotos lists the files of the photo dir.
func storedPhotos(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

var signedPhotoURL = regexp.MustCompile(`^/api/photos/[0-9a-f]{32}\.jpg\?exp=\d+&sig=[A-Za-z0-9_-]{24}$`)

func TestUploadRejects(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	small := pngImage(t, 10, 10)
	big := make([]byte, maxImageBytes+1)
	copy(big, small)
	six := map[string][]byte{}
	var names []string
	for i := 0; i < 6; i++ {
		n := fmt.Sprintf("p%d.png", i)
		six[n], names = small, append(names, n)
	}
	cases := []struct {
		name  string
		files map[string][]byte
		order []string
		msg   string
	}{
		{"text named png", map[string][]byte{"cat.png": []byte("this is not an image, just text")}, []string{"cat.png"}, "Image 1 (cat.png) is not a JPEG, PNG or WebP image"},
		{"html named jpg", map[string][]byte{"x.jpg": []byte("<html><script>alert(1)</script></html>")}, []string{"x.jpg"}, "Image 1 (x.jpg) is not a JPEG, PNG or WebP image"},
		{"30000x30000 png header", map[string][]byte{"huge.png": photostest.PNGHeader(30000, 30000)}, []string{"huge.png"}, "Image 1 (huge.png) is too large (30000×30000 pixels): the limit is 12 megapixels"},
		{"truncated png", map[string][]byte{"cut.png": small[:len(small)-20]}, []string{"cut.png"}, "Image 1 (cut.png) is damaged and could not be read"},
		{"six files", six, names, "You can upload at most 5 images at a time"},
		{"over 10 MB", map[string][]byte{"a.png": small, "big.png": big}, []string{"a.png", "big.png"}, "Image 2 (big.png) is larger than 10 MB"},
		{"no file", map[string][]byte{}, nil, "Choose at least one image to upload"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ct, body := multipartImages(t, tc.files, tc.order...)
			w := ws.upload(t, ada, ct, body)
			if w.Code != 400 {
				t.Fatalf("status %d: %s", w.Code, w.Body.String())
			}
			if e := decodeError(t, w); e.Fields["images"] != tc.msg {
				t.Fatalf("message %q, want %q", e.Fields["images"], tc.msg)
			}
		})
	}
	// Over the request limit: 413 with the text the app maps to its
	// "too large" message.
	ct, body := multipartImages(t, map[string][]byte{"a": big, "b": big, "c": big, "d": big, "e": big, "f": big}, "a", "b", "c", "d", "e", "f")
	w := ws.upload(t, ada, ct, body)
	if w.Code != 413 || !strings.Contains(decodeError(t, w).Message, "entity too large") {
		t.Fatalf("oversized request: %d %s", w.Code, w.Body.String())
	}
	if w := ws.upload(t, ada, "application/json", strings.NewReader("{}")); w.Code != 415 {
		t.Fatalf("json body: %d", w.Code)
	}
	ct, body = multipartImages(t, map[string][]byte{"a.png": small}, "a.png")
	if w := ws.upload(t, nil, ct, body); w.Code != 401 {
		t.Fatalf("anonymous upload: %d", w.Code)
	}
	if files := storedPhotos(t, ws.photoDir); len(files) != 0 {
		t.Fatalf("refused uploads stored files: %v", files)
	}
}

func TestUploadDropsGPSAndAppliesOrientation(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	raw := gpsJPEG(t, 64, 32, 6) // stored 64×32, shown rotated 90° clockwise
	if !bytes.Contains(raw, []byte("GPS51.50741N")) || photos.Orientation(raw) != 6 {
		t.Fatal("test image lacks its EXIF")
	}
	ct, body := multipartImages(t, map[string][]byte{"IMG_0001.JPG": raw}, "IMG_0001.JPG")
	w := ws.upload(t, ada, ct, body)
	if w.Code != 200 {
		t.Fatalf("upload: %d %s", w.Code, w.Body.String())
	}
	var out struct{ Images []uploadedImage }
	json.Unmarshal(w.Body.Bytes(), &out)
	if len(out.Images) != 1 || !signedPhotoURL.MatchString(out.Images[0].URL) {
		t.Fatalf("answer %s", w.Body.String())
	}
	files := storedPhotos(t, ws.photoDir)
	if len(files) != 1 {
		t.Fatalf("stored files %v", files)
	}
	stored, _ := os.ReadFile(files[0])
	for _, marker := range []string{"Exif", "GPS51.50741N", "MM\x00\x2a", "II\x2a\x00"} {
		if bytes.Contains(stored, []byte(marker)) {
			t.Fatalf("stored photo still holds %q", marker)
		}
	}
	img, err := jpeg.Decode(bytes.NewReader(stored))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 32 || b.Dy() != 64 {
		t.Fatalf("stored %dx%d, want 32x64 (rotated)", b.Dx(), b.Dy())
	}
	// The red quadrant was top-left; turned clockwise it is top-right.
	if r, _, bl, _ := img.At(28, 4).RGBA(); r < 0xc000 || bl > 0x4000 {
		t.Fatalf("top-right pixel is not red: orientation not applied")
	}
	if r, _, _, _ := img.At(4, 4).RGBA(); r > 0x4000 {
		t.Fatalf("top-left pixel is red: orientation applied the wrong way")
	}
}

func TestUploadNamesAreServerGenerated(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	webp, err := os.ReadFile("testdata/gopher.webp")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"../../../../tmp/evil.png":  pngImage(t, 2500, 500),
		`..\..\windows\win.ini.jpg`: gpsJPEG(t, 20, 20, 1),
		"gopher.webp":               webp,
		"/etc/passwd":               pngImage(t, 8, 8),
		"photo.png;.sh":             pngImage(t, 8, 8),
	}
	order := []string{"../../../../tmp/evil.png", `..\..\windows\win.ini.jpg`, "gopher.webp", "/etc/passwd", "photo.png;.sh"}
	ct, body := multipartImages(t, files, order...)
	w := ws.upload(t, ada, ct, body)
	if w.Code != 200 {
		t.Fatalf("upload: %d %s", w.Code, w.Body.String())
	}
	var out struct{ Images []uploadedImage }
	json.Unmarshal(w.Body.Bytes(), &out)
	if len(out.Images) != 5 {
		t.Fatalf("answer %s", w.Body.String())
	}
	stored := storedPhotos(t, ws.photoDir)
	if len(stored) != 5 {
		t.Fatalf("stored %v", stored)
	}
	for _, p := range stored {
		if !regexp.MustCompile(`/photos/[0-9a-f]{2}/[0-9a-f]{32}\.jpg$`).MatchString(p) {
			t.Fatalf("stored under %s", p)
		}
	}
	if _, err := os.Stat("/tmp/evil.png"); err == nil {
		t.Fatal("a client file name escaped the photo dir")
	}
	// The 2500×500 PNG is downscaled to 2048 px on its longest side.
	w = ws.do(t, "GET", out.Images[0].URL, "")
	img, err := jpeg.Decode(bytes.NewReader(w.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 2048 || b.Dy() != 409 {
		t.Fatalf("downscaled to %dx%d, want 2048x409", b.Dx(), b.Dy())
	}
}

func TestPhotoServing(t *testing.T) {
	ws := newWorkspace(t, nil)
	ada := ws.user(t, "ada@example.com")
	bob := ws.user(t, "bob@example.com")
	url := ws.uploadPNG(t, ada, 30, 20)
	plain, _, _ := strings.Cut(url, "?")

	w := ws.do(t, "GET", url, "")
	if w.Code != 200 {
		t.Fatalf("signed URL: %d %s", w.Code, w.Body.String())
	}
	h := w.Header()
	if h.Get("Content-Type") != "image/jpeg" || h.Get("X-Content-Type-Options") != "nosniff" ||
		h.Get("Content-Security-Policy") != "default-src 'none'; sandbox" || !strings.Contains(h.Get("Cache-Control"), "max-age=31536000") ||
		!strings.HasPrefix(h.Get("Cache-Control"), "private") {
		t.Fatalf("headers %v", h)
	}
	if _, err := jpeg.Decode(bytes.NewReader(w.Body.Bytes())); err != nil {
		t.Fatalf("body is not a JPEG: %v", err)
	}
	if w := ws.do(t, "GET", plain, "", ada...); w.Code != 200 {
		t.Fatalf("owner with bearer: %d", w.Code)
	}
	tampered := url[:len(url)-2] + "AA"
	if strings.HasSuffix(url, "AA") {
		tampered = url[:len(url)-2] + "BB"
	}
	for name, req := range map[string][]string{
		"anonymous, unsigned":   {plain},
		"other user, unsigned":  append([]string{plain}, bob...),
		"tampered signature":    {tampered},
		"other user's id guess": append([]string{"/api/photos/0123456789abcdef0123456789abcdef.jpg"}, bob...),
		"not a photo name":      {"/api/photos/..%2F..%2Flayerfix.db"},
	} {
		if w := ws.do(t, "GET", req[0], "", req[1:]...); w.Code != 404 {
			t.Fatalf("%s: %d", name, w.Code)
		}
	}
	// A signed URL expires after 7 to 8 days.
	ws.clock.set(ws.clock.now().Add(9 * 24 * time.Hour))
	if w := ws.do(t, "GET", url, ""); w.Code != 404 {
		t.Fatalf("expired signature: %d", w.Code)
	}
}

func TestExifOrientationParser(t *testing.T) {
	for o := uint16(1); o <= 8; o++ {
		if got := photos.Orientation(gpsJPEG(t, 4, 4, o)); got != int(o) {
			t.Fatalf("orientation %d read as %d", o, got)
		}
	}
	for name, b := range map[string][]byte{
		"png":        pngImage(t, 2, 2),
		"empty":      nil,
		"cut app1":   {0xFF, 0xD8, 0xFF, 0xE1, 0x10, 0x00, 'E', 'x'},
		"bad length": {0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01},
	} {
		if got := photos.Orientation(b); got != 1 {
			t.Fatalf("%s: orientation %d, want 1", name, got)
		}
	}
}
