package photos

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image/jpeg"
	"strings"

	"github.com/layerfix/layerfix/ai"
)

// Limits of the photos of one analysis or issue.
const (
	MaxImages     = 5        // photos per analysis, issue or upload
	MaxImageBytes = 10 << 20 // bytes per photo
)

// analysisFormats are the formats an analysis accepts.
var analysisFormats = map[string]bool{"jpeg": true, "png": true}

// Pending is an analysis image whose header passed the checks; its
// pixels are decoded only after the credit is taken.
type Pending struct {
	raw []byte
	hdr header
}

// CheckAnalysis checks base64 JPEG/PNG strings (a data: URL prefix is
// accepted) from their headers only: size, type, dimensions, bit depth. The
// message names the image at fault, counting from 1.
func CheckAnalysis(imgs []string) ([]Pending, string) {
	if len(imgs) > MaxImages {
		return nil, fmt.Sprintf("You can attach at most %d photos", MaxImages)
	}
	out := make([]Pending, 0, len(imgs))
	for i, s := range imgs {
		n := i + 1
		if j := strings.Index(s, ";base64,"); strings.HasPrefix(s, "data:") && j > 0 {
			s = s[j+len(";base64,"):]
		}
		s = strings.TrimSpace(s)
		if base64.StdEncoding.DecodedLen(len(s)) > MaxImageBytes+3 {
			return nil, fmt.Sprintf("Image %d is larger than 10 MB", n)
		}
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			raw, err = base64.RawStdEncoding.DecodeString(s)
		}
		if err != nil || len(raw) == 0 {
			return nil, fmt.Sprintf("Image %d is not valid base64 image data", n)
		}
		h, err := sniff(raw, analysisFormats, maxAnalysisPixels)
		if err != nil {
			if err == errNotImage {
				return nil, fmt.Sprintf("Image %d is not a JPEG or PNG image", n)
			}
			return nil, fmt.Sprintf("Image %d %s", n, err.Error())
		}
		out = append(out, Pending{raw: raw, hdr: h})
	}
	return out, ""
}

// DecodeAnalysis decodes the checked images one at a time within Decode
// (a damaged image gives a message naming it) and hands the AI their bytes
// without metadata: EXIF (GPS included), XMP and comments are cut out, or
// the image is re-encoded when it cannot be parsed for that.
func DecodeAnalysis(ctx context.Context, imgs []Pending) ([]ai.Photo, string, error) {
	out := make([]ai.Photo, 0, len(imgs))
	for i, p := range imgs {
		img, done, err := decodeWithin(ctx, p.raw, p.hdr, 0)
		var pe *Error
		if errors.As(err, &pe) {
			return nil, fmt.Sprintf("Image %d %s", i+1, pe.Error()), nil
		}
		if err != nil {
			return nil, "", err
		}
		data := stripMetadata(p.raw, p.hdr.format)
		mime := "image/" + p.hdr.format
		if data == nil {
			var buf bytes.Buffer
			if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality}); err != nil {
				done()
				return nil, "", fmt.Errorf("re-encode image %d: %w", i+1, err)
			}
			data, mime = buf.Bytes(), MIME
		}
		done()
		out = append(out, ai.Photo{MIMEType: mime, Data: data})
	}
	return out, "", nil
}
