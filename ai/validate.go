package ai

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Caps on a Result, counted in characters. They bound what a provider may
// answer and what a client may store as shared data.
const (
	MaxSummaryChars         = 4000
	MaxResultSteps          = 8
	MaxStepTitleChars       = 200
	MaxStepDescriptionChars = 2000
	MaxResultTips           = 10
	MaxTipChars             = 1000
	minSharedSteps          = 1
	minGeminiSteps          = 3
)

// ValidationError says which field of a Result is wrong and why.
type ValidationError struct {
	Field   string // e.g. "summary", "steps[2].priority", "additionalTips[0]"
	Message string
}

func (e *ValidationError) Error() string {
	return e.Field + ": " + e.Message
}

// ValidateResult checks a Result as stored and shared: a summary of 1 to
// MaxSummaryChars characters, 1 to MaxResultSteps steps with a title, a description
// and a priority of high, medium or low, and at most MaxResultTips tips.
func ValidateResult(r *Result) error {
	return ValidateResultSteps(r, minSharedSteps, MaxResultSteps)
}

// ValidateResultSteps is ValidateResult with the allowed number of steps
// given; AI replies must carry at least 3.
func ValidateResultSteps(r *Result, minSteps, maxSteps int) error {
	if r == nil {
		return &ValidationError{Field: "result", Message: "is missing"}
	}
	if err := checkResultText("summary", r.Summary, MaxSummaryChars, true); err != nil {
		return err
	}
	if n := len(r.Steps); n < minSteps || n > maxSteps {
		return &ValidationError{Field: "steps", Message: fmt.Sprintf("must hold %d to %d steps, has %d", minSteps, maxSteps, n)}
	}
	for i, s := range r.Steps {
		field := fmt.Sprintf("steps[%d]", i)
		if err := checkResultText(field+".title", s.Title, MaxStepTitleChars, true); err != nil {
			return err
		}
		if err := checkResultText(field+".description", s.Description, MaxStepDescriptionChars, false); err != nil {
			return err
		}
		switch s.Priority {
		case PriorityHigh, PriorityMedium, PriorityLow:
		default:
			return &ValidationError{Field: field + ".priority", Message: fmt.Sprintf("must be high, medium or low, is %q", s.Priority)}
		}
	}
	if len(r.AdditionalTips) > MaxResultTips {
		return &ValidationError{Field: "additionalTips", Message: fmt.Sprintf("must hold at most %d tips, has %d", MaxResultTips, len(r.AdditionalTips))}
	}
	for i, tip := range r.AdditionalTips {
		if err := checkResultText(fmt.Sprintf("additionalTips[%d]", i), tip, MaxTipChars, true); err != nil {
			return err
		}
	}
	return nil
}

func checkResultText(field, s string, max int, required bool) error {
	if required && strings.TrimSpace(s) == "" {
		return &ValidationError{Field: field, Message: "must not be empty"}
	}
	if n := utf8.RuneCountInString(s); n > max {
		return &ValidationError{Field: field, Message: fmt.Sprintf("must be at most %d characters, has %d", max, n)}
	}
	return nil
}

// validateGeminiReply tidies a decoded reply (surrounding spaces, priority
// case, blank tips) and checks it with the stricter step count of AI replies.
func validateGeminiReply(r *Result) error {
	if r == nil {
		return &ValidationError{Field: "result", Message: "is missing"}
	}
	r.Summary = strings.TrimSpace(r.Summary)
	for i := range r.Steps {
		s := &r.Steps[i]
		s.Title = strings.TrimSpace(s.Title)
		s.Description = strings.TrimSpace(s.Description)
		s.Priority = strings.ToLower(strings.TrimSpace(s.Priority))
	}
	tips := make([]string, 0, len(r.AdditionalTips))
	for _, tip := range r.AdditionalTips {
		if tip = strings.TrimSpace(tip); tip != "" {
			tips = append(tips, tip)
		}
	}
	r.AdditionalTips = tips
	if err := ValidateResultSteps(r, minGeminiSteps, MaxResultSteps); err != nil {
		return err
	}
	for i, s := range r.Steps {
		if s.Description == "" {
			return &ValidationError{Field: fmt.Sprintf("steps[%d].description", i), Message: "must not be empty"}
		}
	}
	return nil
}
