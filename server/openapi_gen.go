package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// apiDoc is a route's contract in the OpenAPI document: its request and
// response bodies are Go values whose types the document is built from.
type apiDoc struct {
	Summary string
	Tag     string
	// Request is a value of the body's type; nil: no body.
	Request any
	// RequestType is the body's media type; "" is application/json.
	RequestType     string
	RequestOptional bool
	// Required are the body's fields a client must send.
	Required []string
	// Responses are the answers other than errors; the first is the usual one.
	Responses []apiResponse
	// Errors are the error statuses, each answering the Error schema.
	Errors []int
	// Query and header parameters; path parameters come from the path.
	Params []apiParam
}

type apiResponse struct {
	Status int
	// Body is a value of the answer's type (nil: no body), or a rawSchema.
	Body        any
	Description string
	ContentType string // "" is application/json
	// Also are more media types the answer comes in, with their bodies.
	Also map[string]any
}

type apiParam struct {
	Name, In, Description string
	Schema                any // a Go value or a rawSchema
}

// rawSchema is a schema written out, for what Go types cannot say (a
// file download, one of two shapes).
type rawSchema map[string]any

// schemaNames are the Go types that become named schemas.
var schemaNames = map[reflect.Type]string{
	reflect.TypeFor[APIError]():              "ErrorDetail",
	reflect.TypeFor[ai.Step]():               "Step",
	reflect.TypeFor[ai.Question]():           "Question",
	reflect.TypeFor[ai.Result]():             "Analysis",
	reflect.TypeFor[resultJSON]():            "AIResult",
	reflect.TypeFor[ai.SlicerSettings]():     "SlicerSettings",
	reflect.TypeFor[attachmentIn]():          "AttachmentInput",
	reflect.TypeFor[attachmentJSON]():        "Attachment",
	reflect.TypeFor[profile]():               "Profile",
	reflect.TypeFor[sessionResponse]():       "Session",
	reflect.TypeFor[hostInput]():             "HostInput",
	reflect.TypeFor[hostJSON]():              "Host",
	reflect.TypeFor[printerInput]():          "PrinterInput",
	reflect.TypeFor[printerJSON]():           "Printer",
	reflect.TypeFor[printerStats]():          "PrinterStats",
	reflect.TypeFor[issueRequest]():          "IssueInput",
	reflect.TypeFor[issueJSON]():             "Issue",
	reflect.TypeFor[troubleshootRequest]():   "TroubleshootInput",
	reflect.TypeFor[subscriptionView]():      "Subscription",
	reflect.TypeFor[saveAnalysisRequest]():   "SaveAnalysisInput",
	reflect.TypeFor[refineRequest]():         "RefineInput",
	reflect.TypeFor[issuePage]():             "IssuePage",
	reflect.TypeFor[issueSummary]():          "IssueSummary",
	reflect.TypeFor[PriceEntry]():            "PriceEntry",
	reflect.TypeFor[planLimit]():             "PlanLimit",
	reflect.TypeFor[messageResponse]():       "Message",
	reflect.TypeFor[emailChangeResponse]():   "EmailChangeResult",
	reflect.TypeFor[deleteAccountResponse](): "DeleteAccountResult",
	reflect.TypeFor[store.SharedResult]():    "SharedResult",
}

// typeSchemas are the schemas of types whose JSON is not their fields.
var typeSchemas = map[reflect.Type]rawSchema{
	reflect.TypeFor[time.Time]():       {"type": "string", "format": "date-time"},
	reflect.TypeFor[json.RawMessage](): {},
	reflect.TypeFor[store.JSON]():      {},
	reflect.TypeFor[jsonText]():        {"type": "string", "description": "UTF-8 text; binary (control characters other than tab, line breaks, form feed, escape) is refused"},
	reflect.TypeFor[optionalHost]():    {"oneOf": []any{rawSchema{"$ref": "#/components/schemas/HostInput"}, rawSchema{"type": "null"}}, "description": "missing: keep the printer's host; null: unlink it"},
	reflect.TypeFor[ai.Answer]():       {"enum": []string{string(ai.AnswerYes), string(ai.AnswerNo), string(ai.AnswerUnsure)}},
}

