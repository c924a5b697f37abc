package printerlink

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/ai/printerfiles"
)

// The kinds of host.
const (
	Moonraker = "moonraker"
	OctoPrint = "octoprint"
	PrusaLink = "prusalink"
)

// Kinds lists the host kinds in the order forms show them.
var Kinds = []string{Moonraker, OctoPrint, PrusaLink}

// Host is where a printer's host answers and the key it wants.
type Host struct {
	Kind   string
	URL    string // http(s)://address[:port][/prefix]
	APIKey string // "" when the host needs none
}

// Form is what the pull found for the analysis form's fields; nil fields
// were not found.
type Form struct {
	// Category is the issue category the printer's errors point to, "" when none does.
	Category       string             `json:"category,omitempty"`
	Material       *string            `json:"material,omitempty"`
	NozzleTemp     *float64           `json:"nozzleTemp,omitempty"`
	BedTemp        *float64           `json:"bedTemp,omitempty"`
	LayerHeight    *float64           `json:"layerHeight,omitempty"`
	Infill         *float64           `json:"infill,omitempty"`
	SlicerSettings *ai.SlicerSettings `json:"slicerSettings,omitempty"`
}

// Job is the host's last print job.
type Job struct {
	File   string `json:"file"`
	Status string `json:"status"`           // as the host says it: "cancelled", "error", "FINISHED"...
	Reason string `json:"reason,omitempty"` // the host's own words on why it stopped
}

// Result is what a pull found.
type Result struct {
	Kind     string `json:"kind"`
	Software string `json:"software,omitempty"` // the firmware or host version
	State    string `json:"state,omitempty"`    // the printer's state now
	Message  string `json:"message,omitempty"`  // the host's state message
	Job      *Job   `json:"job,omitempty"`
	Form     Form   `json:"form"`
	// Attachments are in the shape the analysis takes, secrets stripped.
	Attachments []ai.Attachment `json:"attachments"`
	// Summary is what the printer says, in one or two short sentences.
	Summary string `json:"summary"`
	// Notes say what could not be read and why.
	Notes []string `json:"notes"`
}

// Errors of a pull that stop it.
var (
	ErrUnreachable  = errors.New("host did not answer")
	ErrUnauthorized = errors.New("host refused the API key")
	ErrBadAnswer    = errors.New("host answered something unexpected")
)

// Bounds of one pull.
const (
	pullTimeout = 20 * time.Second
	maxJSON     = 512 << 10 // one JSON answer
	// attachmentBudget keeps the text of all attachments within what the
	// analysis accepts, with room for secrets stripping to lengthen a line.
	attachmentBudget = ai.MaxAttachmentBytes - 8<<10
	maxConfig        = 96 << 10 // printer.cfg kept (its head)
	// maxScan is what is read of a log whose host ignores Range requests;
	// a longer log is left out rather than downloaded whole.
	maxScan      = 4 << 20
	apiKeyHeader = "X-Api-Key" //nolint:gosec // a header name, not a key
)

// Puller pulls from hosts within a Policy.
type Puller struct {
	client *http.Client
}

// New returns a Puller whose requests stay within p.
func New(p Policy) *Puller { return &Puller{client: p.client()} }

// Pull asks h for the last print. A host that cannot be reached, refuses
// the key or answers nonsense to its first question stops the pull; a
// later file it cannot give becomes a note.
func (pl *Puller) Pull(ctx context.Context, h Host) (*Result, error) {
	base, err := url.Parse(strings.TrimRight(h.URL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("%w: not an http(s) URL", ErrBadAnswer)
	}
	ctx, cancel := context.WithTimeout(ctx, pullTimeout)
	defer cancel()
	s := &session{client: pl.client, base: base, key: h.APIKey, res: &Result{Kind: h.Kind, Attachments: []ai.Attachment{}, Notes: []string{}}}
	switch h.Kind {
	case Moonraker:
		err = s.moonraker(ctx)
	case OctoPrint:
		err = s.octoprint(ctx)
	case PrusaLink:
		err = s.prusalink(ctx)
	default:
		err = fmt.Errorf("%w: unknown kind %q", ErrBadAnswer, h.Kind)
	}
	if err != nil {
		return nil, err
	}
	s.finish()
	return s.res, nil
}

// session is one pull from one host.
type session struct {
	client *http.Client
	base   *url.URL
	key    string
	res    *Result
	budget int // attachment bytes used
}

func (s *session) note(format string, args ...any) {
	s.res.Notes = append(s.res.Notes, fmt.Sprintf(format, args...))
}

// request sends GET base+path with the key and the extra header.
func (s *session) request(ctx context.Context, path string, q url.Values, header ...string) (*http.Response, error) {
	u := *s.base
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadAnswer, err)
	}
	req.Header.Set("Accept", "application/json, text/plain;q=0.9, */*;q=0.1")
	req.Header.Set("User-Agent", "Layerfix printer link")
	if s.key != "" {
		req.Header.Set(apiKeyHeader, s.key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, transportErr(err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		drain(resp)
		return nil, fmt.Errorf("%w (HTTP %d on %s)", ErrUnauthorized, resp.StatusCode, path)
	case resp.StatusCode == http.StatusNoContent:
		drain(resp)
		return nil, errNoContent
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		drain(resp)
		return nil, &statusError{code: resp.StatusCode, path: path}
	}
	return resp, nil
}

var errNoContent = errors.New("no content")

type statusError struct {
	code int
	path string
}

func (e *statusError) Error() string { return fmt.Sprintf("HTTP %d on %s", e.code, e.path) }

// transportErr keeps a refused address apart from a host that is down; the
// message never holds the request's headers.
func transportErr(err error) error {
	switch {
	case errors.Is(err, ErrNotAllowed):
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return err
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Errorf("%w: no answer within the time allowed", ErrUnreachable)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%w: %v", ErrUnreachable, err)
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10)) // best effort, to reuse the connection
	resp.Body.Close()
}

