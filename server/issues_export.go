package server

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// exportedIssue is one issue of a JSON export: the record without the
// owner's ids and signed URLs, with the printer's name and brand.
type exportedIssue struct {
	ID                     int64           `json:"id"`
	CreatedAt              time.Time       `json:"createdAt"`
	Printer                *printerRef     `json:"printer"`
	Category               string          `json:"category"`
	DiagnosedCategory      *string         `json:"diagnosedCategory"`
	Description            string          `json:"description"`
	Material               *string         `json:"material"`
	NozzleTemp             *float64        `json:"nozzleTemp"`
	BedTemp                *float64        `json:"bedTemp"`
	LayerHeight            *float64        `json:"layerHeight"`
	PrintSpeed             *float64        `json:"printSpeed"`
	Infill                 *float64        `json:"infill"`
	Status                 string          `json:"status"`
	ResolvedAt             *time.Time      `json:"resolvedAt"`
	WorkingRecommendations []string        `json:"workingRecommendations"`
	ResolutionNotes        *string         `json:"resolutionNotes"`
	PhotoCount             int             `json:"photoCount"`
	AIChecklist            json.RawMessage `json:"aiChecklist"`
	// The attachments with their text (secrets already stripped).
	Attachments []store.Attachment `json:"attachments"`
}

var csvHeader = []string{"id", "createdAt", "printer", "brand", "category", "diagnosedCategory", "status", "description", "material",
	"nozzleTemp", "bedTemp", "layerHeight", "printSpeed", "infill", "resolvedAt", "workingRecommendations",
	"resolutionNotes", "summary", "attachments"}

// export handles GET /api/issues/export?format=csv|json: the caller's whole
// issue log as a download.
func (h *issuesAPI) export(c echo.Context) error {
	format := strings.ToLower(c.QueryParam("format"))
	if format == "" {
		format = "csv"
	}
	if format != "csv" && format != "json" {
		return validationErr(map[string]string{"format": "format must be csv or json"})
	}
	name := fmt.Sprintf("layerfix-issues-%s.%s", h.now().UTC().Format("2006-01-02"), format)
	hdr := c.Response().Header()
	hdr.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	hdr.Set("Cache-Control", "no-store")
	// Streamed a page of rows at a time: memory stays bounded for a farm's whole history.
	if format == "json" {
		return h.streamIssues(c, "application/json; charset=UTF-8", func(v *store.IssueView) (any, error) {
			return exportWithAttachments(c.Request().Context(), h.store, v)
		})
	}
	ctx, user := c.Request().Context(), currentUser(c)
	res := c.Response()
	hdr.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	res.WriteHeader(http.StatusOK)
	w := csv.NewWriter(res)
	_ = w.Write(csvHeader) // the csv.Writer keeps the error for w.Error below
	n := 0
	err := h.store.EachIssue(ctx, user.ID, func(v *store.IssueView) error {
		var names []string
		if v.AttachmentCount > 0 {
			atts, err := h.store.IssueAttachments(ctx, user.ID, v.ID, false)
			if err != nil {
				return err
			}
			for _, a := range atts {
				names = append(names, a.Name)
			}
		}
		_ = w.Write(csvRecord(v, names)) // kept for w.Error
		if n++; n%500 == 0 {
			w.Flush()
			res.Flush()
		}
		return w.Error()
	})
	w.Flush()
	if err == nil {
		err = w.Error()
	}
	if err != nil {
		// The status is sent; the log and a cut-short download say it failed.
		return fmt.Errorf("export issues: %w", err)
	}
	return nil
}

// streamIssues answers the caller's whole issue log as one JSON array of
// elem(issue) (see writeIssueArray). The status goes first: a failure later
// cuts the array short (and is logged), as a dropped connection would.
func (h *issuesAPI) streamIssues(c echo.Context, contentType string, elem func(*store.IssueView) (any, error)) error {
	ctx, user := c.Request().Context(), currentUser(c)
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, contentType)
	res.WriteHeader(http.StatusOK)
	err := writeIssueArray(ctx, h.store, res, user.ID, elem)
	if err != nil {
		err = fmt.Errorf("stream issues of user %d: %w", user.ID, err)
		if ctx.Err() == nil { // not a client that went away
			h.log.Error("list cut short", "err", err)
		}
	}
	return err
}