// fieldSchemas replace a field's schema: what the Go type leaves open (a
// stored JSON column) or narrows (a closed set of strings).
var fieldSchemas = map[string]rawSchema{
	"Step.priority":                    {"enum": []string{"high", "medium", "low"}},
	"Analysis.engine":                  {"enum": []string{ai.EngineBuiltIn, ai.EngineGemini, ai.EngineOpenAI, ai.EngineFallback}},
	"Analysis.fallbackFrom":            {"enum": []string{ai.EngineGemini, ai.EngineOpenAI}},
	"Issue.aiChecklist":                {"oneOf": []any{rawSchema{"$ref": "#/components/schemas/Analysis"}, rawSchema{"type": "null"}}},
	"Issue.slicerSettings":             {"oneOf": []any{rawSchema{"$ref": "#/components/schemas/SlicerSettings"}, rawSchema{"type": "null"}}},
	"Issue.checkedSteps":               {"type": []string{"array", "null"}, "items": rawSchema{"type": "string"}},
	"Issue.status":                     {"enum": []string{"pending", "in-progress", "resolved"}},
	"IssueInput.category":              {"enum": ai.Categories},
	"TroubleshootInput.category":       {"enum": ai.Categories},
	"SharedResult.troubleshootingData": {"$ref": "#/components/schemas/Analysis"},
	"SaveAnalysisInput.result":         {"$ref": "#/components/schemas/AIResult"},
	"Profile.subscriptionTier":         {"enum": tierNames},
	"HostInput.kind":                   {"enum": hostKinds},
	"Host.kind":                        {"enum": hostKinds},
}

// fieldDocs describe fields, by schema and JSON name.
var fieldDocs = map[string]string{ //nolint:gosec // field descriptions, no credentials
	"Analysis.questions":                  "at most two, answered ones first",
	"Analysis.answers":                    "narrow-it-down answers by question id (true and false still read as yes and no)",
	"Analysis.engine":                     "who answered: the built-in engine, Gemini, the operator's OpenAI-compatible model, or the built-in engine after the model failed",
	"Analysis.model":                      "the remote model that answered, or with engine fallback the one that failed",
	"Analysis.fallbackFrom":               "with engine fallback: the engine that failed",
	"AIResult.signature":                  "lets this result be shared (POST /api/share-results)",
	"AttachmentInput.name":                "a plain file name without folders, e.g. klippy.log",
	"Attachment.label":                    "what the file was recognised as, e.g. Klipper log",
	"HostInput.url":                       "http(s)://address[:port][/prefix], no user name, query or fragment",
	"HostInput.apiKey":                    "missing or null: keep the saved key (same kind and origin only); \"\": remove it; OctoPrint and PrusaLink need one",
	"Host.hasApiKey":                      "a key is saved; the key itself is never returned",
	"Issue.category":                      "the maker's choice",
	"Issue.diagnosedCategory":             "the category the analysis diagnosed; null when none (or saved before it was kept). Lists, filters and statistics use the maker's choice unless it is 'other', then this",
	"Issue.checkedSteps":                  "titles of the ticked steps; null until one is ticked",
	"Issue.attachments":                   "on one issue's answers only; the text is at /api/issues/{id}/attachments/{n}",
	"IssueInput.attachments":              attachmentsDoc,
	"TroubleshootInput.attachments":       attachmentsDoc,
	"TroubleshootInput.images":            "base64 JPEG or PNG, at most 5",
	"SharedResult.title":                  "the summary's first 50 characters, cut at a word",
	"DeleteAccountResult.identityDeleted": "Firebase mode: the server deleted the Firebase account (false without Google credentials: the client deletes it)",
}

const attachmentsDoc = "the printer's own text files (logs, configs, settings dumps): at most 4 and 256 KB of text in all (413 over); " +
	"secrets (passwords, tokens, API keys, Wi-Fi and MQTT credentials) are removed before analysis and storage"

var (
	tierNames = []string{"free", "hobby", "pro", "farm"}
	hostKinds = []string{"moonraker", "octoprint", "prusalink"}
)

var errorWords = map[int]string{
	400: "Invalid input (code VALIDATION_ERROR or a named code, with fields)", 401: "Not signed in or the session ended",
	402: "Payment needed", 403: "Not allowed (e.g. account-disabled: the token's or password's account is disabled; email not verified when required, PRINTER_LINK_OFF, HOST_NOT_ALLOWED)", 404: "Not found, or not yours",
	409: "Conflict (e.g. the state does not allow it)", 413: "Request entity too large", 415: "Not application/json",
	429: "Too many requests, or the monthly allowance is used up (PUBLIC_USAGE_LIMIT_EXCEEDED, USAGE_LIMIT_EXCEEDED, BUSY)",
	502: "The host did not answer, refused the key or answered something unexpected (HOST_UNREACHABLE, HOST_REFUSED_KEY, HOST_BAD_ANSWER)",
	500: "Something went wrong on the server (INTERNAL_ERROR)",
	503: "A provider (Gemini, Stripe) is unavailable, or billing is off",
}

// schemaGen builds JSON schemas from Go types.
type schemaGen struct {
	components map[string]rawSchema
	// response: the types are answers, so a field without omitempty is
	// always there (required); request bodies name their required fields.
	response bool
}

