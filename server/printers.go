package server

import (
	"context"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/layerfix/layerfix/textcheck"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/store"
)

// printerStore is what the printer routes need from the database.
type printerStore interface {
	ListPrinters(ctx context.Context, userID int64) ([]store.Printer, error)
	PrinterByID(ctx context.Context, userID, id int64) (*store.Printer, error)
	CreatePrinter(ctx context.Context, p *store.Printer) error
	UpdatePrinter(ctx context.Context, p *store.Printer) error
	DeletePrinter(ctx context.Context, userID, id int64) error
	IssueFacets(ctx context.Context, userID int64) ([]store.IssueFacet, error)
}

type printersAPI struct {
	store    printerStore
	now      func() time.Time
	hostKeys hostKeys
	link     *printerLink
}

// Printer field rules: name and brand at most 100 characters, build volume at most 50.
var (
	nozzleSizes   = []float64{0.2, 0.4, 0.6, 0.8, 1.0}
	filamentSizes = []float64{1.75, 2.85, 3.0}
)

const (
	maxPrinterName     = 100
	maxBuildVolume     = 50
	defaultNozzle      = 0.4
	defaultFilament    = 1.75
	statsMonths        = 12
	statsTopCategories = 3
)

// printerInput is the body of POST and PUT /api/printers. PUT replaces the
// printer: a missing buildVolume clears it, a missing nozzleSize or
// filamentDiameter keeps the stored value.
type printerInput struct {
	Name             string       `json:"name"`
	Brand            string       `json:"brand"`
	NozzleSize       *float64     `json:"nozzleSize"`
	FilamentDiameter *float64     `json:"filamentDiameter"`
	BuildVolume      *string      `json:"buildVolume"`
	Host             optionalHost `json:"host"` // missing: keep; null: unlink
}

// validate trims the fields and returns the spec's message per failing
// field. edit selects the edit form's brand message.
func (in *printerInput) validate(edit bool) map[string]string {
	fields := map[string]string{}
	in.Name = strings.TrimSpace(in.Name)
	switch {
	case in.Name == "":
		fields["name"] = "Printer name is required"
	case utf8.RuneCountInString(in.Name) > maxPrinterName:
		fields["name"] = "Printer name must be less than 100 characters"
	case textcheck.Problem("Printer name", in.Name, false) != "":
		fields["name"] = textcheck.Problem("Printer name", in.Name, false)
	}
	in.Brand = strings.TrimSpace(in.Brand)
	switch {
	case in.Brand == "" && edit:
		fields["brand"] = "Brand/Model is required"
	case in.Brand == "":
		fields["brand"] = "Brand is required"
	case utf8.RuneCountInString(in.Brand) > maxPrinterBrand:
		fields["brand"] = "Brand must be less than 100 characters"
	case textcheck.Problem("Brand", in.Brand, false) != "":
		fields["brand"] = textcheck.Problem("Brand", in.Brand, false)
	}
	if in.BuildVolume != nil {
		v := strings.TrimSpace(*in.BuildVolume)
		switch {
		case v == "":
			in.BuildVolume = nil
		case utf8.RuneCountInString(v) > maxBuildVolume:
			fields["buildVolume"] = "Build volume must be less than 50 characters"
		case textcheck.Problem("Build volume", v, false) != "":
			fields["buildVolume"] = textcheck.Problem("Build volume", v, false)
		default:
			in.BuildVolume = &v
		}
	}
	if in.NozzleSize != nil && !oneOf(*in.NozzleSize, nozzleSizes) {
		fields["nozzleSize"] = "Nozzle size must be 0.2, 0.4, 0.6, 0.8 or 1.0 mm"
	}
	if in.FilamentDiameter != nil && !oneOf(*in.FilamentDiameter, filamentSizes) {
		fields["filamentDiameter"] = "Filament diameter must be 1.75, 2.85 or 3.0 mm"
	}
	if in.Host.v != nil {
		in.Host.v.validate(fields)
	}
	return fields
}

func oneOf(v float64, options []float64) bool {
	for _, o := range options {
		if math.Abs(v-o) < 1e-9 {
			return true
		}
	}
	return false
}

// pathID parses the :id path parameter; anything but a positive integer
// is a 404 for what.
func pathID(c echo.Context, what string) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, notFoundErr(what)
	}
	return id, nil
}

// apply copies validated input onto p; a missing nozzle size or filament
// diameter keeps p's value.
func (in *printerInput) apply(p *store.Printer) {
	p.Name, p.Brand, p.BuildVolume = in.Name, in.Brand, in.BuildVolume
	if in.NozzleSize != nil {
		p.NozzleSize = *in.NozzleSize
	}
	if in.FilamentDiameter != nil {
		p.FilamentDiameter = *in.FilamentDiameter
	}
}

