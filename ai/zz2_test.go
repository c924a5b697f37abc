package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

func TestZZ(t *testing.T) {
	e, _ := NewEngine()
	for _, r := range benchRequests()[:4] {
		res, _ := e.Analyze(context.Background(), r)
		b, _ := json.MarshalIndent(res, "", " ")
		fmt.Println(string(b))
	}
}
