package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// saveAnalysisRequest is an anonymous analysis a maker saves to the account
// they just created ("Sign Up to Save Results"): the inputs as they were
// analysed, the result and its signature, the token that binds the inputs,
// and the photos uploaded again to the account.
type saveAnalysisRequest struct {
	troubleshootRequest
	Result      json.RawMessage `json:"result"`
	Signature   string          `json:"signature"`
	RefineToken string          `json:"refineToken"`
	PhotoURLs   []string        `json:"photoUrls"`
}

// saveAnalysis handles POST /api/issues/from-analysis: the anonymous
// analysis becomes an issue of the caller's log, with no new analysis and
// no credit (the analysis was counted when it was made, and its count moved
// to the account at sign-up). Only a result this server made can be saved,
// only with the inputs it was made from (the token binds them for 24 hours),
// and each analysis once. The printer typed on the form becomes one of the
// account's printers, unless it already is one.
func (h *issuesAPI) saveAnalysis(c echo.Context) error {
	ctx, user, now := c.Request().Context(), currentUser(c), h.now()
	var in saveAnalysisRequest
	fields, atts, err := bindAnalysis(c, &in, &in.troubleshootRequest)
	if err != nil {
		return err
	}
	if len(in.Images) > 0 {
		fields["images"] = "Upload the photos with /api/upload-images and send their photoUrls"
	}
	ids, msg := photoIDs(in.PhotoURLs)
	if msg != "" {
		fields["photoUrls"] = msg
	}
	var res ai.Result
	switch {
	case len(in.Result) == 0 || string(in.Result) == "null":
		fields["result"] = "result is required"
	case json.Unmarshal(in.Result, &res) != nil:
		fields["result"] = "result must be an analysis result: summary, steps and additionalTips"
	default:
		if err := ai.ValidateResult(&res); err != nil {
			fields["result"] = "result is not a valid analysis result: " + err.Error()
		}
	}
	if len(fields) > 0 {
		return validationErr(fields)
	}
	if ok, err := h.signer.valid(ctx, &res, in.Signature); err != nil {
		return err
	} else if !ok {
		return apiErr(http.StatusBadRequest, "NOT_OUR_RESULT", "Only results made on this server can be saved here. Run the analysis again.")
	}
	req := in.request()
	req.PrinterBrand, req.Attachments = in.PrinterBrand, aiAttachments(atts)
	if ok, err := checkRefineToken(ctx, h.signer.keys, now, in.RefineToken, req); err != nil {
		return err
	} else if !ok {
		return apiErr(http.StatusForbidden, "ANALYSIS_TOKEN_INVALID",
			"This result can no longer be saved: results can be saved for 24 hours with the details they were made from. Run the analysis again.")
	}
	owned, err := h.store.PhotosOf(ctx, user.ID, ids)
	if err != nil {
		return err
	}
	if len(owned) != len(ids) {
		return notFoundErr("Photo")
	}
	if ok, err := h.saved.allow(ctx, limiterKey("saved-analysis", in.RefineToken)); err != nil {
		return err
	} else if !ok {
		return apiErr(http.StatusConflict, "ANALYSIS_ALREADY_SAVED", "This result is saved already: find it in your issues.")
	}
	printer, err := h.printerFor(c, user.ID, in.PrinterBrand)
	if err != nil {
		return err
	}
	is, err := h.newIssue(user.ID, &in.issueFields, &res, ids, atts, now)
	if err != nil {
		return err
	}
	is.DiagnosedCategory = h.diagnose(req)
	view := &store.IssueView{}
	if printer != nil {
		is.PrinterID = &printer.ID
		view.PrinterName, view.PrinterBrand = &printer.Name, &printer.Brand
	}
	if err := h.store.CreateIssue(ctx, is); err != nil {
		return err
	}
	view.Issue = *is
	out, err := h.view(ctx, view)
	if err != nil {
		return err
	}
	out.Attachments = attachmentsJSON(atts)
	return c.JSON(http.StatusCreated, out)
}

// printerFor is the account's printer that the form's "Printer Brand/Model"
// names, added when the account has none by that name: "Creality Ender 3
// V2" becomes the printer "Ender 3 V2" of the brand "Creality". A text the
// printer rules refuse saves the issue without a printer.
func (h *issuesAPI) printerFor(c echo.Context, userID int64, typed string) (*store.Printer, error) {
	ctx := c.Request().Context()
	printers, err := h.store.ListPrinters(ctx, userID)
	if err != nil {
		return nil, err
	}
	want := letterDigits(typed)
	for i := range printers {
		p := &printers[i]
		if letterDigits(p.Name) == want || letterDigits(p.Brand+p.Name) == want {
			return p, nil
		}
	}
	in := printerInput{Name: typed, Brand: typed}
	if first, rest, ok := strings.Cut(strings.TrimSpace(typed), " "); ok {
		if _, maker := ai.PrinterMention(first, ""); maker && strings.TrimSpace(rest) != "" {
			in.Name, in.Brand = rest, first
		}
	}
	if len(in.validate(false)) > 0 {
		return nil, nil
	}
	p := &store.Printer{UserID: userID, NozzleSize: defaultNozzle, FilamentDiameter: defaultFilament}
	in.apply(p)
	if err := h.store.CreatePrinter(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// letterDigits is s in lower case with only its letters and digits:
// "Ender-3 V2" and "ender 3 v2" are the same printer.
func letterDigits(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