func (h *printersAPI) list(c echo.Context) error {
	ps, err := h.store.ListPrinters(c.Request().Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	out := make([]printerJSON, len(ps))
	for i, p := range ps {
		out[i] = toPrinterJSON(p)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

func (h *printersAPI) create(c echo.Context) error {
	var in printerInput
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if fields := in.validate(false); len(fields) > 0 {
		return validationErr(fields)
	}
	p := &store.Printer{UserID: currentUser(c).ID, NozzleSize: defaultNozzle, FilamentDiameter: defaultFilament}
	in.apply(p)
	fields := map[string]string{}
	if err := h.applyHost(c.Request().Context(), p, in.Host, fields); err != nil {
		return err
	}
	if len(fields) > 0 {
		return validationErr(fields)
	}
	if err := h.store.CreatePrinter(c.Request().Context(), p); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toPrinterJSON(*p))
}

func (h *printersAPI) update(c echo.Context) error {
	id, err := pathID(c, "Printer")
	if err != nil {
		return err
	}
	var in printerInput
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), currentUser(c).ID
	p, err := h.store.PrinterByID(ctx, uid, id)
	if err != nil {
		return storeErr(err, "Printer")
	}
	if fields := in.validate(true); len(fields) > 0 {
		return validationErr(fields)
	}
	fields := map[string]string{}
	if err := h.applyHost(ctx, p, in.Host, fields); err != nil {
		return err
	}
	if len(fields) > 0 {
		return validationErr(fields)
	}
	in.apply(p)
	if err := h.store.UpdatePrinter(ctx, p); err != nil {
		return storeErr(err, "Printer")
	}
	return c.JSON(http.StatusOK, toPrinterJSON(*p))
}

func (h *printersAPI) remove(c echo.Context) error {
	id, err := pathID(c, "Printer")
	if err != nil {
		return err
	}
	if err := h.store.DeletePrinter(c.Request().Context(), currentUser(c).ID, id); err != nil {
		return storeErr(err, "Printer")
	}
	return c.JSON(http.StatusOK, printerDeleted{ID: id, Deleted: true})
}

// printerStats is one printer's history: "track printer performance over
// time" of the features page.
type printerStats struct {
	PrinterID     *int64          `json:"printerId"` // nil: issues of deleted printers
	Name          string          `json:"name"`
	Brand         string          `json:"brand"`
	Total         int             `json:"total"`
	Pending       int             `json:"pending"`
	InProgress    int             `json:"inProgress"`
	Resolved      int             `json:"resolved"`
	ResolvedShare float64         `json:"resolvedShare"` // 0..1; 0 with no issues
	Months        []monthCount    `json:"months"`        // the last 12 calendar months, oldest first
	TopCategories []categoryCount `json:"topCategories"` // most frequent first, at most 3
}

type monthCount struct {
	Month string `json:"month"` // YYYY-MM
	Count int    `json:"count"`
}

type categoryCount struct {
	Category string `json:"category"`
	Label    string `json:"label"`
	Count    int    `json:"count"`
}

// stats handles GET /api/printers/stats: every printer of the caller, plus
// an entry with printerId null when issues of deleted printers exist.
func (h *printersAPI) stats(c echo.Context) error {
	ctx, uid := c.Request().Context(), currentUser(c).ID
	ps, err := h.store.ListPrinters(ctx, uid)
	if err != nil {
		return err
	}
	facets, err := h.store.IssueFacets(ctx, uid)
	if err != nil {
		return err
	}
	out := make([]printerStats, 0, len(ps)+1)
	for _, p := range ps {
		id := p.ID
		out = append(out, buildStats(&id, p.Name, p.Brand, facets, h.now()))
	}
	if orphan := buildStats(nil, "Unknown Printer", "Unknown Brand", facets, h.now()); orphan.Total > 0 {
		out = append(out, orphan)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, printersStats{Printers: out})
}

// printerStatsOne handles GET /api/printers/:id/stats.
func (h *printersAPI) printerStatsOne(c echo.Context) error {
	id, err := pathID(c, "Printer")
	if err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), currentUser(c).ID
	p, err := h.store.PrinterByID(ctx, uid, id)
	if err != nil {
		return storeErr(err, "Printer")
	}
	facets, err := h.store.IssueFacets(ctx, uid)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, buildStats(&p.ID, p.Name, p.Brand, facets, h.now()))
}

// buildStats summarizes the facets of one printer (nil: no printer).
func buildStats(printerID *int64, name, brand string, facets []store.IssueFacet, now time.Time) printerStats {
	st := printerStats{PrinterID: printerID, Name: name, Brand: brand, Months: make([]monthCount, statsMonths), TopCategories: []categoryCount{}}
	now = now.UTC()
	first := time.Date(now.Year(), now.Month()-statsMonths+1, 1, 0, 0, 0, 0, time.UTC)
	index := map[string]int{}
	for i := range st.Months {
		m := first.AddDate(0, i, 0).Format("2006-01")
		st.Months[i] = monthCount{Month: m}
		index[m] = i
	}
	cats := map[string]int{}
	for _, f := range facets {
		if (printerID == nil) != (f.PrinterID == nil) || (printerID != nil && *printerID != *f.PrinterID) {
			continue
		}
		st.Total += f.Count
		switch f.Status {
		case store.StatusResolved:
			st.Resolved += f.Count
		case store.StatusInProgress:
			st.InProgress += f.Count
		default:
			st.Pending += f.Count
		}
		cats[f.Category] += f.Count
		if i, ok := index[f.CreatedAt.UTC().Format("2006-01")]; ok {
			st.Months[i].Count += f.Count
		}
	}
	if st.Total > 0 {
		st.ResolvedShare = math.Round(float64(st.Resolved)/float64(st.Total)*1000) / 1000
	}
	for cat, n := range cats {
		st.TopCategories = append(st.TopCategories, categoryCount{Category: cat, Label: categoryLabel(cat), Count: n})
	}
	sort.Slice(st.TopCategories, func(i, j int) bool {
		a, b := st.TopCategories[i], st.TopCategories[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Category < b.Category
	})
	if len(st.TopCategories) > statsTopCategories {
		st.TopCategories = st.TopCategories[:statsTopCategories]
	}
	return st
}