// getJSON decodes the answer to path into v; an answer over maxJSON is an
// error.
func (s *session) getJSON(ctx context.Context, path string, q url.Values, v any) error {
	resp, err := s.request(ctx, path, q)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxJSON+1))
	if err != nil {
		return transportErr(err)
	}
	if len(b) > maxJSON {
		return fmt.Errorf("%w: %s answered more than %d KB", ErrBadAnswer, path, maxJSON>>10)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %s is not the JSON expected", ErrBadAnswer, path)
	}
	return nil
}

// fatal passes on what stops a pull on its first question.
func fatal(err error) error {
	var se *statusError
	if errors.As(err, &se) || errors.Is(err, errNoContent) {
		return fmt.Errorf("%w: %v", ErrBadAnswer, err)
	}
	return err
}

// head reads at most n bytes of path's text; truncated reports a longer file.
func (s *session) head(ctx context.Context, path string, n int) (text string, truncated bool, err error) {
	resp, err := s.request(ctx, path, nil)
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(n)+1))
	if err != nil {
		return "", false, transportErr(err)
	}
	if len(b) > n {
		b, truncated = b[:cutLine(b[:n])], true
	}
	return cleanText(b), truncated, nil
}

// cutLine is the length of b up to its last full line.
func cutLine(b []byte) int {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	return len(b)
}

// tail reads the last n bytes of path's text, from its first full line. It
// asks for a byte range; a host that ignores it may send up to maxScan
// bytes, of which the end is kept.
func (s *session) tail(ctx context.Context, path string, n int) (text string, truncated bool, err error) {
	resp, err := s.request(ctx, path, nil, "Range", "bytes=-"+strconv.Itoa(n))
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	limit := int64(n)
	if resp.StatusCode != http.StatusPartialContent {
		if resp.ContentLength > maxScan {
			return "", false, fmt.Errorf("%w: %s is %d MB and its host ignores byte ranges", ErrBadAnswer, path, resp.ContentLength>>20)
		}
		limit = maxScan
	}
	r := &tailBuffer{keep: n}
	if _, err := io.Copy(r, io.LimitReader(resp.Body, limit+1)); err != nil {
		return "", false, transportErr(err)
	}
	if r.total > limit {
		return "", false, fmt.Errorf("%w: %s is longer than %d MB and its host ignores byte ranges", ErrBadAnswer, path, maxScan>>20)
	}
	b := r.buf
	truncated = r.total > int64(n) || (resp.StatusCode == http.StatusPartialContent && !fromStart(resp.Header.Get("Content-Range")))
	if truncated {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return cleanText(b), truncated, nil
}

// fromStart reports a Content-Range ("bytes 0-99/100") that starts at the
// file's first byte.
func fromStart(cr string) bool {
	return strings.HasPrefix(strings.TrimSpace(cr), "bytes 0-")
}

// tailBuffer keeps the last keep bytes written to it.
type tailBuffer struct {
	keep  int
	buf   []byte
	total int64
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.total += int64(len(p))
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.keep {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.keep:]...)
	}
	return len(p), nil
}

// cleanText is b as text the analysis accepts: valid UTF-8 with no control
// characters but tab, line breaks, form feed and escape.
func cleanText(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if !strings.ContainsFunc(s, badControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if badControl(r) {
			return ' '
		}
		return r
	}, s)
}

func badControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r', '\f', '\v', 0x1b:
		return false
	}
	return r < 0x20 || r == 0x7f
}

// attach adds a file's text with its secrets stripped, within the budget.
func (s *session) attach(name, text string) {
	text, _ = printerfiles.StripSecrets(text)
	if strings.TrimSpace(text) == "" || len(s.res.Attachments) >= ai.MaxAttachments {
		return
	}
	if s.budget+len(text) > attachmentBudget {
		room := attachmentBudget - s.budget
		if room < 1<<10 {
			s.note("%s left out: the other files fill the %d KB the analysis reads", name, ai.MaxAttachmentBytes>>10)
			return
		}
		text = text[len(text)-room:]
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		}
		text = strings.ToValidUTF8(text, "")
	}
	s.budget += len(text)
	s.res.Attachments = append(s.res.Attachments, ai.Attachment{Name: name, Text: text})
}

// room is how many bytes a log may still take.
func (s *session) room() int { return max(attachmentBudget-s.budget, 0) }

