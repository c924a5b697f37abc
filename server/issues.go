package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/accounts"
	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/blob"
	"github.com/layerfix/layerfix/textcheck"
)

// issueStore is what the issue routes need from the database.
type issueStore interface {
	PrinterByID(ctx context.Context, userID, id int64) (*store.Printer, error)
	PhotosOf(ctx context.Context, userID int64, ids []string) ([]store.Photo, error)
	PrinterHistory(ctx context.Context, userID, printerID int64, limit int) ([]store.Issue, error)
	ConsumeUserCredit(ctx context.Context, userID int64, now time.Time, limit int) (bool, error)
	RefundUserCredit(ctx context.Context, userID int64, now time.Time) error
	CreateIssue(ctx context.Context, is *store.Issue) error
	IssuePage(ctx context.Context, userID int64, f store.IssueFilter, after *store.IssueCursor, limit int) ([]store.IssueView, *store.IssueCursor, int64, error)
	CountIssues(ctx context.Context, userID int64) (store.IssueCounts, error)
	EachIssue(ctx context.Context, userID int64, fn func(*store.IssueView) error) error
	IssueByID(ctx context.Context, userID, id int64) (*store.IssueView, error)
	ResolveIssue(ctx context.Context, userID, id int64, working []string, notes *string, conf store.Confirmation, now time.Time) error
	StartIssue(ctx context.Context, userID, id int64) error
	SetCheckedSteps(ctx context.Context, userID, id int64, titles []string) error
	SetChecklist(ctx context.Context, userID, id int64, checklist store.JSON, diagnosed *string) error
	IssueAttachments(ctx context.Context, userID, issueID int64, withText bool) ([]store.Attachment, error)
	IssueAttachment(ctx context.Context, userID, issueID int64, n int) (*store.Attachment, error)
	ConsumeAnonymous(ctx context.Context, ip string, now time.Time, limit int) (bool, error)
	RefundAnonymous(ctx context.Context, ip string, now time.Time) error
	ListPrinters(ctx context.Context, userID int64) ([]store.Printer, error)
	CreatePrinter(ctx context.Context, p *store.Printer) error
}

type issuesAPI struct {
	store    issueStore
	photos   *photosAPI
	blobs    blob.Store
	analyzer ai.Analyzer
	limits   config.TierLimits
	now      func() time.Time
	log      *slog.Logger
	learn    *learner // nil: learning is off
	refiner  Refiner
	// diagnoser names the category the description points to, saved beside
	// the chosen one; nil: none is saved.
	diagnoser Diagnoser
	signer    resultSigner
	// Unverified free accounts share their network's free allowance with
	// anonymous visitors (netLimit per month; -1: no bound), or get no
	// analysis at all with requireVerified.
	netLimit        int
	requireVerified bool
	saved           *fixedWindow // each anonymous analysis is saved once
	// Who runs the server and how to reach them, for the largest plan's limit.
	operator, contact string
}

const (
	maxHistory         = 20  // past fixes handed to the analyzer
	maxWorkingRecs     = 20  // working recommendations per issue
	maxWorkingRecRunes = 200 // characters per working recommendation
)

// issueRequest is the POST /api/issues payload. Other fields
// (userId, status, monthlyUsage, ...) are ignored.
type issueRequest struct {
	issueFields
	PrinterID *int64   `json:"printerId"`
	PhotoURLs []string `json:"photoUrls"`
}

// printerRef is the printer of an issue in lists.
type printerRef struct {
	Name  string `json:"name"`
	Brand string `json:"brand"`
}

// issueJSON is an issue as the API shows it: with its printer (null when
// deleted) and photo URLs signed for the owner's browser.
type issueJSON struct {
	store.Issue
	Printer *printerRef `json:"printer"`
	// AIChecklistSignature lets the owner share the analysis (share.go).
	AIChecklistSignature string `json:"aiChecklistSignature,omitempty"`
	// Attachments: names, kinds and sizes, on a single issue's answers.
	Attachments []attachmentJSON `json:"attachments,omitempty"`
}

