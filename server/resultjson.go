package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
)

// An analysis is encoded once: its summary, steps and tips are what its
// signature covers and what its response body carries. The encoding is
// byte for byte encoding/json's (HTML characters, U+2028 and U+2029
// escaped, invalid UTF-8 replaced), written by hand because reflection
// was a tenth of an analysis's cost.

// encodedResult is a result's shown fields as JSON; its memory is reused
// once released.
type encodedResult struct {
	// *mem holds {"summary":…,"steps":…,"additionalTips":… : the start of
	// the response body, which writeResult goes on writing.
	mem                  *[]byte
	summary, steps, tips []byte // the JSON of each, in *mem
}

// encodeMemory keeps the memory of answers already sent for the next ones.
var encodeMemory = sync.Pool{New: func() any { return new([]byte) }}

// putEncodeMemory keeps b in mem for another answer unless an outsized one
// grew it.
func putEncodeMemory(mem *[]byte, b []byte) {
	if cap(b) <= 64<<10 {
		*mem = b[:0]
		encodeMemory.Put(mem)
	}
}

func encodeResult(r *ai.Result) encodedResult {
	e := encodedResult{mem: encodeMemory.Get().(*[]byte)}
	b := append((*e.mem)[:0], `{"summary":`...)
	s := len(b)
	b = appendJSONString(b, r.Summary)
	e.summary = b[s:]
	b = append(b, `,"steps":`...)
	s = len(b)
	b = appendSteps(b, r.Steps)
	e.steps = b[s:]
	b = append(b, `,"additionalTips":`...)
	s = len(b)
	b = appendStrings(b, r.AdditionalTips)
	e.tips = b[s:]
	*e.mem = b
	return e
}

// release hands the memory back; e must not be used after.
func (e encodedResult) release() { putEncodeMemory(e.mem, *e.mem) }

// The pieces of the content a signature covers.
var contentOpen, contentSteps, contentTips, contentClose = []byte(`{"s":`), []byte(`,"t":`), []byte(`,"a":`), []byte(`}`)

// writeContent writes what a signature covers, what a shared guide shows:
// the JSON object {"s": summary, "t": steps, "a": additional tips}.
func (e encodedResult) writeContent(w io.Writer) {
	// w is a buffer or a hash, which never fail.
	for _, b := range [...][]byte{contentOpen, e.summary, contentSteps, e.steps, contentTips, e.tips, contentClose} {
		_, _ = w.Write(b)
	}
}

func resultContent(r *ai.Result) []byte {
	e := encodeResult(r)
	defer e.release()
	var b bytes.Buffer
	e.writeContent(&b)
	return b.Bytes()
}

// jsonContentType is the Content-Type of every result, one value shared by
// all: a handler replaces a header but never writes into its value list.
var jsonContentType = []string{echo.MIMEApplicationJSON}

// writeResult answers 200 with out, whose result enc holds encoded: the
// JSON c.JSON would write (fields in order, a final newline). The body is
// written on after enc's own bytes, in enc's memory.
func writeResult(c echo.Context, out resultJSON, enc encodedResult) error {
	// The query is parsed only when there is one.
	if c.Request().URL.RawQuery != "" && c.QueryParams().Has("pretty") || c.Echo().Debug {
		return c.JSON(http.StatusOK, out)
	}
	b := *enc.mem
	if len(out.Questions) > 0 {
		b = append(b, `,"questions":[`...)
		for i, q := range out.Questions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(append(b, `{"id":`...), q.ID)
			b = append(appendJSONString(append(b, `,"text":`...), q.Text), '}')
		}
		b = append(b, ']')
	}
	if len(out.Answers) > 0 {
		answers, _ := json.Marshal(out.Answers) // a map of strings never fails
		b = append(append(b, `,"answers":`...), answers...)
	}
	// Which engine and model answered.
	for _, f := range []struct{ name, v string }{{`,"engine":`, out.Engine}, {`,"model":`, out.Model}, {`,"fallbackFrom":`, out.FallbackFrom}} {
		if f.v != "" {
			b = appendJSONString(append(b, f.name...), f.v)
		}
	}
	if out.RefineToken != "" {
		b = appendJSONString(append(b, `,"refineToken":`...), out.RefineToken)
	}
	b = appendJSONString(append(b, `,"signature":`...), out.Signature)
	b = append(b, "}\n"...)
	*enc.mem = b // released with enc, however much it grew
	// Its length is known: the body goes unchunked.
	h := c.Response().Header()
	h[echo.HeaderContentType] = jsonContentType
	h[echo.HeaderContentLength] = []string{strconv.Itoa(len(b))}
	c.Response().WriteHeader(http.StatusOK)
	_, err := c.Response().Write(b)
	return err
}

// appendSteps appends steps as encoding/json writes a []ai.Step.
func appendSteps(b []byte, steps []ai.Step) []byte {
	if steps == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range steps {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(append(b, `{"title":`...), s.Title)
		b = appendJSONString(append(b, `,"description":`...), s.Description)
		b = append(appendJSONString(append(b, `,"priority":`...), s.Priority), '}')
	}
	return append(b, ']')
}

// appendStrings appends list as encoding/json writes a []string.
func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// jsonSafe are the ASCII bytes encoding/json writes as they are: printable
// characters but for the quote, the backslash and HTML's <, > and &.
var jsonSafe = func() (set [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		set[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return set
}()

// safeWord reports whether all eight bytes of w are jsonSafe: none below
// 0x20 or from 0x80, and none a quote, backslash, <, > or &.
func safeWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	// A byte of x is zero where (x-ones) &^ x has its high bit: the bytes
	// equal to c are the zero bytes of w ^ c*ones.
	q, bs, lt, gt, amp := w^('"'*ones), w^('\\'*ones), w^('<'*ones), w^('>'*ones), w^('&'*ones)
	zero := (q-ones)&^q | (bs-ones)&^bs | (lt-ones)&^lt | (gt-ones)&^gt | (amp-ones)&^amp
	// Bytes from 0x80 have the high bit; bytes below 0x20 get it when 0x20
	// is taken from each.
	return (w|(w-0x20*ones)|zero)&highs == 0
}

// appendJSONString appends s quoted as encoding/json quotes a string.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight safe bytes at a time: prose is mostly plain ASCII.
		for i+8 <= len(s) && safeWord(binary.LittleEndian.Uint64([]byte(s[i:i+8]))) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}
