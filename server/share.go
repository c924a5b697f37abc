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
	if u := currentUser(c); u != nil {
		printers, err := h.store.ListPrinters(c.Request().Context(), u.ID)
		if err != nil {
			return err
		}
		scrubOwner(&res, u, printers)
	}
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
	// Shares stored while the sharer chose the title are shown under their
	// summary's title too.
	var data struct {
		Summary string `json:"summary"`
	}
	_ = json.Unmarshal(sr.TroubleshootingData, &data) // stored by create: always a result
	sr.Title = shareTitle(data.Summary)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, sr)
}

// ownerScrubber replaces what identifies a signed-in owner (display name,
// email and its local part, the names and brands of their printers) with
// neutral words, in any letter case, longest first so "Ender 3 V2" wins
// over "Ender 3".
func ownerScrubber(u *store.User, printers []store.Printer) func(string) string {
	type pair struct{ from, to string }
	var ps []pair
	add := func(s, to string) {
		if s = strings.TrimSpace(s); len([]rune(s)) >= 3 {
			ps = append(ps, pair{s, to})
		}
	}
	add(u.Email, "the maker")
	if local, _, ok := strings.Cut(u.Email, "@"); ok {
		add(local, "the maker")
	}
	add(u.DisplayName, "the maker")
	for _, w := range strings.Fields(u.DisplayName) {
		add(w, "the maker")
	}
	for _, p := range printers {
		add(p.Name, "the printer")
		add(p.Brand, "the printer")
	}
	if len(ps) == 0 {
		return func(s string) string { return s }
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].from) > len(ps[j].from) })
	to := map[string]string{}
	alts := make([]string, len(ps))
	for i, p := range ps {
		alts[i] = regexp.QuoteMeta(p.from)
		if _, ok := to[strings.ToLower(p.from)]; !ok {
			to[strings.ToLower(p.from)] = p.to
		}
	}
	re := regexp.MustCompile(`(?i)` + strings.Join(alts, "|"))
	return func(s string) string {
		return re.ReplaceAllStringFunc(s, func(m string) string {
			if r, ok := to[strings.ToLower(m)]; ok {
				return r
			}
			return "the maker"
		})
	}
}

// scrubOwner removes owner details from a result before it is published.
func scrubOwner(res *ai.Result, u *store.User, printers []store.Printer) {
	r := ownerScrubber(u, printers)
	res.Summary = r(res.Summary)
	for i := range res.Steps {
		res.Steps[i].Title = r(res.Steps[i].Title)
		res.Steps[i].Description = r(res.Steps[i].Description)
	}
	for i := range res.AdditionalTips {
		res.AdditionalTips[i] = r(res.AdditionalTips[i])
	}
}

// shareTitle is the heading of a shared guide: the summary's first
// shareTitleSource characters, whitespace folded to single spaces, cut at a
// word.
func shareTitle(summary string) string {
	return wordCut(cleanText(strings.Join(strings.Fields(summary), " "), maxShareTitle), shareTitleSource)
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
