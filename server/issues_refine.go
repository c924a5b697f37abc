package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/textcheck"
)

// Refiner is the built-in engine: it offers narrow-it-down questions and
// re-ranks its steps from their answers, offline and in well under a
// millisecond, so answering costs no credit.
type Refiner interface {
	Analyze(ctx context.Context, req ai.Request) (*ai.Result, error)
	QuestionIDs() map[string]bool
}

const (
	refineKeyName   = "refine-token-v1"
	refineTokenLife = 24 * time.Hour
)

// resultJSON is an analysis as the API sends it: the result, and for a
// result with questions, the token that lets an anonymous client narrow it
// down later without spending a credit.
type resultJSON struct {
	*ai.Result
	RefineToken string `json:"refineToken,omitempty"`
	Signature   string `json:"signature"` // lets the result be shared (share.go)
}

// refineCanon is what a refine token binds: the analysis inputs, never the
// photos. Attachments are bound by their digest, so a refine must send
// the same files again; a request without any keeps its old form. The
// bytes are encoding/json's of the list [category, description, material,
// nozzle, bed, layer height, speed, infill, brand, slicer(, digest)],
// written without reflection.
func refineCanon(b []byte, r ai.Request) []byte {
	nums := [...]*float64{r.NozzleTemp, r.BedTemp, r.LayerHeight, r.PrintSpeed, r.Infill}
	for _, v := range nums {
		if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return append(b, refineCanonReflect(r)...) // JSON has no such number
		}
	}
	start := len(b)
	b = append(b, '[')
	for _, s := range [...]string{r.Category, r.Description, r.Material} {
		b = append(appendJSONString(b, s), ',')
	}
	for _, v := range nums {
		b = append(appendJSONNumber(b, v), ',')
	}
	b = append(appendJSONString(b, r.PrinterBrand), ',')
	if r.Slicer == nil {
		b = append(b, "null"...)
	} else {
		slicer, err := json.Marshal(r.Slicer)
		if err != nil {
			return append(b[:start], refineCanonReflect(r)...)
		}
		b = append(b, slicer...)
	}
	if len(r.Attachments) > 0 {
		b = appendJSONString(append(b, ','), attachmentsDigest(r.Attachments))
	}
	return append(b, ']')
}

// refineCanonReflect is refineCanon through encoding/json.
func refineCanonReflect(r ai.Request) []byte {
	in := []any{r.Category, r.Description, r.Material, r.NozzleTemp, r.BedTemp,
		r.LayerHeight, r.PrintSpeed, r.Infill, r.PrinterBrand, r.Slicer}
	if len(r.Attachments) > 0 {
		in = append(in, attachmentsDigest(r.Attachments))
	}
	b, _ := json.Marshal(in)
	return b
}

// attachmentsDigest is the hex SHA-256 of the attachments' names and texts.
func attachmentsDigest(atts []ai.Attachment) string {
	d := sha256.New()
	for _, a := range atts {
		fmt.Fprintf(d, "%d:%s%d:", len(a.Name), a.Name, len(a.Text))
		_, _ = io.WriteString(d, a.Text) // a hash never fails a write
	}
	return hex.EncodeToString(d.Sum(nil))
}

// appendJSONNumber appends v as encoding/json writes a *float64 that is
// neither NaN nor infinite: null for nil, exponents only for the very
// small and the very large.
func appendJSONNumber(b []byte, v *float64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	f, format := *v, byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-09 is written e-9
		b = b[:n-1]
	}
	return b
}

// refineMAC is the MAC a refine token carries; m is keyed and fresh.
func refineMAC(m *keyedMAC, exp int64, r ai.Request) (mac [20]byte) {
	b := strconv.AppendInt(append(m.buf[:0], "refine\x00"...), exp, 10)
	b = refineCanon(append(b, 0), r)
	m.Write(b)
	m.buf = m.Sum(b[:0])
	copy(mac[:], m.buf)
	return mac
}

// refineToken signs a request whose analysis this server made and charged.
func (t *troubleshootAPI) refineToken(ctx context.Context, r ai.Request) (string, error) {
	m, err := t.keys.mac(ctx, refineKeyName)
	if err != nil {
		return "", err
	}
	defer m.release()
	exp := t.now().Add(refineTokenLife).Unix()
	mac := refineMAC(m, exp, r)
	var buf [64]byte
	return string(base64.RawURLEncoding.AppendEncode(append(strconv.AppendInt(buf[:0], exp, 10), '.'), mac[:])), nil
}

func (t *troubleshootAPI) validRefineToken(ctx context.Context, token string, r ai.Request) (bool, error) {
	return checkRefineToken(ctx, t.keys, t.now(), token, r)
}

// checkRefineToken reports whether token binds the inputs of r and has not
// expired at now.
func checkRefineToken(ctx context.Context, keys *keyring, now time.Time, token string, r ai.Request) (bool, error) {
	expS, macS, ok := strings.Cut(token, ".")
	exp, err := strconv.ParseInt(expS, 10, 64)
	if !ok || err != nil || len(token) > 64 || time.Unix(exp, 0).Before(now) {
		return false, nil
	}
	mac, err := base64.RawURLEncoding.DecodeString(macS)
	if err != nil {
		return false, nil
	}
	m, err := keys.mac(ctx, refineKeyName)
	if err != nil {
		return false, err
	}
	defer m.release()
	want := refineMAC(m, exp, r)
	return hmac.Equal(mac, want[:]), nil
}

