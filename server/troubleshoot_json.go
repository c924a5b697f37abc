package server

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// The body of POST /api/troubleshoot is decoded by encoding/json, through
// reflection, for a tenth of the server's own work on an analysis. The
// plain form the app sends (strings, numbers, null, a list of photos) is
// decoded here by hand instead; every other body, and every mistake, goes
// to encoding/json, so each answer stays what bindJSON gives.

// smallBodySize is the most read at once for the hand decoder: a form
// without photos or attachments fits.
const smallBodySize = 16 << 10

var smallBodyMemory = sync.Pool{New: func() any { b := make([]byte, smallBodySize); return &b }}

// bindTroubleshoot decodes the body into in, a zero request, answering as
// bindJSON(c, in) does for every body.
func bindTroubleshoot(c echo.Context, in *troubleshootRequest) error {
	if err := requireJSON(c); err != nil {
		return err
	}
	mem := smallBodyMemory.Get().(*[]byte)
	defer smallBodyMemory.Put(mem)
	body := c.Request().Body
	n, err := readUpTo(body, *mem)
	read := (*mem)[:n]
	if err == io.EOF {
		if v, ok := decodePlainAnalysis(read); ok {
			*in = v
			return nil
		}
	}
	// encoding/json gets the very bytes the body gave, then what it gives
	// next: the rest, or the error that ended the read.
	var rest io.Reader = body
	switch {
	case err == io.EOF:
		rest = http.NoBody
	case err != nil:
		rest = failedReader{err}
	}
	return decodeJSON(c, io.MultiReader(bytes.NewReader(read), rest), in)
}

// readUpTo reads r until buf is full (err nil) or r fails or ends (err
// io.EOF).
func readUpTo(r io.Reader, buf []byte) (n int, err error) {
	for n < len(buf) {
		var m int
		m, err = r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// failedReader gives the error a body read ended with, again and again.
type failedReader struct{ err error }

func (r failedReader) Read([]byte) (int, error) { return 0, r.err }

// decodePlainAnalysis decodes body as encoding/json decodes it into a zero
// troubleshootRequest, with ok, when body is one object of the request's
// plain fields, each at most once and spelt exactly: strings without
// \u escapes, numbers, null, a list of strings for the photos; then only
// whitespace. Anything else is not ok, and left to encoding/json.
func decodePlainAnalysis(body []byte) (in troubleshootRequest, ok bool) {
	p := plainJSON{s: string(body)}
	var seen [keyImages]bool
	// The numbers and the material share one allocation.
	vals := new(struct {
		num      [5]float64
		material string
	})
	p.space()
	if !p.next('{') {
		return in, false
	}
	p.space()
	for more := !p.next('}'); more; {
		key, ok := p.key()
		k := plainAnalysisKey(key)
		if !ok || k == 0 || seen[k-1] {
			return in, false
		}
		seen[k-1] = true
		p.space()
		if !p.next(':') {
			return in, false
		}
		p.space()
		switch k {
		case keyCategory:
			ok = p.stringOrNull(&in.Category)
		case keyDescription:
			ok = p.stringOrNull(&in.Description)
		case keyPrinterBrand:
			ok = p.stringOrNull(&in.PrinterBrand)
		case keyMaterial:
			in.Material, ok = p.stringPointer(&vals.material)
		case keyNozzleTemp:
			in.NozzleTemp, ok = p.numberPointer(&vals.num[0])
		case keyBedTemp:
			in.BedTemp, ok = p.numberPointer(&vals.num[1])
		case keyLayerHeight:
			in.LayerHeight, ok = p.numberPointer(&vals.num[2])
		case keyPrintSpeed:
			in.PrintSpeed, ok = p.numberPointer(&vals.num[3])
		case keyInfill:
			in.Infill, ok = p.numberPointer(&vals.num[4])
		case keyImages:
			in.Images, ok = p.stringsOrNull()
		}
		if !ok {
			return in, false
		}
		p.space()
		switch {
		case p.next(','):
			p.space()
		case p.next('}'):
			more = false
		default:
			return in, false
		}
	}
	p.space()
	return in, p.i == len(p.s)
}

// The fields decodePlainAnalysis decodes, by JSON name.
const (
	keyCategory = iota + 1
	keyDescription
	keyPrinterBrand
	keyMaterial
	keyNozzleTemp
	keyBedTemp
	keyLayerHeight
	keyPrintSpeed
	keyInfill
	keyImages
)

// plainAnalysisKey is the field of a JSON name, 0 for none.
func plainAnalysisKey(name string) int {
	switch name {
	case "category":
		return keyCategory
	case "description":
		return keyDescription
	case "printerBrand":
		return keyPrinterBrand
	case "material":
		return keyMaterial
	case "nozzleTemp":
		return keyNozzleTemp
	case "bedTemp":
		return keyBedTemp
	case "layerHeight":
		return keyLayerHeight
	case "printSpeed":
		return keyPrintSpeed
	case "infill":
		return keyInfill
	case "images":
		return keyImages
	}
	return 0
}

// plainJSON reads the plain part of JSON from s at i; each method reports
// whether it found what it reads.
type plainJSON struct {
	s string
	i int
}

func (p *plainJSON) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// next reads c if it comes next.
func (p *plainJSON) next(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *plainJSON) null() bool {
	if len(p.s)-p.i >= 4 && p.s[p.i:p.i+4] == "null" {
		p.i += 4
		return true
	}
	return false
}

// key reads a string without escapes.
func (p *plainJSON) key() (string, bool) {
	if !p.next('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '"':
			p.i++
			return p.s[start : p.i-1], true
		case c < 0x20, c == '\\':
			return "", false
		}
		p.i++
	}
	return "", false
}

// str reads a string of valid UTF-8 whose escapes, if any, are the short
// ones (\" \\ \/ \b \f \n \r \t).
func (p *plainJSON) str() (string, bool) {
	if !p.next('"') {
		return "", false
	}
	start, ascii := p.i, true
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			s := p.s[start:p.i]
			p.i++
			return s, ascii || utf8.ValidString(s)
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	return "", false
}

// escaped reads the rest of a string from its first escape at i; start is
// where its text began.
func (p *plainJSON) escaped(start int) (string, bool) {
	b := []byte(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), utf8.Valid(b)
		case c < 0x20:
			return "", false
		case c != '\\':
			b = append(b, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", false
		}
		switch e := p.s[p.i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		default:
			return "", false
		}
		p.i += 2
	}
	return "", false
}

