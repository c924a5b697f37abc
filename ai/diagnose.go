package ai

// Diagnose is the category of the failure mode the description points to
// most (the chosen category is only a prior), or "" when the description
// matches none.
func (e *Engine) Diagnose(req Request) string {
	a := e.prepare(&req)
	if len(a.ranked) == 0 || a.ranked[0].text <= 0 {
		return ""
	}
	return e.kb.modes[a.ranked[0].mode].Category
}
