// Package ai turns a description of a failed 3D print into a diagnosis:
// a summary, prioritized steps and additional tips. The built-in Engine
// works offline from an embedded knowledge base; other analyzers (Gemini)
// implement the same Analyzer interface.
package ai

import (
	"context"
	"errors"
)

// Priorities of a step, most likely first.
const (
	PriorityHigh   = "high"
	PriorityMedium = "medium"
	PriorityLow    = "low"
)

// Categories are the ten issue categories, in display order.
var Categories = []string{
	"first-layer", "bed-adhesion", "stringing", "layer-quality", "support-issues",
	"extrusion-issues", "mechanical-problems", "heating-issues", "calibration", "other",
}

// ValidCategory reports whether c is one of Categories.
func ValidCategory(c string) bool {
	for _, v := range Categories {
		if v == c {
			return true
		}
	}
	return false
}

// Photo is one decoded, re-encoded image attached to a request.
type Photo struct {
	MIMEType string // "image/jpeg" or "image/png"
	Data     []byte
}

// PastFix is a fix that worked before on the same printer (the issue log).
type PastFix struct {
	Category    string
	Description string
	StepTitles  []string // working recommendations the maker ticked
	ResolvedAt  string   // human date, e.g. "12 March"
}

// Request is everything known about one failed print. Pointer fields are
// nil when the maker did not give them.
type Request struct {
	Category         string
	Description      string
	Material         string
	NozzleTemp       *float64 // °C
	BedTemp          *float64 // °C
	LayerHeight      *float64 // mm
	PrintSpeed       *float64 // mm/s
	Infill           *float64 // %
	PrinterBrand     string   // free text: brand and/or model, e.g. "Creality Ender 3 V2"
	PrinterModel     string   // free text, may be empty
	NozzleSize       *float64 // mm
	FilamentDiameter *float64 // mm
	Photos           []Photo
	History          []PastFix
	// Slicer holds the settings read from the sliced file (G-code or 3MF),
	// nil when the maker did not give one.
	Slicer *SlicerSettings
	// Answers to the narrow-it-down questions, by question id.
	Answers map[string]Answer
	// Attachments are the printer's own files the maker attached (logs,
	// configs, firmware settings dumps), secrets already stripped.
	Attachments []Attachment

	exclude string // evaluation: a case id or source the case base must not use
}

// Limits of the attachments of one request.
const (
	MaxAttachments     = 4
	MaxAttachmentBytes = 256 << 10 // all attachments' text together
)

// Attachment is one text file from the printer: klippy.log, printer.cfg,
// an M503 dump, Configuration.h, a serial log.
type Attachment struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// SlicerSettings are the settings of the print as its slicer wrote them;
// nil fields were not in the file.
type SlicerSettings struct {
	Slicer           string   `json:"slicer,omitempty"`
	NozzleDiameter   *float64 `json:"nozzleDiameter,omitempty"`   // mm
	RetractionLength *float64 `json:"retractionLength,omitempty"` // mm
	RetractionSpeed  *float64 `json:"retractionSpeed,omitempty"`  // mm/s
	FirstLayerHeight *float64 `json:"firstLayerHeight,omitempty"` // mm
	FirstLayerSpeed  *float64 `json:"firstLayerSpeed,omitempty"`  // mm/s
	FanSpeed         *float64 `json:"fanSpeed,omitempty"`         // %
	PressureAdvance  *float64 `json:"pressureAdvance,omitempty"`  // s (Klipper) or K (Marlin)
	WallSpeed        *float64 `json:"wallSpeed,omitempty"`        // mm/s, outer wall
	TravelSpeed      *float64 `json:"travelSpeed,omitempty"`      // mm/s
	Acceleration     *float64 `json:"acceleration,omitempty"`     // mm/s²
}

// Step is one recommended action.
type Step struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Priority    string `json:"priority"`
}

// Result is the analysis of one issue as the app shows it (troubleshootingData).
// Questions is this product's addition: up to two questions (yes, no or not
// sure) that separate the likeliest causes when they are close (built-in
// engine only).
type Result struct {
	Summary        string            `json:"summary"`
	Steps          []Step            `json:"steps"`
	AdditionalTips []string          `json:"additionalTips"`
	Questions      []Question        `json:"questions,omitempty"`
	Answers        map[string]Answer `json:"answers,omitempty"` // answers given so far, by question id
	// Engine says which engine answered: EngineBuiltIn, EngineGemini,
	// EngineOpenAI or EngineFallback (the built-in one after a remote model
	// failed; FallbackFrom then names the engine that failed). Model is the
	// remote model that answered, or with EngineFallback the one that
	// failed. The maker sees them and they are saved with an issue; a
	// result's signature does not cover them and a shared guide drops them.
	Engine       string `json:"engine,omitempty"`
	Model        string `json:"model,omitempty"`
	FallbackFrom string `json:"fallbackFrom,omitempty"`
}

// The engines that answer an analysis (Result.Engine).
const (
	EngineBuiltIn  = "built-in"
	EngineGemini   = "gemini"
	EngineOpenAI   = "openai" // the operator's OpenAI-compatible endpoint
	EngineFallback = "fallback"
)

// stamp marks a remote model's reply as its answer and drops what only the
// built-in engine gives (narrow-it-down questions) or what says otherwise.
func (r *Result) stamp(engine, model string) {
	r.Engine, r.Model, r.FallbackFrom = engine, model, ""
	r.Questions, r.Answers = nil, nil
}

// Question is a narrow-it-down question; answering it re-ranks the steps.
type Question struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// Analyzer produces a Result for a Request.
type Analyzer interface {
	Analyze(ctx context.Context, req Request) (*Result, error)
}

// ErrUnavailable wraps failures of a remote AI provider; the HTTP edge maps it
// to 503 with a message naming the provider.
var ErrUnavailable = errors.New("AI provider unavailable")

// Candidate is a failure mode the built-in engine considers likely for a
// request, with the facts it knows; other analyzers use it as grounding.
type Candidate struct {
	ID       string   `json:"id"`
	Category string   `json:"category"`
	Name     string   `json:"name"`
	Summary  string   `json:"summary"`
	Causes   []string `json:"causes"`
	Fixes    []Step   `json:"fixes"` // with the request's own numbers filled in
	Score    float64  `json:"score"`
}

// Grounder ranks the knowledge base's failure modes for a request.
type Grounder interface {
	Candidates(req Request, n int) []Candidate
}