// stringOrNull reads a string into dst; null leaves dst as it is.
func (p *plainJSON) stringOrNull(dst *string) bool {
	if p.null() {
		return true
	}
	s, ok := p.str()
	*dst = s
	return ok
}

// stringPointer reads a string into mem and points at it; null is nil.
func (p *plainJSON) stringPointer(mem *string) (*string, bool) {
	if p.null() {
		return nil, true
	}
	s, ok := p.str()
	*mem = s
	return mem, ok
}

// numberPointer reads a JSON number into mem and points at it; null is
// nil. A number a float64 cannot hold is not read.
func (p *plainJSON) numberPointer(mem *float64) (*float64, bool) {
	if p.null() {
		return nil, true
	}
	start := p.i
	p.next('-')
	switch {
	case p.next('0'):
	case p.i < len(p.s) && '1' <= p.s[p.i] && p.s[p.i] <= '9':
		p.digits()
	default:
		return nil, false
	}
	if p.next('.') && !p.digits() {
		return nil, false
	}
	if p.next('e') || p.next('E') {
		if !p.next('+') {
			p.next('-')
		}
		if !p.digits() {
			return nil, false
		}
	}
	v, err := strconv.ParseFloat(p.s[start:p.i], 64)
	*mem = v
	return mem, err == nil
}

// digits reads one digit or more.
func (p *plainJSON) digits() bool {
	start := p.i
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// stringsOrNull reads a list of strings; null is nil, [] an empty list.
func (p *plainJSON) stringsOrNull() ([]string, bool) {
	if p.null() {
		return nil, true
	}
	if !p.next('[') {
		return nil, false
	}
	p.space()
	list := []string{}
	if p.next(']') {
		return list, true
	}
	for {
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		list = append(list, s)
		p.space()
		switch {
		case p.next(','):
			p.space()
		case p.next(']'):
			return list, true
		default:
			return nil, false
		}
	}
}
