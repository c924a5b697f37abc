package photos

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	_ "image/png" // register decoders

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"github.com/layerfix/layerfix/store"
)

// Photo processing limits of saved issues: size, count and stored form.
const (
	MaxSide     = 2048 // longest side of a stored photo, px
	JPEGQuality = 85
	MIME        = "image/jpeg"
	FileSuffix  = store.PhotoFileSuffix
)

// UploadFormats are the formats a photo upload accepts.
var UploadFormats = map[string]bool{"jpeg": true, "png": true, "webp": true}

// Processed is a re-encoded photo: JPEG bytes with no metadata.
type Processed struct {
	Data          []byte
	Width, Height int
}

// Process checks raw as an image (content sniffing, then the header:
// dimensions, bit depth, progressive JPEG, before any pixel is decoded),
// decodes it within Decode and re-encodes it as a JPEG of at most
// MaxSide pixels, upright per its EXIF orientation. Encoding from
// pixels drops every metadata segment, GPS included.
func Process(ctx context.Context, raw []byte) (*Processed, error) {
	h, err := Sniff(raw, UploadFormats, MaxUploadPixels)
	if err != nil {
		return nil, err
	}
	orientation := 1
	if h.Format == "jpeg" {
		orientation = Orientation(raw)
	}
	src, done, err := DecodeWithin(ctx, raw, h, resizeCost(h.width, h.height, MaxSide, orientation))
	if err != nil {
		return nil, err
	}
	defer done()
	img := fitWithin(src, MaxSide)
	img = orient(img, orientation)

	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: JPEGQuality}); err != nil {
		return nil, fmt.Errorf("encode photo: %w", err)
	}
	b := img.Bounds()
	return &Processed{Data: buf.Bytes(), Width: b.Dx(), Height: b.Dy()}, nil
}

// fitWithin draws src onto a white canvas (JPEG has no alpha) scaled so its
// longest side is at most maxSide. It never allocates more than the output
// and, for a large reduction, a box-filtered copy a quarter of the source
// or smaller: the kernel scalers of x/image/draw keep four float64 per
// pixel of an intermediate (200 MB for a 12 MP photo), too much for a Pi.
func fitWithin(src image.Image, maxSide int) *image.RGBA {
	sb := src.Bounds()
	w, h := fitSize(sb.Dx(), sb.Dy(), maxSide)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	op := draw.Src
	if o, ok := src.(interface{ Opaque() bool }); !ok || !o.Opaque() {
		draw.Draw(dst, dst.Bounds(), image.White, image.Point{}, draw.Src)
		op = draw.Over
	}
	if w == sb.Dx() && h == sb.Dy() {
		draw.Draw(dst, dst.Bounds(), src, sb.Min, op)
		return dst
	}
	// Averaging k×k blocks first keeps the final bilinear step under a 2×
	// reduction, where it does not alias.
	if k := min(sb.Dx()/w, sb.Dy()/h); k >= 2 {
		src = boxReduce(src, k)
		sb = src.Bounds()
	}
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, sb, op, nil)
	return dst
}

// fitSize is the size fitWithin gives a w×h image.
func fitSize(w, h, maxSide int) (int, int) {
	if w <= maxSide && h <= maxSide {
		return w, h
	}
	if w >= h {
		return maxSide, max(1, int(int64(h)*int64(maxSide)/int64(w)))
	}
	return max(1, int(int64(w)*int64(maxSide)/int64(h))), maxSide
}

// resizeCost is the memory fitWithin and orient take beyond the decoded
// image: the output, the box-filtered copy of a large reduction, and the
// upright copy of a rotated photo.
func resizeCost(w, h, maxSide, orientation int) int64 {
	tw, th := fitSize(w, h, maxSide)
	cost := int64(tw) * int64(th) * 4
	if k := min(w/tw, h/th); k >= 2 {
		cost += int64(w/k) * int64(h/k) * 4
	}
	if orientation >= 2 && orientation <= 8 {
		cost += int64(tw) * int64(th) * 4
	}
	return cost
}

// boxReduce averages k×k blocks of src (premultiplied colour, so alpha
// edges stay clean) into an image k times smaller on each side.
func boxReduce(src image.Image, k int) *image.RGBA {
	sb := src.Bounds()
	w, h := sb.Dx()/k, sb.Dy()/k
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	n := uint32(k * k)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var r, g, b, a uint32
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					cr, cg, cb, ca := src.At(sb.Min.X+x*k+dx, sb.Min.Y+y*k+dy).RGBA()
					r, g, b, a = r+cr, g+cg, b+cb, a+ca
				}
			}
			i := out.PixOffset(x, y)
			out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = uint8(r/n>>8), uint8(g/n>>8), uint8(b/n>>8), uint8(a/n>>8)
		}
	}
	return out
}

// orient applies an EXIF orientation (1-8) so the image is upright.
func orient(src *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return src
	}
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			var sx, sy int
			switch o {
			case 2: // mirrored
				sx, sy = w-1-x, y
			case 3: // upside down
				sx, sy = w-1-x, h-1-y
			case 4: // mirrored upside down
				sx, sy = x, h-1-y
			case 5: // transposed
				sx, sy = y, x
			case 6: // rotated: turn 90° clockwise
				sx, sy = y, h-1-x
			case 7: // transversed
				sx, sy = w-1-y, h-1-x
			case 8: // turn 90° counter-clockwise
				sx, sy = w-1-y, x
			}
			si, di := src.PixOffset(sx, sy), dst.PixOffset(x, y)
			copy(dst.Pix[di:di+4], src.Pix[si:si+4])
		}
	}
	return dst
}

// Orientation reads the Orientation tag (0x0112) of IFD0 from a JPEG's
// APP1 Exif segment; 1 (upright) when absent or unreadable.
func Orientation(jpg []byte) int {
	if len(jpg) < 4 || jpg[0] != 0xFF || jpg[1] != 0xD8 {
		return 1
	}
	for i := 2; i+4 <= len(jpg); {
		if jpg[i] != 0xFF {
			return 1
		}
		marker := jpg[i+1]
		switch {
		case marker == 0xFF: // fill byte
			i++
			continue
		case marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7): // no length
			i += 2
			continue
		case marker == 0xDA || marker == 0xD9: // image data starts: no more headers
			return 1
		}
		n := int(binary.BigEndian.Uint16(jpg[i+2:]))
		if n < 2 || i+2+n > len(jpg) {
			return 1
		}
		seg := jpg[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) > 6 && string(seg[:6]) == "Exif\x00\x00" {
			if o := tiffOrientation(seg[6:]); o != 0 {
				return o
			}
		}
		i += 2 + n
	}
	return 1
}

// tiffOrientation finds the Orientation tag in a TIFF header's IFD0.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	off := int(bo.Uint32(t[4:]))
	if off < 8 || off+2 > len(t) {
		return 0
	}
	count := int(bo.Uint16(t[off:]))
	for k := 0; k < count; k++ {
		e := off + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 && bo.Uint16(t[e+2:]) == 3 {
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 0
		}
	}
	return 0
}