func (h *issuesAPI) view(ctx context.Context, v *store.IssueView) (issueJSON, error) {
	out := issueJSON{Issue: v.Issue}
	if v.PrinterName != nil && v.PrinterBrand != nil {
		out.Printer = &printerRef{Name: *v.PrinterName, Brand: *v.PrinterBrand}
	}
	var res ai.Result
	if len(v.AIChecklist) > 0 && json.Unmarshal(v.AIChecklist, &res) == nil {
		sig, err := h.signer.sign(ctx, &res)
		if err != nil {
			return out, err
		}
		out.AIChecklistSignature = sig
	}
	urls, err := h.photos.signURLs(ctx, v.PhotoURLs, v.UserID)
	if err != nil {
		return out, err
	}
	out.PhotoURLs = urls
	return out, nil
}

// create handles POST /api/issues: validate, check ownership of printer
// and photos, take a credit, analyze, store. A failed analysis gives the
// credit back and stores nothing.
func (h *issuesAPI) create(c echo.Context) (err error) {
	ctx, user, now := c.Request().Context(), currentUser(c), h.now()
	charged, netKey := false, "" // the credits this request has taken
	defer guardAnalysis(&err, func() {
		if charged {
			h.refund(ctx, user.ID, netKey, now)
		}
	})
	release, err := photos.Body.Acquire(ctx, min(3*photos.BodySize(c.Request(), issueBodyLimit), photos.Body.Size()))
	if err != nil {
		return budgetErr(err)
	}
	defer release()
	var in issueRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	fields := map[string]string{}
	in.normalize(fields)
	atts, aerr := in.checkAttachments(fields)
	if aerr != nil {
		return aerr
	}
	if in.PrinterID == nil || *in.PrinterID <= 0 {
		fields["printerId"] = "Please select a printer"
	}
	ids, msg := photoIDs(in.PhotoURLs)
	if msg != "" {
		fields["photoUrls"] = msg
	}
	if len(fields) > 0 {
		return validationErr(fields)
	}

	printer, err := h.store.PrinterByID(ctx, user.ID, *in.PrinterID)
	if err != nil {
		return storeErr(err, "Printer")
	}
	photos, err := h.loadPhotos(ctx, user.ID, ids)
	if err != nil {
		return err
	}
	history, err := h.history(ctx, user.ID, printer.ID)
	if err != nil {
		return err
	}

	req := in.request()
	req.PrinterBrand, req.PrinterModel = printer.Brand, printer.Name
	req.NozzleSize, req.FilamentDiameter = &printer.NozzleSize, &printer.FilamentDiameter
	req.Photos, req.History, req.Attachments = photos, history, aiAttachments(atts)

	tier := accounts.EffectiveTier(user)
	unverifiedFree := tier == "free" && !user.EmailVerified
	if unverifiedFree && h.requireVerified {
		return apiErr(http.StatusForbidden, CodeEmailNotVerified,
			"Please verify your email address first: open the link in the email we sent you, then analyze your issue.")
	}
	limit := h.limits.Limit(tier)
	ok, err := h.store.ConsumeUserCredit(ctx, user.ID, now, limit)
	if err != nil {
		return err
	}
	if !ok {
		return apiErr(http.StatusTooManyRequests, codeUsageLimit, usageLimitMessage(tier, limit, now, h.operator, h.contact))
	}
	charged = true
	if unverifiedFree && h.netLimit >= 0 {
		key := networkKey(clientIP(c))
		ok, err := h.store.ConsumeAnonymous(ctx, key, now, h.netLimit)
		if err != nil {
			return err
		}
		if !ok {
			return apiErr(http.StatusTooManyRequests, codeUsageLimit, networkLimitMessage(now))
		}
		netKey = key
	}
	res, err := h.analyzer.Analyze(ctx, req)
	if err == nil && res == nil {
		err = errors.New("the analyzer returned no result")
	}
	if err != nil {
		return analysisErr(err)
	}
	is, err := h.newIssue(user.ID, &in.issueFields, res, ids, atts, now)
	if err != nil {
		return err
	}
	is.PrinterID = &printer.ID
	is.DiagnosedCategory = h.diagnose(req)
	if err := h.store.CreateIssue(ctx, is); err != nil {
		return err
	}
	// The issue is saved: it keeps its credit whatever happens to the answer.
	charged = false
	out, err := h.view(ctx, &store.IssueView{Issue: *is, PrinterName: &printer.Name, PrinterBrand: &printer.Brand})
	if err != nil {
		return err
	}
	out.Attachments = attachmentsJSON(atts)
	return c.JSON(http.StatusCreated, out)
}

