package ai

import (
	"errors"
	"strings"
	"testing"
)

func validTestResult(steps int) *Result {
	r := &Result{Summary: "The nozzle is too high.", AdditionalTips: []string{"Clean the bed."}}
	for range steps {
		r.Steps = append(r.Steps, Step{Title: "Lower Z offset", Description: "By 0.05 mm.", Priority: PriorityHigh})
	}
	return r
}

func TestValidateResult(t *testing.T) {
	tests := []struct {
		name      string
		edit      func(r *Result)
		wantField string // "" for valid
	}{
		{name: "valid", edit: func(*Result) {}},
		{name: "one step is enough for shared data", edit: func(r *Result) { r.Steps = r.Steps[:1] }},
		{name: "no tips", edit: func(r *Result) { r.AdditionalTips = nil }},
		{name: "empty description allowed", edit: func(r *Result) { r.Steps[0].Description = "" }},
		{name: "summary of 4000 characters", edit: func(r *Result) { r.Summary = strings.Repeat("é", MaxSummaryChars) }},
		{name: "empty summary", edit: func(r *Result) { r.Summary = "  " }, wantField: "summary"},
		{name: "summary too long", edit: func(r *Result) { r.Summary = strings.Repeat("a", MaxSummaryChars+1) }, wantField: "summary"},
		{name: "no steps", edit: func(r *Result) { r.Steps = nil }, wantField: "steps"},
		{name: "nine steps", edit: func(r *Result) { r.Steps = validTestResult(9).Steps }, wantField: "steps"},
		{name: "empty title", edit: func(r *Result) { r.Steps[1].Title = "" }, wantField: "steps[1].title"},
		{name: "title too long", edit: func(r *Result) { r.Steps[2].Title = strings.Repeat("t", MaxStepTitleChars+1) }, wantField: "steps[2].title"},
		{name: "description too long", edit: func(r *Result) { r.Steps[0].Description = strings.Repeat("d", MaxStepDescriptionChars+1) }, wantField: "steps[0].description"},
		{name: "bad priority", edit: func(r *Result) { r.Steps[0].Priority = "urgent" }, wantField: "steps[0].priority"},
		{name: "upper-case priority", edit: func(r *Result) { r.Steps[0].Priority = "High" }, wantField: "steps[0].priority"},
		{name: "eleven tips", edit: func(r *Result) { r.AdditionalTips = make([]string, MaxResultTips+1) }, wantField: "additionalTips"},
		{name: "blank tip", edit: func(r *Result) { r.AdditionalTips = []string{"ok", " "} }, wantField: "additionalTips[1]"},
		{name: "tip too long", edit: func(r *Result) { r.AdditionalTips = []string{strings.Repeat("x", MaxTipChars+1)} }, wantField: "additionalTips[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := validTestResult(3)
			tc.edit(r)
			err := ValidateResult(r)
			if tc.wantField == "" {
				if err != nil {
					t.Fatalf("ValidateResult: %v", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != tc.wantField {
				t.Fatalf("err = %v, want a ValidationError on %q", err, tc.wantField)
			}
		})
	}
	if err := ValidateResult(nil); err == nil {
		t.Error("ValidateResult(nil): want an error")
	}
}

func TestValidateGeminiReply(t *testing.T) {
	r := validTestResult(3)
	r.Summary = "  padded  "
	r.Steps[0].Priority = " Medium "
	r.AdditionalTips = []string{"", " keep it dry ", "  "}
	if err := validateGeminiReply(r); err != nil {
		t.Fatalf("validateGeminiReply: %v", err)
	}
	if r.Summary != "padded" || r.Steps[0].Priority != PriorityMedium || len(r.AdditionalTips) != 1 || r.AdditionalTips[0] != "keep it dry" {
		t.Errorf("reply not tidied: %+v", r)
	}

	if err := validateGeminiReply(validTestResult(2)); err == nil {
		t.Error("two steps: want an error, AI replies need 3 to 8")
	}
	r = validTestResult(3)
	r.Steps[2].Description = " "
	if err := validateGeminiReply(r); err == nil {
		t.Error("empty step description: want an error")
	}
}
