package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// printerFixedFields are the Printer fields an update never changes: the
// row's identity and its creation time. Every other field is the maker's
// and must survive UpdatePrinter.
var printerFixedFields = map[string]bool{"ID": true, "UserID": true, "CreatedAt": true}

// TestUpdatePrinterWritesEveryField sets every changeable field of a
// printer to a new value and reads it back: a field added to Printer but
// left out of the update fails here, whatever its name or type.
func TestUpdatePrinterWritesEveryField(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		u := newUser(t, s, "fields@example.com")
		p := &Printer{UserID: u.ID, Name: "Mk4", Brand: "Prusa", NozzleSize: 0.4, FilamentDiameter: 1.75}
		if err := s.CreatePrinter(ctx, p); err != nil {
			t.Fatal(err)
		}
		want := *p
		v := reflect.ValueOf(&want).Elem()
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if printerFixedFields[f.Name] || !f.IsExported() {
				continue
			}
			setDistinct(t, f.Name, v.Field(i), i)
		}
		if err := s.UpdatePrinter(ctx, &want); err != nil {
			t.Fatal(err)
		}
		got, err := s.PrinterByID(ctx, u.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		gv := reflect.ValueOf(got).Elem()
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if printerFixedFields[f.Name] || !f.IsExported() {
				continue
			}
			if !reflect.DeepEqual(gv.Field(i).Interface(), v.Field(i).Interface()) {
				t.Errorf("UpdatePrinter did not write %s: got %v, want %v", f.Name, show(gv.Field(i)), show(v.Field(i)))
			}
		}
	})
}

// setDistinct gives a field a value unlike any default.
func setDistinct(t *testing.T, name string, f reflect.Value, i int) {
	t.Helper()
	switch f.Kind() {
	case reflect.String:
		f.SetString(fmt.Sprintf("%s-%d", name, i))
	case reflect.Float32, reflect.Float64:
		f.SetFloat(float64(i) + 0.25)
	case reflect.Int, reflect.Int32, reflect.Int64:
		f.SetInt(int64(i) + 7)
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Pointer:
		n := reflect.New(f.Type().Elem())
		setDistinct(t, name, n.Elem(), i)
		f.Set(n)
	case reflect.Struct:
		if f.Type() == reflect.TypeFor[time.Time]() {
			f.Set(reflect.ValueOf(time.Date(2024, 1, i+1, 0, 0, 0, 0, time.UTC)))
			return
		}
		t.Fatalf("Printer.%s: teach setDistinct its type %s", name, f.Type())
	default:
		t.Fatalf("Printer.%s: teach setDistinct its type %s", name, f.Type())
	}
}

func show(v reflect.Value) any {
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		return v.Elem().Interface()
	}
	return v.Interface()
}
