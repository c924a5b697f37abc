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
	case strings.ContainsAny(name, `/\`) || name == "." || name == ".." || invalidChar(name, false) != "":
		return "", fmt.Sprintf("%q is not a plain file name: name attachment %d without folders or control characters, such as klippy.log.",
			cleanText(name, 60), n)
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

// Attachment kinds, recognised from a light look at both ends of the text
// (the frontend mirrors these names and rules to show them before sending).
// A kind matches when its text holds one of its phrases (any case) or one
// of its lines passes its line test; the first kind that matches wins, and
// the file name decides when none does. Only substring searches and line
// prefixes: 256 KB of hostile text costs well under a millisecond.
var attachmentKinds = []struct {
	kind, label string
	phrases     []string // lower case
	line        func(line string) bool
	name        *regexp.Regexp
}{
	{"klipper-log", "Klipper log", []string{"starting klippy", "klippy.py", "transition to shutdown state", "===== config file =====", ": gcodein="},
		func(l string) bool { return strings.HasPrefix(l, "MCU '") && strings.Contains(l, "' shutdown") },
		regexp.MustCompile(`(?i)^klippy.*\.log`)},
	{"rrf-m122", "RepRapFirmware diagnostics (M122)", []string{"=== diagnostics ===", "=== platform ==="},
		func(l string) bool {
			return strings.HasPrefix(l, "RepRapFirmware for ") && strings.Contains(l, " version")
		}, nil},
	{"prusa", "Prusa firmware", []string{"prusa-firmware", "firmware_name:prusa", "prusalink", "original prusa", "prusa_printer_settings"}, nil, nil},
	{"marlin-config", "Marlin configuration", nil, marlinDefine, regexp.MustCompile(`(?i)^configuration(_adv)?.*\.h$`)},
	{"rrf-config", "RepRapFirmware config", []string{"configuration file for duet", "generated by reprapfirmware configuration tool"},
		func(l string) bool { return gcodeWord(l, "M584", "M569", "M950") }, regexp.MustCompile(`(?i)^(config|config-override|homeall|bed)\.g$`)},
	{"moonraker-config", "Moonraker config", nil, func(l string) bool {
		return section(l, []string{"server", "authorization", "file_manager", "octoprint_compat", "mqtt", "machine", "database"}, []string{"update_manager", "power "})
	}, regexp.MustCompile(`(?i)^moonraker.*\.conf$`)},
	{"klipper-config", "Klipper config", nil, func(l string) bool {
		return section(l, []string{"printer", "heater_bed", "bltouch", "probe", "bed_mesh", "mcu"}, []string{"stepper_x", "stepper_y", "stepper_z", "extruder", "mcu ", "tmc", "include "})
	}, regexp.MustCompile(`(?i)\.cfg$`)},
	{"gcode", "G-code", nil, func(l string) bool {
		c, ok := strings.CutPrefix(l, ";")
		c = strings.TrimLeft(c, " \t")
		return ok && (strings.HasPrefix(c, "FLAVOR:") || strings.HasPrefix(c, "generated by") || strings.HasPrefix(c, "Generated with") ||
			strings.HasPrefix(c, "HEADER_BLOCK_START") || strings.HasPrefix(c, "thumbnail begin"))
	}, regexp.MustCompile(`(?i)\.(gcode|gco)$`)},
	{"marlin-m503", "Marlin settings (M503)", nil, marlinSetting, nil},
	{"serial-log", "Printer terminal log", []string{"recv:", "send:", "echo:busy", "thermal runaway", "mintemp", "maxtemp", "heating failed",
		"printer halted", "firmware_name:", "ok t:", "resend:"}, nil, nil},
}

// attachmentKindLook is how much of each end of a text is looked at.
const attachmentKindLook = 32 << 10

// attachmentKind recognises a file from its text (both ends of it) and name.
func attachmentKind(name, text string) string {
	look := text
	if len(text) > 2*attachmentKindLook {
		look = text[:attachmentKindLook] + "\n" + text[len(text)-attachmentKindLook:]
	}
	lower := strings.ToLower(look)
	for _, k := range attachmentKinds {
		for _, p := range k.phrases {
			if strings.Contains(lower, p) {
				return k.kind
			}
		}
		if k.line != nil && anyLine(look, k.line) {
			return k.kind
		}
	}
	for _, k := range attachmentKinds {
		if k.name != nil && k.name.MatchString(name) {
			return k.kind
		}
	}
	return "text"
}

func anyLine(text string, test func(string) bool) bool {
	for line := range strings.Lines(text) {
		if test(strings.TrimSpace(line)) {
			return true
		}
	}
	return false
}

// gcodeWord: the line starts with one of the G-code words, not a longer one.
func gcodeWord(l string, words ...string) bool {
	for _, w := range words {
		if rest, ok := strings.CutPrefix(l, w); ok && (rest == "" || rest[0] < '0' || rest[0] > '9') {
			return true
		}
	}
	return false
}

// section: the line is an INI section header named one of names, or
// starting with one of prefixes (followed by a name or digits).
func section(l string, names, prefixes []string) bool {
	inner, ok := strings.CutPrefix(l, "[")
	if inner, ok = strings.CutSuffix(inner, "]"); !ok || strings.ContainsAny(inner, "[]") {
		return false
	}
	for _, n := range names {
		if inner == n {
			return true
		}
	}
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(inner, p); ok && (rest != "" || !strings.HasSuffix(p, " ")) {
			if p == "tmc" { // [tmc2209 stepper_x]
				return len(rest) > 5 && strings.Trim(rest[:4], "0123456789") == "" && rest[4] == ' '
			}
			if p == "extruder" {
				return strings.Trim(rest, "0123456789") == ""
			}
			return true
		}
	}
	return false
}

var marlinDefines = map[string]bool{"MOTHERBOARD": true, "TEMP_SENSOR_0": true, "DEFAULT_AXIS_STEPS_PER_UNIT": true,
	"CONFIGURATION_H_VERSION": true, "CONFIGURATION_ADV_H_VERSION": true, "X_DRIVER_TYPE": true}

// marlinDefine: a #define of an option only Marlin's configuration has.
func marlinDefine(l string) bool {
	rest, ok := strings.CutPrefix(l, "#define")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return false
	}
	name, _, _ := strings.Cut(strings.TrimLeft(rest, " \t"), " ")
	name, _, _ = strings.Cut(name, "\t")
	return marlinDefines[name]
}

var m503Codes = []string{"M92", "M203", "M201", "M204", "M205", "M301", "M304", "M851", "M900", "M906", "M913"}

// marlinSetting: a line of M503 output ("echo:  M92 X80.00 ...").
func marlinSetting(l string) bool {
	l, _ = strings.CutPrefix(l, "Recv: ")
	l, _ = strings.CutPrefix(l, "echo:")
	l = strings.TrimLeft(l, " \t")
	for _, c := range m503Codes {
		rest, ok := strings.CutPrefix(l, c)
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if len(rest) >= 2 && rest[0] >= 'A' && rest[0] <= 'Z' {
			v := rest[1:]
			v, _ = strings.CutPrefix(v, "-")
			if v != "" && v[0] >= '0' && v[0] <= '9' {
				return true
			}
		}
	}
	return false
}

func attachmentLabel(kind string) string {
	for _, k := range attachmentKinds {
		if k.kind == kind {
			return k.label
		}
	}
	return "Text"
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
		out[i] = attachmentJSON{Name: a.Name, Kind: a.Kind, Label: attachmentLabel(a.Kind), Bytes: a.Bytes}
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
