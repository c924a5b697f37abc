package printerlink

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/layerfix/layerfix/ai"
)

// Moonraker's HTTP API wraps every JSON answer in {"result": ...}.
type moonrakerAnswer[T any] struct {
	Result T `json:"result"`
}

type moonrakerInfo struct {
	State           string `json:"state"`
	StateMessage    string `json:"state_message"`
	SoftwareVersion string `json:"software_version"`
}

type moonrakerHistory struct {
	Jobs []struct {
		Filename      string   `json:"filename"`
		Status        string   `json:"status"`
		PrintDuration *float64 `json:"print_duration"`
	} `json:"jobs"`
}

type moonrakerMetadata struct {
	Slicer            string   `json:"slicer"`
	LayerHeight       *float64 `json:"layer_height"`
	FirstLayerHeight  *float64 `json:"first_layer_height"`
	NozzleDiameter    *float64 `json:"nozzle_diameter"`
	FirstLayerExtTemp *float64 `json:"first_layer_extr_temp"`
	FirstLayerBedTemp *float64 `json:"first_layer_bed_temp"`
	FilamentType      string   `json:"filament_type"`
}

type moonrakerSeries struct {
	Temperatures []float64 `json:"temperatures"`
	Targets      []float64 `json:"targets"`
}

// moonraker reads Klipper's state, the last job of the history, its file's
// metadata, printer.cfg, the end of klippy.log and the recent targets.
func (s *session) moonraker(ctx context.Context) error {
	var info moonrakerAnswer[moonrakerInfo]
	if err := s.getJSON(ctx, "/printer/info", nil, &info); err != nil {
		return fatal(err)
	}
	r := s.res
	r.Software = clip("Klipper "+info.Result.SoftwareVersion, 80)
	// The first line of the message says what happened; the rest is advice.
	msg, _, _ := strings.Cut(info.Result.StateMessage, "\n")
	r.State, r.Message = clip(info.Result.State, 40), clip(msg, 200)
	if info.Result.State == "ready" {
		r.Message = "" // "Printer is ready" says nothing
	}

	var hist moonrakerAnswer[moonrakerHistory]
	err := s.getJSON(ctx, "/server/history/list", url.Values{"limit": {"1"}, "order": {"desc"}}, &hist)
	switch {
	case err != nil:
		s.note("job history: %s", noteErr(err))
	case len(hist.Result.Jobs) == 0:
		s.note("job history: no job yet")
	default:
		j := hist.Result.Jobs[0]
		r.Job = &Job{File: clip(j.Filename, 120), Status: clip(j.Status, 40)}
		var md moonrakerAnswer[moonrakerMetadata]
		if err := s.getJSON(ctx, "/server/files/metadata", url.Values{"filename": {j.Filename}}, &md); err != nil {
			s.note("%s metadata: %s", r.Job.File, noteErr(err))
		} else {
			m := md.Result
			r.Form.Material = str(firstOf(m.FilamentType), 40)
			r.Form.NozzleTemp = num(m.FirstLayerExtTemp, 1, 500)
			r.Form.BedTemp = num(m.FirstLayerBedTemp, 1, 200)
			r.Form.LayerHeight = num(m.LayerHeight, 0.01, 2)
			ss := &ai.SlicerSettings{Slicer: clip(m.Slicer, 60), NozzleDiameter: num(m.NozzleDiameter, 0.1, 2), FirstLayerHeight: num(m.FirstLayerHeight, 0.01, 2)}
			if ss.Slicer != "" || ss.NozzleDiameter != nil || ss.FirstLayerHeight != nil {
				r.Form.SlicerSettings = ss
			}
		}
	}

	var temps moonrakerAnswer[map[string]moonrakerSeries]
	if err := s.getJSON(ctx, "/server/temperature_store", url.Values{"include_monitors": {"false"}}, &temps); err != nil {
		s.note("temperatures: %s", noteErr(err))
	} else {
		if r.Form.NozzleTemp == nil {
			r.Form.NozzleTemp = num(lastTarget(temps.Result["extruder"].Targets), 1, 500)
		}
		if r.Form.BedTemp == nil {
			r.Form.BedTemp = num(lastTarget(temps.Result["heater_bed"].Targets), 1, 200)
		}
	}

	cfg, cut, err := s.head(ctx, "/server/files/config/printer.cfg", maxConfig)
	if err != nil {
		s.note("printer.cfg: %s", noteErr(err))
	} else {
		if cut {
			s.note("printer.cfg: only its first %d KB", maxConfig>>10)
		}
		s.attach("printer.cfg", cfg)
	}

	log, cut, err := s.tail(ctx, "/server/files/logs/klippy.log", s.room())
	var se *statusError
	if errors.As(err, &se) && se.code == 404 { // Klipper not writing to the logs root
		log, cut, err = s.tail(ctx, "/server/files/klippy.log", s.room())
	}
	if err != nil {
		s.note("klippy.log: %s", noteErr(err))
	} else {
		if cut {
			s.note("klippy.log: its last %d KB", (len(log)+1023)>>10)
		}
		s.attach("klippy.log", log)
	}
	if r.Job != nil && r.State == "shutdown" && r.Job.Status != "completed" {
		r.Job.Reason = r.Message
	}
	return nil
}

// firstOf is the first of a ";"-separated list (one value per extruder).
func firstOf(s string) string {
	s, _, _ = strings.Cut(s, ";")
	return strings.Trim(strings.TrimSpace(s), `"`)
}

// lastTarget is the last non-zero target of a series, nil when none.
func lastTarget(ts []float64) *float64 {
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i] > 0 {
			return &ts[i]
		}
	}
	return nil
}

// noteErr words what a file's failure was for the notes.
func noteErr(err error) string {
	var se *statusError
	switch {
	case errors.As(err, &se) && se.code == 404:
		return "not found on the host"
	case errors.As(err, &se):
		return fmt.Sprintf("the host answered HTTP %d", se.code)
	case errors.Is(err, errNoContent):
		return "none"
	case errors.Is(err, ErrUnauthorized):
		return "this API key may not read it"
	case errors.Is(err, ErrNotAllowed):
		return "redirected to an address this server may not reach"
	case errors.Is(err, ErrUnreachable):
		return "no answer in time"
	}
	return strings.TrimPrefix(err.Error(), ErrBadAnswer.Error()+": ")
}