// issueLog is what writing a maker's issue log needs from the store.
type issueLog interface {
	EachIssue(ctx context.Context, userID int64, fn func(*store.IssueView) error) error
	IssueAttachments(ctx context.Context, userID, issueID int64, withText bool) ([]store.Attachment, error)
}

// writeIssueArray writes every issue of the user to w as one JSON array of
// elem(issue), as the store reads the rows in batches, so memory stays
// bounded however long the log. A failure cuts the array short.
func writeIssueArray(ctx context.Context, st issueLog, w io.Writer, userID int64, elem func(*store.IssueView) (any, error)) error {
	enc := json.NewEncoder(w)
	sep := "["
	err := st.EachIssue(ctx, userID, func(v *store.IssueView) error {
		e, err := elem(v)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		sep = ","
		return enc.Encode(e)
	})
	// The closing bracket is best effort: a failed write means the client left,
	// and the error of the stream itself is the one returned.
	if sep == "[" {
		_, _ = io.WriteString(w, sep)
	}
	_, _ = io.WriteString(w, "]\n")
	return err
}

// exportWithAttachments is an issue of a JSON export with its attachments'
// text (secrets already stripped).
func exportWithAttachments(ctx context.Context, st issueLog, v *store.IssueView) (exportedIssue, error) {
	e := exportOf(v)
	if v.AttachmentCount > 0 {
		var err error
		if e.Attachments, err = st.IssueAttachments(ctx, v.UserID, v.ID, true); err != nil {
			return e, err
		}
	}
	return e, nil
}

// csvRecord is one issue as a CSV row, made safe for spreadsheets; the
// attachments are named, their text is in the JSON export.
func csvRecord(r *store.IssueView, attachments []string) []string {
	e := exportOf(r)
	printer, brand := "Unknown Printer", "Unknown Brand"
	if e.Printer != nil {
		printer, brand = e.Printer.Name, e.Printer.Brand
	}
	var summary struct {
		Summary string `json:"summary"`
	}
	_ = json.Unmarshal(e.AIChecklist, &summary) // a result without a summary exports an empty one
	resolved := ""
	if e.ResolvedAt != nil {
		resolved = e.ResolvedAt.UTC().Format(time.RFC3339)
	}
	diagnosed := ""
	if e.DiagnosedCategory != nil {
		diagnosed = categoryLabel(*e.DiagnosedCategory)
	}
	record := []string{strconv.FormatInt(e.ID, 10), e.CreatedAt.UTC().Format(time.RFC3339), printer, brand,
		categoryLabel(e.Category), diagnosed, e.Status, e.Description, deref(e.Material), num(e.NozzleTemp), num(e.BedTemp), num(e.LayerHeight),
		num(e.PrintSpeed), num(e.Infill), resolved, strings.Join(e.WorkingRecommendations, "; "),
		deref(e.ResolutionNotes), summary.Summary, strings.Join(attachments, "; ")}
	for i := range record {
		record[i] = csvSafe(record[i])
	}
	return record
}

// categoryLabel is a category's label, or the value itself for an old one.
func categoryLabel(c string) string {
	if label := ai.CategoryLabels[c]; label != "" {
		return label
	}
	return c
}

func exportOf(v *store.IssueView) exportedIssue {
	e := exportedIssue{ID: v.ID, CreatedAt: v.CreatedAt, Category: v.Category, DiagnosedCategory: v.DiagnosedCategory, Description: v.Description,
		Material: v.Material, NozzleTemp: v.NozzleTemp, BedTemp: v.BedTemp, LayerHeight: v.LayerHeight,
		PrintSpeed: v.PrintSpeed, Infill: v.Infill, Status: v.Status, ResolvedAt: v.ResolvedAt,
		WorkingRecommendations: v.WorkingRecommendations, ResolutionNotes: v.ResolutionNotes,
		PhotoCount: len(v.PhotoURLs), AIChecklist: json.RawMessage(v.AIChecklist)}
	if e.WorkingRecommendations == nil {
		e.WorkingRecommendations = []string{}
	}
	e.Attachments = []store.Attachment{}
	if len(e.AIChecklist) == 0 {
		e.AIChecklist = json.RawMessage("null")
	}
	if v.PrinterName != nil && v.PrinterBrand != nil {
		e.Printer = &printerRef{Name: *v.PrinterName, Brand: *v.PrinterBrand}
	}
	return e
}

// csvSafe defuses spreadsheet formulas: a cell starting with = + - @ (or a
// tab or carriage return) gets a leading apostrophe.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func num(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}
