package server

import (
	"fmt"
	_ "image/png" // register the decoder
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/textcheck"
)

// Field rules (lengths, numeric ranges, allowed characters), shared by the anonymous and the signed-in
// issue forms. Messages are the spec's texts.
const (
	maxImagePixels   = 40_000_000
	maxPrinterBrand  = 100
	minDescription   = 10
	maxDescription   = 2000
	maxMaterial      = 50
	maxResolution    = 1000
	maxShareTitle    = 200
	shareTitleSource = 50
	shareDescription = 200 // a shared guide's link preview: the summary's start
)

// issueFields are the analysis inputs common to both forms.
type issueFields struct {
	Category       string             `json:"category"`
	Description    string             `json:"description"`
	Material       *string            `json:"material"`
	NozzleTemp     *float64           `json:"nozzleTemp"`
	BedTemp        *float64           `json:"bedTemp"`
	LayerHeight    *float64           `json:"layerHeight"`
	PrintSpeed     *float64           `json:"printSpeed"`
	Infill         *float64           `json:"infill"`
	SlicerSettings *ai.SlicerSettings `json:"slicerSettings"` // read from the sliced file in the browser
	// The printer's own text files (logs, configs, settings dumps); see
	// checkAttachments.
	Attachments []attachmentIn `json:"attachments"`
}

// slicerRules are the plausible ranges of the settings a sliced file gives.
var slicerRules = []struct {
	name     string
	get      func(*ai.SlicerSettings) *float64
	min, max float64
}{
	{"nozzleDiameter", func(s *ai.SlicerSettings) *float64 { return s.NozzleDiameter }, 0.1, 2},
	{"retractionLength", func(s *ai.SlicerSettings) *float64 { return s.RetractionLength }, 0, 20},
	{"retractionSpeed", func(s *ai.SlicerSettings) *float64 { return s.RetractionSpeed }, 1, 300},
	{"firstLayerHeight", func(s *ai.SlicerSettings) *float64 { return s.FirstLayerHeight }, 0.01, 2},
	{"firstLayerSpeed", func(s *ai.SlicerSettings) *float64 { return s.FirstLayerSpeed }, 1, 1000},
	{"fanSpeed", func(s *ai.SlicerSettings) *float64 { return s.FanSpeed }, 0, 100},
	{"pressureAdvance", func(s *ai.SlicerSettings) *float64 { return s.PressureAdvance }, 0, 2},
	{"wallSpeed", func(s *ai.SlicerSettings) *float64 { return s.WallSpeed }, 1, 2000},
	{"travelSpeed", func(s *ai.SlicerSettings) *float64 { return s.TravelSpeed }, 1, 2000},
	{"acceleration", func(s *ai.SlicerSettings) *float64 { return s.Acceleration }, 10, 100000},
}

// checkSlicer validates the sliced file's settings, one message per bad one.
func checkSlicer(s *ai.SlicerSettings, fields map[string]string) {
	if s == nil {
		return
	}
	s.Slicer = strings.TrimSpace(s.Slicer)
	if utf8.RuneCountInString(s.Slicer) > 40 || textcheck.InvalidChar(s.Slicer, false) != "" {
		fields["slicerSettings.slicer"] = "The slicer name must be a short plain name"
	}
	for _, r := range slicerRules {
		if v := r.get(s); v != nil && (math.IsNaN(*v) || *v < r.min || *v > r.max) {
			fields["slicerSettings."+r.name] = fmt.Sprintf("%s must be between %s and %s", r.name, fmtFloat(r.min), fmtFloat(r.max))
		}
	}
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

type numericRule struct {
	field    string
	min, max float64
	msg      string
}

var numericRules = []numericRule{
	{"nozzleTemp", 0, 500, "Nozzle temperature must be between 0 and 500 °C"},
	{"bedTemp", 0, 200, "Bed temperature must be between 0 and 200 °C"},
	{"layerHeight", 0.05, 1, "Layer height must be between 0.05 and 1 mm"},
	{"printSpeed", 1, 300, "Print speed must be between 1 and 300 mm/s"},
	{"infill", 0, 100, "Infill must be between 0 and 100 %"},
}

// normalize trims text fields and checks every rule, adding a message per
// failing field to fields.
func (f *issueFields) normalize(fields map[string]string) {
	f.Category = strings.TrimSpace(f.Category)
	if f.Category == "" || !ai.ValidCategory(f.Category) {
		fields["category"] = "Please select an issue category"
	}
	f.Description = strings.TrimSpace(f.Description)
	switch n := utf8.RuneCountInString(f.Description); {
	case n < minDescription:
		fields["description"] = "Please provide a detailed description (at least 10 characters)"
	case n > maxDescription:
		fields["description"] = "Description must be less than 2000 characters"
	default:
		if bad := textcheck.Problem("Description", f.Description, true); bad != "" {
			fields["description"] = bad
		}
	}
	if f.Material != nil {
		m := strings.TrimSpace(*f.Material)
		switch {
		case m == "":
			f.Material = nil
		case utf8.RuneCountInString(m) > maxMaterial:
			fields["material"] = "Material must be less than 50 characters"
		case textcheck.Problem("Material", m, false) != "":
			fields["material"] = textcheck.Problem("Material", m, false)
		default:
			*f.Material = m // the decoded value's own memory
		}
	}
	checkSlicer(f.SlicerSettings, fields)
	vals := [...]*float64{f.NozzleTemp, f.BedTemp, f.LayerHeight, f.PrintSpeed, f.Infill} // numericRules' order
	for i, r := range numericRules {
		if v := vals[i]; v != nil && (math.IsNaN(*v) || *v < r.min || *v > r.max) {
			fields[r.field] = r.msg
		}
	}
}

// request builds the analysis request of these fields.
func (f *issueFields) request() ai.Request {
	r := ai.Request{
		Category: f.Category, Description: f.Description,
		NozzleTemp: f.NozzleTemp, BedTemp: f.BedTemp, LayerHeight: f.LayerHeight,
		PrintSpeed: f.PrintSpeed, Infill: f.Infill, Slicer: f.SlicerSettings,
	}
	if f.Material != nil {
		r.Material = *f.Material
	}
	return r
}
