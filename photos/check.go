package photos

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"net/http"
	"runtime"
)

// Pixel limits. An analysis image is read by the AI at ~800 px (the browser
// downscales to that), so a direct API client gets at most 4 megapixels; an
// uploaded photo is stored at 2048 px and the app resizes before uploading,
// so 12 megapixels (a 4000 × 3000 phone photo) is plenty for any client and
// keeps one decode and its resized copies within Decode.
const (
	MaxAnalysisPixels = 4_200_000 // 2048 × 2048
	MaxUploadPixels   = 12_000_000
)

// Error is a reason an image is refused, shown to the maker after the
// image's name ("Image 2 is a 16-bit PNG: ...").
type Error struct{ msg string }

func (e *Error) Error() string { return e.msg }

var (
	ErrNotImage  = &Error{"is not a JPEG, PNG or WebP image"}
	errDamaged   = &Error{"is damaged and could not be read"}
	errSixteen   = &Error{"is a 16-bit PNG: export it as an 8-bit PNG or a JPEG"}
	errTooCostly = &Error{"is too large to process: save it as a smaller or baseline (non-progressive) JPEG"}
)

func tooManyPixels(w, h, limit int) *Error {
	return &Error{fmt.Sprintf("is too large (%d×%d pixels): the limit is %d megapixels", w, h, limit/1_000_000)}
}

// Header is what an image's header says, read without decoding pixels.
type Header struct {
	Format        string // jpeg, png or webp
	width, height int
	components    int  // JPEG colour components
	progressive   bool // progressive JPEG: the decoder keeps all coefficients
}

var sniffedFormat = map[string]string{"image/jpeg": "jpeg", "image/png": "png", "image/webp": "webp"}

// Sniff checks raw's type by content, then its dimensions and the
// properties that make decoding expensive, before any pixel is decoded.
// allowed limits the formats; maxPixels bounds width × height.
func Sniff(raw []byte, allowed map[string]bool, maxPixels int) (Header, error) {
	var h Header
	format, ok := sniffedFormat[http.DetectContentType(raw)]
	if !ok || !allowed[format] {
		return h, ErrNotImage
	}
	cfg, cfgFormat, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfgFormat != format {
		return h, ErrNotImage
	}
	h.Format, h.width, h.height = format, cfg.Width, cfg.Height
	if h.width <= 0 || h.height <= 0 {
		return h, errDamaged
	}
	switch format {
	case "png":
		// IHDR follows the 8-byte signature: length, type, width, height,
		// bit depth (byte 24).
		if len(raw) > 24 && raw[24] == 16 {
			return h, errSixteen
		}
	case "jpeg":
		h.components, h.progressive = jpegFrame(raw)
	}
	if int64(h.width)*int64(h.height) > int64(maxPixels) {
		return h, tooManyPixels(h.width, h.height, maxPixels)
	}
	return h, nil
}

// DecodeCost is the memory a full decode of the image takes, in bytes.
func (h Header) DecodeCost() int64 {
	px := int64(h.width) * int64(h.height)
	perPixel := int64(4) // every 8-bit format decodes to at most 4 bytes a pixel
	if h.Format == "jpeg" && h.progressive {
		// Progressive JPEGs keep a 16-bit coefficient per sample until the end.
		perPixel += 2 * int64(max(h.components, 3))
	}
	return px * perPixel
}

// jpegFrame reads the start-of-frame segment: the number of components and
// whether the JPEG is progressive.
func jpegFrame(jpg []byte) (components int, progressive bool) {
	for i := 2; i+4 <= len(jpg); {
		if jpg[i] != 0xFF {
			return 3, false
		}
		marker := jpg[i+1]
		switch {
		case marker == 0xFF:
			i++
			continue
		case marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7):
			i += 2
			continue
		case marker == 0xDA || marker == 0xD9:
			return 3, false
		}
		n := int(binary.BigEndian.Uint16(jpg[i+2:]))
		if n < 2 || i+2+n > len(jpg) {
			return 3, false
		}
		if marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
			if n >= 8 {
				components = int(jpg[i+9])
			}
			return max(components, 1), marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
		}
		i += 2 + n
	}
	return 3, false
}

// DecodeWithin decodes raw fully while holding its cost (plus extra bytes
// the caller needs for copies) from Decode; done releases it.
func DecodeWithin(ctx context.Context, raw []byte, h Header, extra int64) (img image.Image, done func(), err error) {
	release, err := Decode.Acquire(ctx, h.DecodeCost()+extra)
	if errors.Is(err, ErrTooBig) {
		return nil, nil, errTooCostly
	}
	if err != nil {
		return nil, nil, err
	}
	// Decoding is CPU-bound: at most one per core but one, so sign-ins,
	// pages and /healthz keep a core while photos are decoded.
	select {
	case decodeCPU <- struct{}{}:
	case <-ctx.Done():
		release()
		return nil, nil, ctx.Err()
	}
	img, _, err = image.Decode(bytes.NewReader(raw))
	<-decodeCPU
	if err != nil {
		release()
		return nil, nil, errDamaged
	}
	return img, release, nil
}

var decodeCPU = make(chan struct{}, max(1, runtime.NumCPU()-1))

// StripMetadata returns the image without metadata that can identify the
// maker (EXIF with GPS, XMP, comments, text chunks), without re-encoding
// it: JPEG APPn (except JFIF/Adobe colour information) and COM segments,
// PNG text, eXIf and time chunks. Anything it cannot parse is returned as
// nil, and the caller re-encodes instead.
func StripMetadata(raw []byte, format string) []byte {
	switch format {
	case "jpeg":
		return stripJPEG(raw)
	case "png":
		return stripPNG(raw)
	}
	return nil
}

func stripJPEG(jpg []byte) []byte {
	if len(jpg) < 4 || jpg[0] != 0xFF || jpg[1] != 0xD8 {
		return nil
	}
	out := make([]byte, 0, len(jpg))
	out = append(out, 0xFF, 0xD8)
	for i := 2; i+4 <= len(jpg); {
		if jpg[i] != 0xFF {
			return nil
		}
		marker := jpg[i+1]
		if marker == 0xDA { // scan data to the end is image, not metadata
			return append(out, jpg[i:]...)
		}
		if marker == 0xFF || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) {
			return nil
		}
		n := int(binary.BigEndian.Uint16(jpg[i+2:]))
		if n < 2 || i+2+n > len(jpg) {
			return nil
		}
		seg := jpg[i : i+2+n]
		keep := true
		switch {
		case marker == 0xFE: // COM
			keep = false
		case marker >= 0xE1 && marker <= 0xED, marker == 0xEF: // EXIF, XMP, ICC-less metadata, Photoshop IRB
			keep = false
		}
		if keep {
			out = append(out, seg...)
		}
		i += 2 + n
	}
	return nil
}

func stripPNG(p []byte) []byte {
	const sig = "\x89PNG\r\n\x1a\n"
	if len(p) < 8 || string(p[:8]) != sig {
		return nil
	}
	drop := map[string]bool{"tEXt": true, "zTXt": true, "iTXt": true, "eXIf": true, "tIME": true}
	out := make([]byte, 0, len(p))
	out = append(out, p[:8]...)
	for i := 8; i+12 <= len(p); {
		n := int(binary.BigEndian.Uint32(p[i:]))
		if n < 0 || n > len(p)-i-12 {
			return nil
		}
		typ := string(p[i+4 : i+8])
		end := i + 12 + n
		if !drop[typ] {
			out = append(out, p[i:end]...)
		}
		if typ == "IEND" {
			return out
		}
		i = end
	}
	return nil
}