func (g *schemaGen) of(v any) rawSchema {
	if r, ok := v.(rawSchema); ok {
		return r
	}
	return g.schema(reflect.TypeOf(v))
}

func (g *schemaGen) schema(t reflect.Type) rawSchema {
	if s, ok := typeSchemas[t]; ok {
		return s
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(g.schema(t.Elem()))
	case reflect.String:
		return rawSchema{"type": "string"}
	case reflect.Bool:
		return rawSchema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return rawSchema{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return rawSchema{"type": "number"}
	case reflect.Slice, reflect.Array:
		return rawSchema{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return rawSchema{"type": "object", "additionalProperties": g.schema(t.Elem())}
	case reflect.Interface:
		return rawSchema{}
	case reflect.Struct:
		name, named := schemaNames[t]
		if !named {
			return g.object(t, "")
		}
		ref := rawSchema{"$ref": "#/components/schemas/" + name}
		if _, done := g.components[name]; !done {
			g.components[name] = nil // a type that holds itself refers to itself
			g.components[name] = g.object(t, name)
		}
		return ref
	}
	panic(fmt.Sprintf("openapi: no schema for %s", t))
}

// require marks fields of a body's object schema (or the named one ref
// points to) as required.
func (g *schemaGen) require(ref rawSchema, fields []string) error {
	c, name := ref, "the body"
	if r, ok := ref["$ref"].(string); ok {
		name = strings.TrimPrefix(r, "#/components/schemas/")
		c = g.components[name]
	}
	if c["type"] != "object" {
		return fmt.Errorf("required fields %v of %s, which is no object", fields, name)
	}
	props, _ := c["properties"].(rawSchema)
	for _, f := range fields {
		if _, ok := props[f]; !ok {
			return fmt.Errorf("required field %q is not in %s", f, name)
		}
	}
	req := append([]string(nil), fields...)
	sort.Strings(req)
	c["required"] = req
	return nil
}

// nullable lets s be null too.
func nullable(s rawSchema) rawSchema {
	if t, ok := s["type"].(string); ok && len(s) == 1 {
		return rawSchema{"type": []string{t, "null"}}
	}
	return rawSchema{"oneOf": []any{s, rawSchema{"type": "null"}}}
}

// object is a struct's schema: its JSON fields, embedded structs' fields
// in line.
func (g *schemaGen) object(t reflect.Type, name string) rawSchema {
	props := rawSchema{}
	var required []string
	g.fields(t, name, props, &required)
	o := rawSchema{"type": "object", "properties": props}
	if len(required) > 0 {
		sort.Strings(required)
		o["required"] = required
	}
	return o
}

func (g *schemaGen) fields(t reflect.Type, name string, props rawSchema, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		jname, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && jname == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				g.fields(et, name, props, required)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if jname == "" {
			jname = f.Name
		}
		key := name + "." + jname
		if own, ok := schemaNames[t]; ok && own != name {
			// A field of an embedded named type keeps that type's overrides.
			if _, mine := fieldSchemas[key]; !mine {
				if _, mine := fieldDocs[key]; !mine {
					key = own + "." + jname
				}
			}
		}
		s, ok := fieldSchemas[key]
		if !ok {
			s = g.schema(f.Type)
		} else if f.Type.Kind() == reflect.Pointer && s["oneOf"] == nil {
			s = nullable(s)
		}
		if d, ok := fieldDocs[key]; ok {
			s = withDescription(s, d)
		}
		props[jname] = s
		if g.response && !strings.Contains(opts, "omitempty") {
			*required = append(*required, jname)
		}
	}
}

func withDescription(s rawSchema, d string) rawSchema {
	out := rawSchema{"description": d}
	for k, v := range s {
		out[k] = v
	}
	return out
}

var schemaRef = regexp.MustCompile(`"#/components/schemas/(\w+)"`)

var pathParam = regexp.MustCompile(`:([A-Za-z]+)`)

// openAPIDocument builds the OpenAPI document of the table's /api routes.
func openAPIDocument(table []route) ([]byte, error) {
	responses := &schemaGen{components: map[string]rawSchema{}, response: true}
	requests := &schemaGen{components: responses.components}
	responses.components["Error"] = rawSchema{"type": "object", "required": []string{"error"}, "properties": rawSchema{
		"error": rawSchema{"type": "object", "required": []string{"code", "message"}, "properties": rawSchema{
			"code": rawSchema{"type": "string"}, "message": rawSchema{"type": "string"},
			"fields": rawSchema{"type": "object", "additionalProperties": rawSchema{"type": "string"}}}}}}
	// Schemas only the overrides above refer to.
	responses.schema(reflect.TypeFor[ai.Result]())
	responses.schema(reflect.TypeFor[issuePage]())
	requests.schema(reflect.TypeFor[hostInput]())
	requests.schema(reflect.TypeFor[ai.SlicerSettings]())
	paths := map[string]rawSchema{}
	for _, r := range table {
		if r.Doc == nil {
			continue
		}
		d := r.Doc
		op := rawSchema{"summary": d.Summary, "tags": []string{d.Tag}}
		switch r.Auth {
		case authUser:
			op["security"] = []any{rawSchema{"bearer": []string{}}}
		case authOptionalUser:
			op["security"] = []any{rawSchema{}, rawSchema{"bearer": []string{}}}
		default:
			op["security"] = []any{}
		}
		var params []any
		for _, m := range pathParam.FindAllStringSubmatch(r.Path, -1) {
			typ := "string"
			if m[1] == "id" || m[1] == "n" {
				typ = "integer"
			}
			p := rawSchema{"name": m[1], "in": "path", "required": true, "schema": rawSchema{"type": typ}}
			if m[1] == "n" {
				p["description"] = "its place in the issue's attachments, from 0"
			}
			params = append(params, p)
		}
		for _, p := range d.Params {
			ps := rawSchema{"name": p.Name, "in": p.In, "required": false, "schema": requests.of(p.Schema)}
			if p.Description != "" {
				ps["description"] = p.Description
			}
			params = append(params, ps)
		}
		if len(params) > 0 {
			op["parameters"] = params
		}
		if d.Request != nil {
			s := requests.of(d.Request)
			if len(d.Required) > 0 {
				if err := requests.require(s, d.Required); err != nil {
					return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
				}
			}
			ct := d.RequestType
			if ct == "" {
				ct = "application/json"
			}
			op["requestBody"] = rawSchema{"required": !d.RequestOptional, "content": rawSchema{ct: rawSchema{"schema": s}}}
		}
		resps := rawSchema{}
		for _, a := range d.Responses {
			desc := a.Description
			if desc == "" {
				desc = http.StatusText(a.Status)
			}
			rs := rawSchema{"description": desc}
			if a.Body != nil {
				ct := a.ContentType
				if ct == "" {
					ct = "application/json"
				}
				content := rawSchema{ct: rawSchema{"schema": responses.of(a.Body)}}
				for ct, body := range a.Also {
					content[ct] = rawSchema{"schema": responses.of(body)}
				}
				rs["content"] = content
			}
			resps[strconv.Itoa(a.Status)] = rs
		}
		// Every route can fail unexpectedly; every body can be too large;
		// a local-mode route is not there in Firebase mode; a route that
		// checks a token sent refuses a disabled account's.
		errs := append([]int{http.StatusInternalServerError}, d.Errors...)
		if r.Auth != authNone {
			errs = append(errs, http.StatusForbidden)
		}
		if d.Request != nil {
			errs = append(errs, http.StatusRequestEntityTooLarge)
		}
		if r.When == localMode {
			errs = append(errs, http.StatusNotFound)
		}
		for _, code := range errs {
			resps[strconv.Itoa(code)] = rawSchema{"description": errorWords[code],
				"content": rawSchema{"application/json": rawSchema{"schema": rawSchema{"$ref": "#/components/schemas/Error"}}}}
		}
		op["responses"] = resps
		path := pathParam.ReplaceAllString(r.Path, "{$1}")
		if paths[path] == nil {
			paths[path] = rawSchema{}
		}
		paths[path][strings.ToLower(r.Method)] = op
	}
	doc := rawSchema{
		"openapi": "3.1.0",
		"info": rawSchema{"title": "Layerfix API", "version": "1",
			"description": "Every /api route of the Layerfix server. Errors are {\"error\":{\"code\",\"message\",\"fields\"}}. " +
				"Bearer tokens are local session tokens (local mode) or Firebase ID tokens (Firebase mode); " +
				"the /api/auth routes exist in local mode only. JSON bodies need Content-Type: application/json."},
		"servers":    []any{rawSchema{"url": "/"}},
		"paths":      paths,
		"components": rawSchema{"schemas": responses.components, "securitySchemes": rawSchema{"bearer": rawSchema{"type": "http", "scheme": "bearer"}}},
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	for _, m := range schemaRef.FindAllSubmatch(b.Bytes(), -1) {
		if responses.components[string(m[1])] == nil {
			return nil, fmt.Errorf("schema %s is referred to but not built", m[1])
		}
	}
	return b.Bytes(), nil
}

// OpenAPIDocument is the OpenAPI document of the API, built from the route
// table and the Go types its routes take and answer.
func OpenAPIDocument() ([]byte, error) {
	return openAPIDocument(routeTable(&handlers{}))
}
