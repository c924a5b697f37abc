package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/store"
)

// printerServerFields are store.Printer's JSON fields the server sets, never
// the maker.
var printerServerFields = map[string]bool{"id": true, "userId": true, "createdAt": true}

func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

// TestPrinterFieldEveryStep: a field of store.Printer that makers edit is
// in the API's printer body, is copied onto the printer by apply, and is in
// the OpenAPI document's Printer and PrinterInput schemas (which the
// frontend's types are generated from). A step forgotten when adding a
// printer field fails here; CONTRIBUTING.md lists the steps.
func TestPrinterFieldEveryStep(t *testing.T) {
	stored := jsonFields(reflect.TypeFor[store.Printer]())
	input := jsonFields(reflect.TypeFor[printerInput]())
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatal(err)
	}
	for name, f := range stored {
		if _, ok := doc.Components.Schemas["Printer"].Properties[name]; !ok {
			t.Errorf("store.Printer.%s (%s) is not in the OpenAPI Printer schema: run go generate ./server", f.Name, name)
		}
		if printerServerFields[name] {
			continue
		}
		in, ok := input[name]
		if !ok {
			t.Errorf("store.Printer.%s (%s) is not in printerInput, the body of POST and PUT /api/printers", f.Name, name)
			continue
		}
		if _, ok := doc.Components.Schemas["PrinterInput"].Properties[name]; !ok {
			t.Errorf("printerInput.%s is not in the OpenAPI PrinterInput schema: run go generate ./server", in.Name)
		}
		// apply copies the field: a value in the body reaches the printer.
		var body printerInput
		bv := reflect.ValueOf(&body).Elem().FieldByIndex(in.Index)
		switch bv.Kind() {
		case reflect.String:
			bv.SetString("x")
		case reflect.Pointer:
			n := reflect.New(bv.Type().Elem())
			switch n.Elem().Kind() {
			case reflect.String:
				n.Elem().SetString("x")
			case reflect.Float64:
				n.Elem().SetFloat(9)
			default:
				t.Fatalf("printerInput.%s: teach this test its type %s", in.Name, bv.Type())
			}
			bv.Set(n)
		default:
			t.Fatalf("printerInput.%s: teach this test its type %s", in.Name, bv.Type())
		}
		var p store.Printer
		body.apply(&p)
		if reflect.ValueOf(p).FieldByIndex(f.Index).IsZero() {
			t.Errorf("printerInput.apply does not copy %s onto the printer", name)
		}
	}
	if len(stored) < 5 {
		t.Fatalf("only %d fields of store.Printer found", len(stored))
	}
}
