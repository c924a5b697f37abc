package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/textcheck"
)

// anonQuota is the store's anonymous allowance.
type anonQuota interface {
	ConsumeAnonymous(ctx context.Context, ip string, now time.Time, limit int) (bool, error)
	RefundAnonymous(ctx context.Context, ip string, now time.Time) error
	AnonymousUsage(ctx context.Context, ip string, now time.Time) (int, error)
}

type troubleshootAPI struct {
	quota    anonQuota
	analyzer ai.Analyzer
	limit    int // -1: no quota
	netLimit int // free analyses per network and month; -1: none
	now      func() time.Time
	log      *slog.Logger
	refiner  Refiner  // nil: no narrow-it-down
	keys     *keyring // refine tokens
	signer   resultSigner
}

// troubleshootRequest is the anonymous analysis payload of POST /api/troubleshoot.
type troubleshootRequest struct {
	issueFields
	PrinterBrand     string   `json:"printerBrand"`
	Images           []string `json:"images"`
	ScreenDimensions *struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"screenDimensions"`
}

// bindAnalysis decodes a body that carries an anonymous analysis's inputs
// (v embeds in) and checks them (troubleshootRequest.check).
func bindAnalysis(c echo.Context, v any, in *troubleshootRequest) (map[string]string, []store.Attachment, error) {
	if err := bindJSON(c, v); err != nil {
		return nil, nil, err
	}
	return in.check()
}

// check checks the decoded inputs of an anonymous analysis: a message per
// bad field, the attachments, or the error to answer at once (attachments
// over their limit).
func (in *troubleshootRequest) check() (map[string]string, []store.Attachment, error) {
	fields := in.validate()
	atts, aerr := in.checkAttachments(fields)
	if aerr != nil {
		return nil, nil, aerr
	}
	return fields, atts, nil
}

// validate normalises the fields and returns a message per bad one.
func (in *troubleshootRequest) validate() map[string]string {
	fields := map[string]string{}
	in.normalize(fields)
	in.PrinterBrand = strings.TrimSpace(in.PrinterBrand)
	switch {
	case in.PrinterBrand == "":
		fields["printerBrand"] = "Please enter your printer brand"
	case utf8.RuneCountInString(in.PrinterBrand) > maxPrinterBrand:
		fields["printerBrand"] = "Brand must be less than 100 characters"
	case textcheck.Problem("Brand", in.PrinterBrand, false) != "":
		fields["printerBrand"] = textcheck.Problem("Brand", in.PrinterBrand, false)
	}
	return fields
}

func (t *troubleshootAPI) troubleshoot(c echo.Context) (err error) {
	ctx, ip, now := c.Request().Context(), clientIP(c), t.now()
	var taken []string // the allowances this request has taken a credit from
	defer guardAnalysis(&err, func() { t.refund(ctx, now, taken...) })
	// An address that has used its allowance is answered before its body is
	// read (the count is checked again, atomically, when the credit is taken).
	if t.limit >= 0 {
		used, err := t.quota.AnonymousUsage(ctx, ip, now)
		if err != nil {
			return err
		}
		if used >= t.limit {
			return apiErr(http.StatusTooManyRequests, CodePublicLimit, limitMessage(t.limit, now))
		}
	}
	// The body (photos as base64) is held about three times over while it is
	// decoded: its bytes, the JSON strings and the decoded images.
	release, err := photos.Body.Acquire(ctx, min(3*photos.BodySize(c.Request(), troubleshootBodyLimit), photos.Body.Size()))
	if err != nil {
		return budgetErr(err)
	}
	defer release()
	var in troubleshootRequest
	if err := bindTroubleshoot(c, &in); err != nil { // the analysis alone has a decoder of its own
		return err
	}
	fields, atts, err := in.check()
	if err != nil {
		return err
	}
	// Only headers are read before the credit: an over-limit client never
	// gets a pixel decoded.
	var pending []photos.Pending
	if len(fields) == 0 {
		var msg string
		if pending, msg = photos.CheckAnalysis(in.Images); msg != "" {
			fields["images"] = msg
		}
	}
	in.Images = nil
	if len(fields) > 0 {
		return validationErr(fields)
	}

	if t.limit >= 0 {
		ok, err := t.quota.ConsumeAnonymous(ctx, ip, now, t.limit)
		if err != nil {
			return err
		}
		if !ok {
			return apiErr(http.StatusTooManyRequests, CodePublicLimit, limitMessage(t.limit, now))
		}
		taken = append(taken, ip)
	}
	if t.netLimit >= 0 {
		ok, err := t.quota.ConsumeAnonymous(ctx, networkKey(ip), now, t.netLimit)
		if err != nil {
			return err
		}
		if !ok {
			return apiErr(http.StatusTooManyRequests, CodePublicLimit, networkLimitMessage(now))
		}
		taken = append(taken, networkKey(ip))
	}
	imgs, msg, err := photos.DecodeAnalysis(ctx, pending)
	if msg != "" {
		return validationErr(map[string]string{"images": msg})
	}
	if err != nil {
		return budgetErr(err)
	}
	req := in.request()
	req.PrinterBrand = in.PrinterBrand
	req.Photos, req.Attachments = imgs, aiAttachments(atts)
	res, err := t.analyzer.Analyze(ctx, req)
	if err != nil {
		return analysisErr(err)
	}
	out := resultJSON{Result: res}
	enc := encodeResult(res)
	defer enc.release()
	if out.Signature, err = t.signer.signEncoded(ctx, enc); err != nil {
		return err
	}
	// The token binds the inputs: with it the maker narrows the result down
	// (when it has questions) or saves it to the account they sign up for.
	if out.RefineToken, err = t.refineToken(ctx, req); err != nil {
		return err
	}
	return writeResult(c, out, enc)
}

// refund gives back the credits of a request that delivered no analysis; it
// must not depend on the client still waiting.
func (t *troubleshootAPI) refund(ctx context.Context, now time.Time, keys ...string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	for _, k := range keys {
		if err := t.quota.RefundAnonymous(ctx, k, now); err != nil {
			t.log.Error("refund anonymous credit", "err", err)
		}
	}
}

// analysisErr maps an analyzer failure: a remote AI provider that is down
// is a 503 naming it, so the app says the AI analysis service is unavailable.
func analysisErr(err error) error {
	if errors.Is(err, ai.ErrUnavailable) {
		provider := "Gemini"
		if pe := (*ai.ProviderError)(nil); errors.As(err, &pe) && pe.Engine == ai.EngineOpenAI {
			provider = "the model " + pe.Model
		}
		return &APIError{Status: http.StatusServiceUnavailable, Code: CodeAIUnavailable,
			Message: "The AI provider (" + provider + ") is currently unavailable. AI analysis service is currently unavailable. Please try again later."}
	}
	if errors.Is(err, context.Canceled) {
		return apiErr(499, "CLIENT_CLOSED", "The request was cancelled.")
	}
	if errors.Is(err, ai.ErrEngineStarting) {
		return apiErr(http.StatusServiceUnavailable, CodeAIUnavailable, "The diagnostic engine is still starting. Please try again in a minute.")
	}
	return fmt.Errorf("analyze: %w", err)
}

func (t *troubleshootAPI) publicUsage(c echo.Context) error {
	now := t.now()
	n, err := t.quota.AnonymousUsage(c.Request().Context(), clientIP(c), now)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, publicUsage{CurrentUsage: n, ResetsAt: nextMonth(now).Format(time.RFC3339)})
}
