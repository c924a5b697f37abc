package ai

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The prompt every remote model gets: the same facts and the same
// grounding, whichever provider answers.

// requestPrompt is everything known about the failed print as text: the
// category, the description, the settings, the printer, earlier fixes,
// excerpts of the attached files and a line about the photos.
// photosFollow says whether the photos are sent after this text; keys are
// the fact keys the knowledge base has rules for (groundingFactKeys).
func requestPrompt(req Request, photosFollow bool, keys map[string]bool) string {
	var b strings.Builder
	label := CategoryLabels[req.Category]
	if label == "" {
		label = "Other / I Don't Know"
	}
	fmt.Fprintf(&b, "Issue category: %s\n\n", label)
	fmt.Fprintf(&b, "Description from the maker:\n\"\"\"\n%s\n\"\"\"\n", strings.TrimSpace(req.Description))

	var settings []string
	if m := strings.TrimSpace(req.Material); m != "" {
		settings = append(settings, "Material: "+m)
	}
	settings = appendGeminiNumber(settings, "Nozzle temperature", req.NozzleTemp, "°C")
	settings = appendGeminiNumber(settings, "Bed temperature", req.BedTemp, "°C")
	settings = appendGeminiNumber(settings, "Layer height", req.LayerHeight, "mm")
	settings = appendGeminiNumber(settings, "Print speed", req.PrintSpeed, "mm/s")
	settings = appendGeminiNumber(settings, "Infill", req.Infill, "%")
	if sl := req.Slicer; sl != nil {
		if sl.Slicer != "" {
			settings = append(settings, "Read from the "+sl.Slicer+" file")
		}
		settings = appendGeminiNumber(settings, "Nozzle diameter", sl.NozzleDiameter, "mm")
		settings = appendGeminiNumber(settings, "Retraction length", sl.RetractionLength, "mm")
		settings = appendGeminiNumber(settings, "Retraction speed", sl.RetractionSpeed, "mm/s")
		settings = appendGeminiNumber(settings, "First layer height", sl.FirstLayerHeight, "mm")
		settings = appendGeminiNumber(settings, "First layer speed", sl.FirstLayerSpeed, "mm/s")
		settings = appendGeminiNumber(settings, "Part fan", sl.FanSpeed, "%")
		settings = appendGeminiNumber(settings, "Pressure/linear advance", sl.PressureAdvance, "")
		settings = appendGeminiNumber(settings, "Outer wall speed", sl.WallSpeed, "mm/s")
		settings = appendGeminiNumber(settings, "Travel speed", sl.TravelSpeed, "mm/s")
		settings = appendGeminiNumber(settings, "Acceleration", sl.Acceleration, "mm/s²")
	}
	writeGeminiList(&b, "Print settings", settings, "none given")

	var printer []string
	brand, model := strings.TrimSpace(req.PrinterBrand), strings.TrimSpace(req.PrinterModel)
	switch {
	case brand != "" && model != "" && !strings.Contains(strings.ToLower(brand), strings.ToLower(model)):
		printer = append(printer, "Printer: "+brand+" "+model)
	case brand != "":
		printer = append(printer, "Printer: "+brand)
	case model != "":
		printer = append(printer, "Printer: "+model)
	}
	printer = appendGeminiNumber(printer, "Nozzle diameter", req.NozzleSize, "mm")
	printer = appendGeminiNumber(printer, "Filament diameter", req.FilamentDiameter, "mm")
	writeGeminiList(&b, "Printer profile", printer, "unknown")

	var history []string
	for _, f := range req.History {
		line := fmt.Sprintf("%s (%s): %q", f.ResolvedAt, CategoryLabels[f.Category], geminiClip(f.Description, 300))
		if len(f.StepTitles) > 0 {
			line += "; what worked: " + strings.Join(f.StepTitles, "; ")
		}
		history = append(history, line)
	}
	if len(history) > 0 {
		writeGeminiList(&b, "Fixes that worked before on this printer", history, "")
	}

	writeGeminiFacts(&b, req.Attachments, keys)
	writeGeminiAttachments(&b, req.Attachments)

	switch n := len(req.Photos); {
	case n > 0 && photosFollow:
		fmt.Fprintf(&b, "\n%d photo(s) of the failed print follow.\n", n)
	case n > 0:
		fmt.Fprintf(&b, "\nThe maker took %d photo(s), which you are not shown: rely on the description.\n", n)
	default:
		b.WriteString("\nNo photos were given.\n")
	}
	return b.String()

}

// groundingPrompt is the knowledge-base candidates as text ("" without any).
func groundingPrompt(cands []Candidate) string {
	if len(cands) == 0 {
		return ""
	}
	grounding, err := json.MarshalIndent(cands, "", " ")
	if err != nil {
		return ""
	}
	return "Knowledge-base candidates, ranked by the built-in engine (score: higher is more likely), " +
		"with their causes and fixes already adapted to these settings:\n" + string(grounding)
}

// photoMIME is a photo's media type, JPEG when it is not known.
func photoMIME(p Photo) string {
	if p.MIMEType == "" {
		return "image/jpeg"
	}
	return p.MIMEType
}

// groundingFactKeys are the fact keys the grounding engine's knowledge
// uses, nil without an engine.
func groundingFactKeys(g Grounder) map[string]bool {
	if fk, ok := g.(interface{ FactKeys() map[string]bool }); ok {
		return fk.FactKeys()
	}
	return nil
}
