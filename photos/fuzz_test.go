package photos

import (
	"testing"

	"github.com/layerfix/layerfix/photos/photostest"
)

// FuzzImageHeaders feeds the header checks, the EXIF reader and the
// metadata stripper arbitrary bytes: no panic, and whatever they accept
// stays within the declared limits.
func FuzzImageHeaders(f *testing.F) {
	f.Add(photostest.PNGHeader(10, 10))
	f.Add(photostest.JPEGWithGPS(f))
	f.Add([]byte("\xff\xd8\xff\xe1\x00\x10Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08"))
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x10\x00\x00\x00\x10\x00\x10\x06\x00\x00\x00"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if h, err := Sniff(raw, UploadFormats, MaxUploadPixels); err == nil {
			if int64(h.width)*int64(h.height) > MaxUploadPixels || h.DecodeCost() <= 0 {
				t.Fatalf("accepted %+v", h)
			}
			if out := StripMetadata(raw, h.Format); out != nil && len(out) > len(raw) {
				t.Fatalf("stripping grew the image from %d to %d bytes", len(raw), len(out))
			}
		}
		if o := Orientation(raw); o < 1 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
		jpegFrame(raw)
		stripJPEG(raw)
		stripPNG(raw)
	})
}
