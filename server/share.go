package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"unicode"

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

type shareRequest struct {
	Title               string          `json:"title"`
	TroubleshootingData json.RawMessage `json:"troubleshootingData"`
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
	if !h.limiter.allow(clientIP(c)) {
		return apiErr(http.StatusTooManyRequests, CodeRateLimited, "You have created many share links in a short time. Please try again in an hour.")
	}
	if u := currentUser(c); u != nil {
		printers, err := h.store.ListPrinters(c.Request().Context(), u.ID)
		if err != nil {
			return err
		}
		scrubOwner(&res, u, printers)
		in.Title = ownerScrubber(u, printers).Replace(in.Title)
	}
	title := cleanText(in.Title, maxShareTitle)
	if title == "" {
		title = cleanText(res.Summary, shareTitleSource)
	}
	// Only the result's own fields are kept: nothing else a client sent
	// (owner, printer, photos) can reach the public page.
	data, err := json.Marshal(res)
	if err != nil {
		return err
	}
	sr := &store.SharedResult{ShareID: newShareID(), Title: title, TroubleshootingData: store.JSON(data)}
	if err := h.store.CreateShare(c.Request().Context(), sr); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]string{"shareId": sr.ShareID})
}

func (h *shareAPI) get(c echo.Context) error {
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	id := c.Param("shareId")
	if !shareIDPattern.MatchString(id) {
		return notFoundErr("Shared troubleshooting guide")
	}
	sr, err := h.store.Share(c.Request().Context(), id)
	if err != nil {
		return storeErr(err, "Shared troubleshooting guide")
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, sr)
}

// ownerScrubber replaces what identifies a signed-in owner (display name,
// email, the names and brands of their printers) with neutral words,
// longest first so "Ender 3 V2" wins over "Ender 3".
func ownerScrubber(u *store.User, printers []store.Printer) *strings.Replacer {
	type pair struct{ from, to string }
	var ps []pair
	add := func(s, to string) {
		if s = strings.TrimSpace(s); len([]rune(s)) >= 3 {
			ps = append(ps, pair{s, to})
		}
	}
	add(u.Email, "the maker")
	add(u.DisplayName, "the maker")
	for _, p := range printers {
		add(p.Name, "the printer")
		add(p.Brand, "the printer")
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].from) > len(ps[j].from) })
	var args []string
	for _, p := range ps {
		// Replacer is case-sensitive: cover the usual spellings.
		lower := strings.ToLower(p.from)
		for _, v := range []string{p.from, lower, strings.ToUpper(p.from), capitalize(lower)} {
			args = append(args, v, p.to)
		}
	}
	return strings.NewReplacer(args...)
}

func capitalize(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// scrubOwner removes owner details from a result before it is published.
func scrubOwner(res *ai.Result, u *store.User, printers []store.Printer) {
	r := ownerScrubber(u, printers)
	res.Summary = r.Replace(res.Summary)
	for i := range res.Steps {
		res.Steps[i].Title = r.Replace(res.Steps[i].Title)
		res.Steps[i].Description = r.Replace(res.Steps[i].Description)
	}
	for i := range res.AdditionalTips {
		res.AdditionalTips[i] = r.Replace(res.AdditionalTips[i])
	}
}