// newIssue is a new, pending issue of userID: the maker's fields, the
// analysis, the photos by id and the attachments; no printer yet.
func (h *issuesAPI) newIssue(userID int64, in *issueFields, res *ai.Result, photoIDs []string, atts []store.Attachment, now time.Time) (*store.Issue, error) {
	checklist, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encode analysis: %w", err)
	}
	paths := make(store.StringList, len(photoIDs))
	for i, id := range photoIDs {
		paths[i] = h.photos.photoPath(id)
	}
	return &store.Issue{UserID: userID, Category: in.Category, Description: in.Description,
		Material: in.Material, NozzleTemp: in.NozzleTemp, BedTemp: in.BedTemp, LayerHeight: in.LayerHeight,
		PrintSpeed: in.PrintSpeed, Infill: in.Infill, PhotoURLs: paths, AIChecklist: store.JSON(checklist), SlicerSettings: slicerJSON(in.SlicerSettings),
		Status: store.StatusPending, WorkingRecommendations: store.StringList{}, CreatedAt: now.UTC(), Attachments: atts}, nil
}

// Diagnoser names the category of the failure mode a request points to,
// "" for none (the built-in engine).
type Diagnoser interface {
	Diagnose(req ai.Request) string
}

// diagnose is the category saved beside the chosen one: nil when nothing
// was diagnosed.
func (h *issuesAPI) diagnose(req ai.Request) *string {
	if h.diagnoser == nil {
		return nil
	}
	if c := h.diagnoser.Diagnose(req); c != "" {
		return &c
	}
	return nil
}

// slicerJSON is what a saved issue keeps of its sliced file: the settings.
func slicerJSON(s *ai.SlicerSettings) store.JSON {
	if s == nil {
		return nil
	}
	b, _ := json.Marshal(s)
	return store.JSON(b)
}

// refund gives a credit back (and the network's, when one was taken) for an
// issue that was not saved; it must not depend on the client still waiting.
func (h *issuesAPI) refund(ctx context.Context, userID int64, netKey string, now time.Time) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := h.store.RefundUserCredit(ctx, userID, now); err != nil {
		h.log.Error("refund user credit", "user", userID, "err", err)
	}
	if netKey != "" {
		if err := h.store.RefundAnonymous(ctx, netKey, now); err != nil {
			h.log.Error("refund network credit", "err", err)
		}
	}
}

