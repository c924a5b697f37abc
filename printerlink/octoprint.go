package printerlink

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/layerfix/layerfix/ai"
)

type octoVersion struct {
	Server string `json:"server"`
	Text   string `json:"text"`
}

type octoConnection struct {
	Current struct {
		State          string `json:"state"`
		PrinterProfile string `json:"printerProfile"`
	} `json:"current"`
}

type octoProfiles struct {
	Profiles map[string]struct {
		Name     string `json:"name"`
		Model    string `json:"model"`
		Current  bool   `json:"current"`
		Extruder struct {
			NozzleDiameter *float64 `json:"nozzleDiameter"`
		} `json:"extruder"`
	} `json:"profiles"`
}

type octoJob struct {
	Job struct {
		File struct {
			Name   string `json:"name"`
			Path   string `json:"path"`
			Origin string `json:"origin"`
		} `json:"file"`
	} `json:"job"`
	State string `json:"state"`
	Error string `json:"error"`
}

type octoFile struct {
	Prints *struct {
		Failure int `json:"failure"`
		Success int `json:"success"`
		Last    *struct {
			Success bool `json:"success"`
		} `json:"last"`
	} `json:"prints"`
}

type octoTemp struct {
	Actual *float64 `json:"actual"`
	Target *float64 `json:"target"`
}

type octoPrinter struct {
	Temperature map[string]octoTemp `json:"temperature"`
	State       struct {
		Text string `json:"text"`
	} `json:"state"`
}

// octoprint reads OctoPrint's version, connection, printer profile, job,
// the job file's print history, the temperatures and, when the key may
// read logs, the end of the serial log.
func (s *session) octoprint(ctx context.Context) error {
	var v octoVersion
	if err := s.getJSON(ctx, "/api/version", nil, &v); err != nil {
		return fatal(err)
	}
	r := s.res
	r.Software = clip(v.Text, 80)
	if r.Software == "" {
		r.Software = clip("OctoPrint "+v.Server, 80)
	}

	var conn octoConnection
	if err := s.getJSON(ctx, "/api/connection", nil, &conn); err != nil {
		s.note("connection: %s", noteErr(err))
	} else {
		r.State = clip(conn.Current.State, 60)
	}
	var profiles octoProfiles
	if err := s.getJSON(ctx, "/api/printerprofiles", nil, &profiles); err != nil {
		s.note("printer profiles: %s", noteErr(err))
	} else {
		for id, p := range profiles.Profiles {
			if p.Current || id == conn.Current.PrinterProfile {
				if d := num(p.Extruder.NozzleDiameter, 0.1, 2); d != nil {
					r.Form.SlicerSettings = &ai.SlicerSettings{NozzleDiameter: d}
				}
				break
			}
		}
	}

	var job octoJob
	if err := s.getJSON(ctx, "/api/job", nil, &job); err != nil {
		s.note("job: %s", noteErr(err))
	} else {
		if job.State != "" {
			r.State = clip(job.State, 60)
		}
		if f := job.Job.File; f.Name != "" {
			r.Job = &Job{File: clip(f.Name, 120), Reason: clip(job.Error, 200)}
			if strings.HasPrefix(strings.ToLower(job.State), "printing") {
				r.Job.Status = "printing"
			}
			origin, path := f.Origin, f.Path
			if path == "" {
				path = f.Name
			}
			if origin != "local" && origin != "sdcard" {
				origin = "local"
			}
			var fi octoFile
			if err := s.getJSON(ctx, "/api/files/"+origin+"/"+escapePath(path), nil, &fi); err != nil {
				s.note("%s: %s", r.Job.File, noteErr(err))
			} else if r.Job.Status == "" && fi.Prints != nil && fi.Prints.Last != nil {
				r.Job.Status = "failed"
				if fi.Prints.Last.Success {
					r.Job.Status = "completed"
				}
			}
		}
	}

	var pr octoPrinter
	if err := s.getJSON(ctx, "/api/printer", url.Values{"history": {"false"}}, &pr); err != nil {
		s.note("temperatures: %s", noteErr(err)) // 409 while the printer is not connected
	} else {
		r.Form.NozzleTemp = num(pr.Temperature["tool0"].Target, 1, 500)
		r.Form.BedTemp = num(pr.Temperature["bed"].Target, 1, 200)
	}

	log, cut, err := s.tail(ctx, "/downloads/logs/serial.log", s.room())
	var se *statusError
	switch {
	case errors.As(err, &se) && se.code == 404:
		s.note("serial.log: serial logging is off in OctoPrint")
	case err != nil:
		s.note("serial.log: %s", noteErr(err))
	default:
		if cut {
			s.note("serial.log: its last %d KB", (len(log)+1023)>>10)
		}
		s.attach("serial.log", log)
	}
	return nil
}

// escapePath escapes each segment of a file path for a URL.
func escapePath(p string) string {
	segs := strings.Split(strings.TrimLeft(p, "/"), "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return strings.Join(segs, "/")
}
