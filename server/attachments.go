package server

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/ai/printerfiles"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/textcheck"
)

// Attachments are the printer's own text files (klippy.log, printer.cfg, an
// M503 dump, Configuration.h) that go with an analysis. Up to
// ai.MaxAttachments of them with ai.MaxAttachmentBytes of text in all; each
// must be UTF-8 text with a plain file name. Their secrets are stripped
// before anything else sees them: the analyzer, the database, the owner's
// download.

const maxAttachmentName = 100

// maxAttachmentsJSON is the most the attachments can take in a JSON body:
// every byte of text may arrive escaped as \u00XX (6 bytes), plus names.
const maxAttachmentsJSON = 6*ai.MaxAttachmentBytes + 4<<10

// attachmentIn is an attachment as a client sends it.
type attachmentIn struct {
	Name string   `json:"name"`
	Text jsonText `json:"text"`
}

// jsonText is a JSON string that remembers whether its raw JSON held bytes
// that are not UTF-8 or an unpaired surrogate escape: the decoder silently
// turns both into U+FFFD, which a real log may also hold.
type jsonText struct {
	s       string
	invalid bool
}

func (t *jsonText) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if err := json.Unmarshal(b, &t.s); err != nil {
		return err
	}
	t.invalid = !utf8.Valid(b) || loneSurrogate(b)
	return nil
}

// loneSurrogate reports an escaped UTF-16 surrogate without its pair in a
// raw JSON string.
func loneSurrogate(b []byte) bool {
	high := false // the previous escape was a high surrogate
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			if high {
				return true
			}
			continue
		}
		if b[i+1] != 'u' || i+6 > len(b) {
			if high {
				return true
			}
			i++
			continue
		}
		r, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
		i += 5
		switch {
		case err != nil:
			return true
		case r >= 0xD800 && r < 0xDC00:
			if high {
				return true
			}
			high = true
		case r >= 0xDC00 && r < 0xE000:
			if !high {
				return true
			}
			high = false
		default:
			if high {
				return true
			}
		}
	}
	return high
}

// checkAttachments validates what a client sent and returns the attachments
// with their secrets stripped and their kind recognised. More text than
// ai.MaxAttachmentBytes in all is a 413; any other fault a 400 naming the
// file.
func checkAttachments(in []attachmentIn) ([]store.Attachment, *APIError) {
	if len(in) == 0 {
		return nil, nil
	}
	if len(in) > ai.MaxAttachments {
		return nil, validationErr(map[string]string{"attachments": fmt.Sprintf(
			"You can attach at most %d files (logs, configs or settings dumps); you sent %d.", ai.MaxAttachments, len(in))})
	}
	total := 0
	for _, a := range in {
		total += len(a.Text.s)
	}
	if total > ai.MaxAttachmentBytes {
		msg := fmt.Sprintf("Attachments can hold at most %d KB of text in all; these have %d KB. Attach the end of a long log, where the error is.",
			ai.MaxAttachmentBytes>>10, (total+1023)>>10)
		return nil, &APIError{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: msg,
			Fields: map[string]string{"attachments": msg}}
	}
	out := make([]store.Attachment, 0, len(in))
	for i, a := range in {
		name, msg := attachmentName(a.Name, i+1)
		if msg == "" {
			msg = attachmentTextProblem(name, a.Text)
		}
		if msg != "" {
			return nil, validationErr(map[string]string{"attachments": msg})
		}
		text, _ := printerfiles.StripSecrets(a.Text.s)
		out = append(out, store.Attachment{Name: name, Kind: attachmentKind(name, text), Text: text})
	}
	return out, nil
}

// checkAttachments checks the form's attachments: a fault joins the
// other fields' messages; more text than allowed is the 413 returned.
func (f *issueFields) checkAttachments(fields map[string]string) ([]store.Attachment, *APIError) {
	atts, e := checkAttachments(f.Attachments)
	f.Attachments = nil
	if e != nil && e.Status == http.StatusRequestEntityTooLarge {
		return nil, e
	}
	if e != nil {
		for k, v := range e.Fields {
			fields[k] = v
		}
	}
	return atts, nil
}