// checkAnswers keeps answers to known questions only, each yes, no or
// unsure, and no more than an analysis asks.
func checkAnswers(answers map[string]ai.Answer, known map[string]bool) *APIError {
	if len(answers) == 0 {
		return validationErr(map[string]string{"answers": "Answer at least one question"})
	}
	if len(answers) > ai.MaxQuestions {
		return validationErr(map[string]string{"answers": fmt.Sprintf("At most %d answers", ai.MaxQuestions)})
	}
	for id, a := range answers {
		if !known[id] {
			return validationErr(map[string]string{"answers": fmt.Sprintf("%q is not a question of this analysis", textcheck.Clean(id, 60))})
		}
		if !a.Valid() {
			return validationErr(map[string]string{"answers": fmt.Sprintf("Answer %q with yes, no or unsure", textcheck.Clean(id, 60))})
		}
	}
	return nil
}

type refineRequest struct {
	troubleshootRequest
	Answers     map[string]ai.Answer `json:"answers"`
	RefineToken string               `json:"refineToken"`
}

// refine handles POST /api/troubleshoot/refine: an anonymous result narrowed
// down by answers. The token proves this server analysed (and charged) the
// same inputs, so no credit is taken; photos are not sent again.
func (t *troubleshootAPI) refine(c echo.Context) (err error) {
	defer guardAnalysis(&err, nil)
	if t.refiner == nil {
		return notFoundErr("API endpoint")
	}
	ctx := c.Request().Context()
	release, err := photos.Body.Acquire(ctx, min(3*photos.BodySize(c.Request(), refineBodyLimit), photos.Body.Size()))
	if err != nil {
		return budgetErr(err)
	}
	defer release()
	var in refineRequest
	fields, atts, err := bindAnalysis(c, &in, &in.troubleshootRequest)
	if err != nil {
		return err
	}
	if len(fields) > 0 {
		return validationErr(fields)
	}
	if e := checkAnswers(in.Answers, t.refiner.QuestionIDs()); e != nil {
		return e
	}
	req := in.request()
	req.PrinterBrand, req.Attachments = in.PrinterBrand, aiAttachments(atts)
	ok, err := t.validRefineToken(ctx, in.RefineToken, req)
	if err != nil {
		return err
	}
	if !ok {
		return apiErr(http.StatusForbidden, "REFINE_TOKEN_INVALID", "This result can no longer be narrowed down here: run the analysis again.")
	}
	req.Answers = in.Answers
	res, err := t.refiner.Analyze(ctx, req)
	if err != nil {
		return analysisErr(err)
	}
	out := resultJSON{Result: res, RefineToken: in.RefineToken}
	enc := encodeResult(res)
	defer enc.release()
	if out.Signature, err = t.signer.signEncoded(ctx, enc); err != nil {
		return err
	}
	return writeResult(c, out, enc)
}

type issueRefineRequest struct {
	Answers map[string]ai.Answer `json:"answers"`
}

// refine handles POST /api/issues/:id/refine: a saved issue's analysis
// narrowed down by answers and saved; no credit is taken. Only an analysis
// the built-in engine made has questions to answer.
func (h *issuesAPI) refine(c echo.Context) (err error) {
	defer guardAnalysis(&err, nil)
	if h.refiner == nil {
		return notFoundErr("API endpoint")
	}
	id, err := pathID(c, "Issue")
	if err != nil {
		return err
	}
	var in issueRefineRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if e := checkAnswers(in.Answers, h.refiner.QuestionIDs()); e != nil {
		return e
	}
	ctx, user := c.Request().Context(), currentUser(c)
	is, err := h.store.IssueByID(ctx, user.ID, id)
	if err != nil {
		return storeErr(err, "Issue")
	}
	if is.Status == store.StatusResolved {
		return apiErr(http.StatusConflict, "ISSUE_ALREADY_RESOLVED", "This issue is already resolved.")
	}
	var prev ai.Result
	if json.Unmarshal(is.AIChecklist, &prev) != nil || (len(prev.Questions) == 0 && len(prev.Answers) == 0) {
		return apiErr(http.StatusConflict, "NOTHING_TO_REFINE", "This analysis has no questions to narrow it down.")
	}
	req, p := h.savedRequest(ctx, user.ID, is)
	if p != nil {
		if req.History, err = h.history(ctx, user.ID, p.ID); err != nil {
			return err
		}
	}
	if is.AttachmentCount > 0 {
		atts, err := h.store.IssueAttachments(ctx, user.ID, id, true)
		if err != nil {
			return err
		}
		req.Attachments = aiAttachments(atts)
	}
	// Only the questions this analysis asked can be answered.
	asked := map[string]bool{}
	for _, q := range prev.Questions {
		asked[q.ID] = true
	}
	answers := map[string]ai.Answer{}
	for k, v := range prev.Answers {
		answers[k] = v
	}
	for k, v := range in.Answers {
		if !asked[k] {
			return validationErr(map[string]string{"answers": fmt.Sprintf("%q is not a question of this analysis", textcheck.Clean(k, 60))})
		}
		answers[k] = v
	}
	req.Answers = answers
	res, err := h.refiner.Analyze(ctx, req)
	if err != nil {
		return analysisErr(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encode analysis: %w", err)
	}
	if err := h.store.SetChecklist(ctx, user.ID, id, store.JSON(data), h.diagnose(req)); err != nil {
		return storeErr(err, "Issue")
	}
	return h.respond(c)
}
