package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/layerfix/layerfix/textcheck"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

type shareStore interface {
	CreateShare(ctx context.Context, r *store.SharedResult) error
	Share(ctx context.Context, shareID string) (*store.SharedResult, error)
	ListPrinters(ctx context.Context, userID int64) ([]store.Printer, error)
}

type shareAPI struct {
	store   shareStore
	limiter *fixedWindow
	signer  resultSigner
}

var shareIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)

// newShareID is 144 random bits, URL-safe.
func newShareID() string {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// shareRequest has no title: the heading of a shared guide comes from the
// signed summary, so a sharer cannot put words of their own under this
// server's name. A "title" that older clients still send is ignored.
type shareRequest struct {
	TroubleshootingData json.RawMessage `json:"troubleshootingData"`
	Signature           string          `json:"signature"` // the result's, as this server made it
}

func (h *shareAPI) create(c echo.Context) error {
	var in shareRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if len(in.TroubleshootingData) == 0 || string(in.TroubleshootingData) == "null" {
		return validationErr(map[string]string{"troubleshootingData": "troubleshootingData is required"})
	}
	var res ai.Result
	if err := json.Unmarshal(in.TroubleshootingData, &res); err != nil {
		return validationErr(map[string]string{"troubleshootingData": "troubleshootingData must be an analysis result: summary, steps and additionalTips"})
	}
	if err := ai.ValidateResult(&res); err != nil {
		return validationErr(map[string]string{"troubleshootingData": "troubleshootingData is not a valid analysis result: " + err.Error()})
	}
	if ok, err := h.signer.valid(c.Request().Context(), &res, in.Signature); err != nil {
		return err
	} else if !ok {
		return apiErr(http.StatusBadRequest, "NOT_OUR_RESULT", "Only results made on this server can be shared here. Run the analysis again and share its result.")
	}
	// A guide shows the steps; the questions that narrowed them and which
	// engine answered (not signed) stay private.
	res.Questions, res.Answers = nil, nil
	res.Engine, res.Model, res.FallbackFrom = "", "", ""
	if ok, err := h.limiter.allow(c.Request().Context(), limiterKey("ip", clientIP(c))); err != nil {
		return err
	} else if !ok {
		return apiErr(http.StatusTooManyRequests, CodeRateLimited, "You have created many share links in a short time. Please try again in an hour.")
	}
	var printers []store.Printer
	u := currentUser(c)
	if u != nil {
		var err error
		if printers, err = h.store.ListPrinters(c.Request().Context(), u.ID); err != nil {
			return err
		}
	}
	publicGuide(&res, u, printers)
	// Only the result's own fields are kept: nothing else a client sent
	// (owner, printer, photos) can reach the public page.
	data, err := json.Marshal(res)
	if err != nil {
		return err
	}
	sr := &store.SharedResult{ShareID: newShareID(), Title: shareTitle(res.Summary), TroubleshootingData: store.JSON(data)}
	if err := h.store.CreateShare(c.Request().Context(), sr); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, shareCreated{ShareID: sr.ShareID})
}

func (h *shareAPI) get(c echo.Context) error {
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	sr, err := h.guide(c.Request().Context(), c.Param("shareId"))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, sr)
}

// guide loads a shared guide as strangers read it. Guides stored before
// the public wording and the server-made titles are shown the same way.
func (h *shareAPI) guide(ctx context.Context, id string) (*store.SharedResult, error) {
	if !shareIDPattern.MatchString(id) {
		return nil, notFoundErr("Shared troubleshooting guide")
	}
	sr, err := h.store.Share(ctx, id)
	if err != nil {
		return nil, storeErr(err, "Shared troubleshooting guide")
	}
	var res ai.Result
	if err := json.Unmarshal(sr.TroubleshootingData, &res); err != nil {
		return nil, fmt.Errorf("shared guide %s: %w", id, err) // stored by create: always a result
	}
	publicGuide(&res, nil, nil)
	data, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	sr.TroubleshootingData = store.JSON(data)
	sr.Title = shareTitle(res.Summary)
	return sr, nil
}

// shareTitle is the heading of a shared guide: the summary's first
// shareTitleSource characters, whitespace folded to single spaces, cut at a
// word.
func shareTitle(summary string) string {
	return wordCut(textcheck.Clean(strings.Join(strings.Fields(summary), " "), maxShareTitle), shareTitleSource)
}

// wordCut shortens s to at most n characters at a word boundary, with an
// ellipsis, never mid-word.
func wordCut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if i := strings.LastIndexByte(cut, ' '); i > n/3 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.-–—(") + "…"
}