// attachmentName checks the name of attachment n: a plain file name.
func attachmentName(name string, n int) (string, string) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", fmt.Sprintf("Attachment %d needs a file name, such as klippy.log or printer.cfg.", n)
	case utf8.RuneCountInString(name) > maxAttachmentName:
		return "", fmt.Sprintf("The name of attachment %d is longer than %d characters.", n, maxAttachmentName)
	case strings.ContainsAny(name, `/\`) || name == "." || name == ".." || textcheck.InvalidChar(name, false) != "":
		return "", fmt.Sprintf("%q is not a plain file name: name attachment %d without folders or control characters, such as klippy.log.",
			textcheck.Clean(name, 60), n)
	}
	return name, ""
}

// attachmentTextProblem says why a file's text is refused: not UTF-8, empty,
// or binary (a control character other than tab, line breaks, form feed and
// the escape of terminal colours).
func attachmentTextProblem(name string, t jsonText) string {
	if t.invalid {
		return fmt.Sprintf("%s is not UTF-8 text: save it as plain text (UTF-8) and attach it again.", name)
	}
	if strings.TrimSpace(t.s) == "" {
		return fmt.Sprintf("%s is empty.", name)
	}
	line := 1
	for i := 0; i < len(t.s); i++ {
		switch c := t.s[i]; {
		case c == '\n':
			line++
		case c == '\t', c == '\r', c == '\f', c == '\v', c == 0x1b:
		case c < 0x20 || c == 0x7f:
			return fmt.Sprintf("%s looks like a binary file (a control character on line %d): attach a text file such as a .log, .cfg or .txt.", name, line)
		}
	}
	return ""
}

// aiAttachments are the attachments as the analyzer takes them.
func aiAttachments(list []store.Attachment) []ai.Attachment {
	if len(list) == 0 {
		return nil
	}
	out := make([]ai.Attachment, len(list))
	for i, a := range list {
		out[i] = ai.Attachment{Name: a.Name, Text: a.Text}
	}
	return out
}

// Attachment kinds are printerfiles' (klippy-log, marlin-m503, rrf-config...,
// unknown), recognised from the text and the name as the analysis reads
// them, plus Moonraker's config, which the analysis does not read. The
// frontend mirrors the names and a light version of the rules to show them
// before sending.
const kindMoonraker = "moonraker-config"

// legacyKinds are the names of kinds stored before the analysis named them.
var legacyKinds = map[string]printerfiles.Kind{
	"klipper-log": printerfiles.KindKlippyLog, "serial-log": printerfiles.KindMarlinSerial,
	"prusa": printerfiles.KindPrusaSupport, "text": printerfiles.KindUnknown, "": printerfiles.KindUnknown,
}

// attachmentKindLook is how much of each end of a text the Moonraker test
// looks at.
const attachmentKindLook = 32 << 10

var moonrakerName = regexp.MustCompile(`(?i)^moonraker.*\.conf$`)

// attachmentKind recognises a file from its text and name.
func attachmentKind(name, text string) string {
	look := text
	if len(text) > 2*attachmentKindLook {
		look = text[:attachmentKindLook] + "\n" + text[len(text)-attachmentKindLook:]
	}
	if moonrakerName.MatchString(name) || anyLine(look, func(l string) bool {
		return section(l, []string{"server", "authorization", "file_manager", "octoprint_compat", "mqtt", "machine", "database"}, []string{"update_manager", "power "})
	}) {
		return kindMoonraker
	}
	return string(printerfiles.Detect(name, text))
}

func anyLine(text string, test func(string) bool) bool {
	for line := range strings.Lines(text) {
		if test(strings.TrimSpace(line)) {
			return true
		}
	}
	return false
}

// section: the line is an INI section header named one of names, or
// starting with one of prefixes (followed by a name).
func section(l string, names, prefixes []string) bool {
	// Only the closing bracket is required: "name]" reads as a section too.
	inner, _ := strings.CutPrefix(l, "[")
	inner, ok := strings.CutSuffix(inner, "]")
	if !ok || strings.ContainsAny(inner, "[]") {
		return false
	}
	for _, n := range names {
		if inner == n {
			return true
		}
	}
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(inner, p); ok && (rest != "" || !strings.HasSuffix(p, " ")) {
			return true
		}
	}
	return false
}

func attachmentLabel(kind string) string {
	if kind == kindMoonraker {
		return "Moonraker config"
	}
	k := printerfiles.Kind(kind)
	if legacy, ok := legacyKinds[kind]; ok {
		k = legacy
	}
	return k.Label()
}

// attachmentKindName is a stored kind under its current name.
func attachmentKindName(kind string) string {
	if legacy, ok := legacyKinds[kind]; ok {
		return string(legacy)
	}
	return kind
}

// attachmentJSON is what an issue shows of an attachment; its text is
// downloaded separately (GET /api/issues/:id/attachments/:n).
type attachmentJSON struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Bytes int    `json:"bytes"`
}

func attachmentsJSON(list []store.Attachment) []attachmentJSON {
	out := make([]attachmentJSON, len(list))
	for i, a := range list {
		out[i] = attachmentJSON{Name: a.Name, Kind: attachmentKindName(a.Kind), Label: attachmentLabel(a.Kind), Bytes: a.Bytes}
	}
	return out
}

// withAttachments adds the names, kinds and sizes of an issue's attachments.
func (h *issuesAPI) withAttachments(ctx context.Context, userID int64, out *issueJSON) error {
	if out.AttachmentCount == 0 {
		return nil
	}
	list, err := h.store.IssueAttachments(ctx, userID, out.ID, false)
	if err != nil {
		return err
	}
	out.Attachments = attachmentsJSON(list)
	return nil
}

// attachment handles GET /api/issues/:id/attachments/:n: the text of the
// caller's attachment n (from 0) as a download. Another user's is a 404.
func (h *issuesAPI) attachment(c echo.Context) error {
	id, err := pathID(c, "Issue")
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 || n >= ai.MaxAttachments {
		return notFoundErr("Attachment")
	}
	a, err := h.store.IssueAttachment(c.Request().Context(), currentUser(c).ID, id, n)
	if err != nil {
		return storeErr(err, "Attachment")
	}
	hdr := c.Response().Header()
	hdr.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": a.Name}))
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(a.Text))
}