// finish writes the summary from what was found.
func (s *session) finish() {
	r := s.res
	var parts []string
	if r.Job != nil {
		p := "last job"
		if r.Job.File != "" {
			p += " " + r.Job.File
		}
		if r.Job.Status != "" {
			p += " " + strings.ReplaceAll(strings.ToLower(r.Job.Status), "_", " ")
		}
		if r.Job.Reason != "" {
			p += " (" + r.Job.Reason + ")"
		}
		parts = append(parts, p)
	}
	if r.Message != "" && (r.Job == nil || !strings.Contains(r.Job.Reason, r.Message)) {
		parts = append(parts, "printer "+strings.ToLower(r.State)+": "+r.Message)
	}
	files := make([]printerfiles.File, len(r.Attachments))
	for i, a := range r.Attachments {
		files[i] = printerfiles.File{Name: a.Name, Text: a.Text}
	}
	seen := map[string]bool{}
	perFile := map[string][]string{}
	var order []string
	facts := printerfiles.Read(files).Facts
	specific := slices.ContainsFunc(facts, func(f printerfiles.Fact) bool { return f.IsError() && !generic[f.Key] })
	for _, f := range facts {
		if !f.IsError() || seen[f.Key] || len(seen) >= 3 || (specific && generic[f.Key]) {
			continue
		}
		seen[f.Key] = true
		if perFile[f.Source] == nil {
			order = append(order, f.Source)
		}
		perFile[f.Source] = append(perFile[f.Source], FactPhrase(f))
		if r.Form.Category == "" {
			r.Form.Category = factCategory[f.Key]
		}
	}
	for _, src := range order {
		parts = append(parts, src+": "+strings.Join(perFile[src], ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "no failed job or logged error found")
	}
	sum := strings.Join(parts, "; ")
	if utf8.RuneCountInString(sum) > 400 {
		sum = string([]rune(sum)[:399]) + "…"
	}
	r.Summary = strings.ToUpper(sum[:1]) + sum[1:]
}

// factCategory is the issue category an error of the printer points to.
var factCategory = map[string]string{
	"error.adc_out_of_range": "heating-issues", "error.maxtemp": "heating-issues", "error.mintemp": "heating-issues",
	"error.heater_not_heating": "heating-issues", "error.thermal_runaway": "heating-issues", "error.sensor_fault": "heating-issues",
	"error.heater_fault": "heating-issues", "error.extrude_below_min_temp": "heating-issues",
	"error.max_extrusion_exceeded": "extrusion-issues", "error.filament_stuck": "extrusion-issues",
	"error.homing_no_trigger": "mechanical-problems", "error.endstop_still_triggered": "mechanical-problems",
	"error.move_out_of_range": "mechanical-problems", "error.driver_short_to_ground": "mechanical-problems",
	"error.driver_open_load": "mechanical-problems", "error.driver_over_temperature": "mechanical-problems",
	"error.probing_failed": "calibration", "error.probe_samples_tolerance": "calibration", "error.probe_triggered_prior_to_movement": "calibration",
}

// factMeaning says in a few words what an error means, where its name does
// not say it.
var factMeaning = map[string]string{
	"error.adc_out_of_range":  "a temperature reading beyond min_temp/max_temp: thermistor or its wiring",
	"error.maxtemp":           "the thermistor reads too hot: shorted thermistor or wrong sensor type",
	"error.mintemp":           "the thermistor reads too cold: open thermistor or broken wire",
	"error.rescheduled_timer": "step rate too high for the board",
	"error.timer_too_close":   "the host or board could not keep up",
}

// generic errors say only that the printer stopped; a log's more specific
// error says why.
var generic = map[string]bool{"error.shutdown": true, "error.mcu_shutdown": true}

// acronyms are written as such in a fact's phrase.
var acronyms = map[string]string{"adc": "ADC", "mcu": "MCU", "tmc": "TMC", "i2c": "I2C", "spi": "SPI", "bltouch": "BLTouch", "can": "CAN", "usb": "USB", "maxtemp": "MAXTEMP", "mintemp": "MINTEMP"}

// FactPhrase says an error fact in a few words: "ADC out of range on
// extruder".
func FactPhrase(f printerfiles.Fact) string {
	k := strings.TrimPrefix(strings.TrimPrefix(f.Key, "error."), "warning.")
	words := strings.Split(k, "_")
	for i, w := range words {
		if a, ok := acronyms[w]; ok {
			words[i] = a
		}
	}
	p := strings.Join(words, " ")
	if f.Subject != "" {
		p += " on " + f.Subject
	}
	if m := factMeaning[f.Key]; m != "" {
		p += " (" + m + ")"
	}
	return p
}

// num turns a JSON number of a plausible range into a form value.
func num(v *float64, lo, hi float64) *float64 {
	if v == nil || *v < lo || *v > hi {
		return nil
	}
	x := *v
	return &x
}

func str(s string, n int) *string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n])
	}
	return &s
}

// clip bounds a host's free text kept in the answer.
func clip(s string, n int) string {
	s = strings.TrimSpace(cleanText([]byte(s)))
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n-1]) + "…"
	}
	return s
}
