package printerlink

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/layerfix/layerfix/ai"
)

type prusaInfo struct {
	Name           string   `json:"name"`
	NozzleDiameter *float64 `json:"nozzle_diameter"`
}

type prusaStatus struct {
	Printer struct {
		State         string   `json:"state"`
		TargetNozzle  *float64 `json:"target_nozzle"`
		TargetBed     *float64 `json:"target_bed"`
		StatusPrinter *struct {
			OK      bool   `json:"ok"`
			Message string `json:"message"`
		} `json:"status_printer"`
	} `json:"printer"`
}

type prusaJob struct {
	State string `json:"state"`
	File  struct {
		Name        string         `json:"name"`
		DisplayName string         `json:"display_name"`
		Meta        map[string]any `json:"meta"`
	} `json:"file"`
}

// prusalink reads PrusaLink's printer info, its status and the current or
// last job with its file's slicer settings. PrusaLink keeps no log to read.
func (s *session) prusalink(ctx context.Context) error {
	var info prusaInfo
	if err := s.getJSON(ctx, "/api/v1/info", nil, &info); err != nil {
		return fatal(err)
	}
	r := s.res
	r.Software = "PrusaLink"
	if d := num(info.NozzleDiameter, 0.1, 2); d != nil {
		r.Form.SlicerSettings = &ai.SlicerSettings{NozzleDiameter: d}
	}

	var st prusaStatus
	if err := s.getJSON(ctx, "/api/v1/status", nil, &st); err != nil {
		s.note("status: %s", noteErr(err))
	} else {
		r.State = clip(st.Printer.State, 40)
		if sp := st.Printer.StatusPrinter; sp != nil && !sp.OK {
			r.Message = clip(sp.Message, 200)
		}
		r.Form.NozzleTemp = num(st.Printer.TargetNozzle, 1, 500)
		r.Form.BedTemp = num(st.Printer.TargetBed, 1, 200)
	}

	var job prusaJob
	err := s.getJSON(ctx, "/api/v1/job", nil, &job)
	switch {
	case errors.Is(err, errNoContent):
		s.note("job: none on the printer now (PrusaLink keeps no history)")
	case err != nil:
		s.note("job: %s", noteErr(err))
	default:
		name := job.File.DisplayName
		if name == "" {
			name = job.File.Name
		}
		r.Job = &Job{File: clip(name, 120), Status: clip(job.State, 40)}
		if r.State == "ERROR" || r.State == "ATTENTION" || r.State == "STOPPED" {
			r.Job.Reason = r.Message
		}
		m := job.File.Meta
		r.Form.Material = str(firstOf(metaString(m, "filament_type")), 40)
		if t := metaNum(m, "temperature"); t != nil {
			r.Form.NozzleTemp = num(t, 1, 500)
		}
		if t := metaNum(m, "bed_temperature"); t != nil {
			r.Form.BedTemp = num(t, 1, 200)
		}
		r.Form.LayerHeight = num(metaNum(m, "layer_height"), 0.01, 2)
		r.Form.Infill = num(metaNum(m, "fill_density"), 0, 100)
	}
	return nil
}

func metaString(m map[string]any, k string) string {
	switch v := m[k].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// metaNum reads a number the slicer may have written as text ("15%").
func metaNum(m map[string]any, k string) *float64 {
	s := strings.TrimSuffix(strings.TrimSpace(firstOf(metaString(m, k))), "%")
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &v
}