// photoIDs extracts and de-duplicates the photo ids of photoUrls.
func photoIDs(urls []string) ([]string, string) {
	if len(urls) > maxImages {
		return nil, fmt.Sprintf("You can attach at most %d photos", maxImages)
	}
	ids := make([]string, 0, len(urls))
	seen := map[string]bool{}
	for i, u := range urls {
		id, ok := photoIDOf(u)
		if !ok {
			return nil, fmt.Sprintf("Photo %d is not an uploaded photo: upload it through /api/upload-images first", i+1)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, ""
}

// loadPhotos reads the caller's photos for the analyzer. A photo that does
// not exist or is someone else's is the same 404.
func (h *issuesAPI) loadPhotos(ctx context.Context, userID int64, ids []string) ([]ai.Photo, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	owned, err := h.store.PhotosOf(ctx, userID, ids)
	if err != nil {
		return nil, err
	}
	if len(owned) != len(ids) {
		return nil, notFoundErr("Photo")
	}
	out := make([]ai.Photo, 0, len(ids))
	for _, id := range ids {
		data, err := h.readBlob(ctx, id+photos.FileSuffix)
		if errors.Is(err, blob.ErrNotFound) {
			return nil, notFoundErr("Photo")
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ai.Photo{MIMEType: photos.MIME, Data: data})
	}
	return out, nil
}

func (h *issuesAPI) readBlob(ctx context.Context, name string) ([]byte, error) {
	f, err := h.blobs.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close() //nolint:errcheck // opened for reading
	data, err := io.ReadAll(io.LimitReader(f, maxImageBytes))
	if err != nil {
		return nil, fmt.Errorf("read photo %s: %w", name, err)
	}
	return data, nil
}

// history is what fixed this printer before, newest first.
func (h *issuesAPI) history(ctx context.Context, userID, printerID int64) ([]ai.PastFix, error) {
	past, err := h.store.PrinterHistory(ctx, userID, printerID, maxHistory)
	if err != nil {
		return nil, err
	}
	out := make([]ai.PastFix, 0, len(past))
	for _, p := range past {
		when := ""
		if p.ResolvedAt != nil {
			when = p.ResolvedAt.UTC().Format("2 January")
		}
		out = append(out, ai.PastFix{Category: p.Category, Description: p.Description,
			StepTitles: append([]string(nil), p.WorkingRecommendations...), ResolvedAt: when})
	}
	return out, nil
}

// list handles GET /api/issues: a page with any page parameter, else the
// whole log, streamed.
func (h *issuesAPI) list(c echo.Context) error {
	if wantsPage(c) {
		return h.page(c)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	ctx := c.Request().Context()
	return h.streamIssues(c, echo.MIMEApplicationJSON, func(v *store.IssueView) (any, error) { return h.view(ctx, v) })
}

// load returns the caller's issue :id or a 404.
func (h *issuesAPI) load(c echo.Context) (*store.IssueView, error) {
	id, err := pathID(c, "Issue")
	if err != nil {
		return nil, err
	}
	v, err := h.store.IssueByID(c.Request().Context(), currentUser(c).ID, id)
	return v, storeErr(err, "Issue")
}

func (h *issuesAPI) get(c echo.Context) error {
	v, err := h.load(c)
	if err != nil {
		return err
	}
	out, err := h.view(c.Request().Context(), v)
	if err == nil {
		err = h.withAttachments(c.Request().Context(), v.UserID, &out)
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

// respond answers with the caller's issue :id as it is now.
func (h *issuesAPI) respond(c echo.Context) error {
	v, err := h.load(c)
	if err != nil {
		return err
	}
	out, err := h.view(c.Request().Context(), v)
	if err == nil {
		err = h.withAttachments(c.Request().Context(), v.UserID, &out)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

type resolveRequest struct {
	WorkingRecommendations []string `json:"workingRecommendations"`
	ResolutionNotes        *string  `json:"resolutionNotes"`
}

// resolve handles PATCH /api/issues/:id/resolve.
func (h *issuesAPI) resolve(c echo.Context) error {
	id, err := pathID(c, "Issue")
	if err != nil {
		return err
	}
	var in resolveRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	fields := map[string]string{}
	working := make([]string, 0, len(in.WorkingRecommendations))
	seen := map[string]bool{}
	if len(in.WorkingRecommendations) > maxWorkingRecs {
		fields["workingRecommendations"] = fmt.Sprintf("You can select at most %d working recommendations", maxWorkingRecs)
	}
	for _, r := range in.WorkingRecommendations {
		r = textcheck.Clean(r, maxWorkingRecRunes+1)
		if utf8.RuneCountInString(r) > maxWorkingRecRunes {
			fields["workingRecommendations"] = "Each working recommendation must be less than 200 characters"
		}
		if r != "" && !seen[r] {
			seen[r] = true
			working = append(working, r)
		}
	}
	var notes *string
	if in.ResolutionNotes != nil {
		n := textcheck.Clean(*in.ResolutionNotes, maxResolution+1)
		if utf8.RuneCountInString(n) > maxResolution {
			fields["resolutionNotes"] = "Resolution notes must be less than 1000 characters"
		} else if n != "" {
			notes = &n
		}
	}
	if len(fields) > 0 {
		return validationErr(fields)
	}
	ctx, user := c.Request().Context(), currentUser(c)
	conf, err := h.confirmation(c, user.ID, id, working)
	if err != nil {
		return err
	}
	err = h.store.ResolveIssue(ctx, user.ID, id, working, notes, conf, h.now())
	if err != nil {
		return issueStateErr(err, "This issue is already resolved: only pending or in-progress issues can be marked as resolved.")
	}
	if len(conf.Steps) > 0 {
		h.learn.learned()
	}
	return h.respond(c)
}

// confirmation is what learning keeps of a resolve: of the working titles,
// only steps the issue's own analysis offered, as the knowledge-base steps
// they are, and the network they were confirmed from. The maker's own words
// stay in the maker's log and history and are never learned.
func (h *issuesAPI) confirmation(c echo.Context, userID, id int64, working []string) (store.Confirmation, error) {
	if h.learn == nil || len(working) == 0 {
		return store.Confirmation{}, nil
	}
	ctx := c.Request().Context()
	is, err := h.store.IssueByID(ctx, userID, id)
	if err != nil {
		return store.Confirmation{}, storeErr(err, "Issue")
	}
	offered := offeredSteps(is)
	var titles []string
	for _, w := range working {
		if offered[w] {
			titles = append(titles, w)
		}
	}
	if len(titles) == 0 {
		return store.Confirmation{}, nil
	}
	req, _ := h.savedRequest(ctx, userID, is)
	return h.learn.confirm(ctx, req, titles, clientIP(c))
}

// offeredSteps are the titles of the steps of an issue's analysis (none
// for an issue without one).
func offeredSteps(is *store.IssueView) map[string]bool {
	var res ai.Result
	_ = json.Unmarshal(is.AIChecklist, &res)
	steps := make(map[string]bool, len(res.Steps))
	for _, s := range res.Steps {
		steps[s.Title] = true
	}
	return steps
}

// savedRequest rebuilds the analysis request of a saved issue: its fields,
// its sliced file's settings and its printer, when the printer still exists.
func (h *issuesAPI) savedRequest(ctx context.Context, userID int64, is *store.IssueView) (ai.Request, *store.Printer) {
	fields := issueFields{Category: is.Category, Description: is.Description, Material: is.Material, NozzleTemp: is.NozzleTemp,
		BedTemp: is.BedTemp, LayerHeight: is.LayerHeight, PrintSpeed: is.PrintSpeed, Infill: is.Infill}
	if len(is.SlicerSettings) > 0 {
		var sl ai.SlicerSettings
		if json.Unmarshal(is.SlicerSettings, &sl) == nil {
			fields.SlicerSettings = &sl
		}
	}
	req := fields.request()
	if is.PrinterID == nil {
		return req, nil
	}
	p, err := h.store.PrinterByID(ctx, userID, *is.PrinterID)
	if err != nil {
		return req, nil
	}
	req.PrinterBrand, req.PrinterModel = p.Brand, p.Name
	req.NozzleSize, req.FilamentDiameter = &p.NozzleSize, &p.FilamentDiameter
	return req, p
}

// issueStateErr maps a status change's failure: an issue that is already
// resolved is a 409 with msg, a missing one a 404.
func issueStateErr(err error, msg string) error {
	if errors.Is(err, store.ErrWrongState) {
		return apiErr(http.StatusConflict, "ISSUE_ALREADY_RESOLVED", msg)
	}
	return storeErr(err, "Issue")
}

type checkedStepsRequest struct {
	CheckedSteps []string `json:"checkedSteps"`
}

// checkedSteps handles PUT /api/issues/:id/checked-steps: the titles of the
// steps the maker ticked, stored with the issue so every device shows the
// same ticks. Only titles of the issue's own steps are kept.
func (h *issuesAPI) checkedSteps(c echo.Context) error {
	id, err := pathID(c, "Issue")
	if err != nil {
		return err
	}
	var in checkedStepsRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if len(in.CheckedSteps) > maxWorkingRecs {
		return validationErr(map[string]string{"checkedSteps": fmt.Sprintf("You can tick at most %d steps", maxWorkingRecs)})
	}
	ctx, user := c.Request().Context(), currentUser(c)
	is, err := h.store.IssueByID(ctx, user.ID, id)
	if err != nil {
		return storeErr(err, "Issue")
	}
	steps := offeredSteps(is) // an issue without analysis has no steps to tick
	titles := make([]string, 0, len(in.CheckedSteps))
	seen := map[string]bool{}
	for _, t := range in.CheckedSteps {
		if !steps[t] {
			return validationErr(map[string]string{"checkedSteps": fmt.Sprintf("%q is not a step of this issue", textcheck.Clean(t, 80))})
		}
		if !seen[t] {
			seen[t] = true
			titles = append(titles, t)
		}
	}
	if err := h.store.SetCheckedSteps(ctx, user.ID, id, titles); err != nil {
		return storeErr(err, "Issue")
	}
	return h.respond(c)
}

// start handles PATCH /api/issues/:id/progress: the maker began working
// through the steps (the app calls it when the first step is ticked), so a
// pending issue becomes in-progress. Calling it again changes nothing.
func (h *issuesAPI) start(c echo.Context) error {
	id, err := pathID(c, "Issue")
	if err != nil {
		return err
	}
	err = h.store.StartIssue(c.Request().Context(), currentUser(c).ID, id)
	if err != nil {
		return issueStateErr(err, "This issue is already resolved.")
	}
	return h.respond(c)
}
