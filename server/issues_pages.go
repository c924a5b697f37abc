package server

import (
	"context"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// Issue pages: GET /api/issues with any of limit, cursor,
// status, printer, category, from, to or q answers one page, newest first,
// with the total that matches and the cursor of the next page. Without
// them it answers the whole log, as the app has always read it.

const (
	defaultPageSize = 50
	maxPageSize     = 200
	recentIssues    = 5
)

var pageParams = []string{"limit", "cursor", "status", "printer", "category", "from", "to", "q"}

type issuePage struct {
	Items      []issueJSON `json:"items"`
	NextCursor *string     `json:"nextCursor"`
	Total      int64       `json:"total"`
}

// pageRequest reads the page parameters, with a message for each bad one.
func pageRequest(c echo.Context) (store.IssueFilter, *store.IssueCursor, int, error) {
	var f store.IssueFilter
	bad := map[string]string{}
	limit := defaultPageSize
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPageSize {
			bad["limit"] = "limit must be a whole number from 1 to 200"
		}
		limit = n
	}
	switch s := c.QueryParam("status"); s {
	case "", "all":
	case "open", store.StatusPending, store.StatusInProgress, store.StatusResolved:
		f.Status = s
	default:
		bad["status"] = "status must be open, pending, in-progress or resolved"
	}
	if cat := c.QueryParam("category"); cat != "" {
		if _, ok := ai.CategoryLabels[cat]; !ok {
			bad["category"] = "unknown category"
		}
		f.Category = cat
	}
	f.Printer = strings.TrimSpace(c.QueryParam("printer"))
	f.Text = strings.TrimSpace(c.QueryParam("q"))
	if utf8.RuneCountInString(f.Printer) > 100 {
		bad["printer"] = "printer must be at most 100 characters"
	}
	if utf8.RuneCountInString(f.Text) > 100 {
		bad["q"] = "q must be at most 100 characters"
	}
	for _, k := range []string{"from", "to"} {
		v := c.QueryParam(k)
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			bad[k] = k + " must be a date and time like 2026-11-01T00:00:00Z"
			continue
		}
		if k == "from" {
			f.From = t
		} else {
			f.To = t
		}
	}
	var after *store.IssueCursor
	if v := c.QueryParam("cursor"); v != "" {
		cur, ok := decodeCursor(v)
		if !ok {
			bad["cursor"] = "cursor is not one this server gave"
		}
		after = cur
	}
	if len(bad) > 0 {
		return f, nil, 0, validationErr(bad)
	}
	return f, after, limit, nil
}

func encodeCursor(c *store.IssueCursor) *string {
	if c == nil {
		return nil
	}
	s := base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.CreatedAt.UnixNano(), 10) + "." + strconv.FormatInt(c.ID, 10)))
	return &s
}

func decodeCursor(s string) (*store.IssueCursor, bool) {
	if len(s) > 64 {
		return nil, false
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	ts, id, ok := strings.Cut(string(b), ".")
	if !ok {
		return nil, false
	}
	ns, err1 := strconv.ParseInt(ts, 10, 64)
	n, err2 := strconv.ParseInt(id, 10, 64)
	if err1 != nil || err2 != nil || n < 1 {
		return nil, false
	}
	return &store.IssueCursor{CreatedAt: time.Unix(0, ns).UTC(), ID: n}, true
}

func wantsPage(c echo.Context) bool {
	q := c.QueryParams()
	for _, k := range pageParams {
		if _, ok := q[k]; ok {
			return true
		}
	}
	return false
}

func (h *issuesAPI) page(c echo.Context) error {
	f, after, limit, err := pageRequest(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	rows, next, total, err := h.store.IssuePage(ctx, currentUser(c).ID, f, after, limit)
	if err != nil {
		return err
	}
	items, err := h.views(ctx, rows)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, issuePage{Items: items, NextCursor: encodeCursor(next), Total: total})
}

func (h *issuesAPI) views(ctx context.Context, rows []store.IssueView) ([]issueJSON, error) {
	out := make([]issueJSON, len(rows))
	for i := range rows {
		var err error
		if out[i], err = h.view(ctx, &rows[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// summary handles GET /api/issues/summary: the dashboard's counts and its
// most recent issues, from indexed queries.
func (h *issuesAPI) summary(c echo.Context) error {
	ctx, user := c.Request().Context(), currentUser(c)
	counts, err := h.store.CountIssues(ctx, user.ID)
	if err != nil {
		return err
	}
	rows, _, _, err := h.store.IssuePage(ctx, user.ID, store.IssueFilter{}, nil, recentIssues)
	if err != nil {
		return err
	}
	recent, err := h.views(ctx, rows)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, issueSummary{
		Total: counts.Total, Pending: counts.Pending, InProgress: counts.InProgress,
		Resolved: counts.Resolved, Open: counts.Pending + counts.InProgress, Recent: recent,
	})
}
