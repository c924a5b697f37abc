package ai

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	testOpenAIKey   = "sk-test-openai-456"
	testOpenAIModel = "qwen2.5vl:7b"
)

// openAICall is one request the fake OpenAI-compatible server received.
type openAICall struct {
	at   time.Time
	auth string
	raw  string
	body map[string]any
}

// fakeOpenAI speaks the wire shape of POST /v1/chat/completions as the
// OpenAI API and Ollama's /v1 answer it. respond answers call n (1-based).
type fakeOpenAI struct {
	srv     *httptest.Server
	respond func(n int, w http.ResponseWriter, r *http.Request, body map[string]any)
	mu      sync.Mutex
	calls   []openAICall
}

func newFakeOpenAI(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request, body map[string]any)) *fakeOpenAI {
	t.Helper()
	f := &fakeOpenAI{respond: respond}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOpenAI) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	f.mu.Lock()
	f.calls = append(f.calls, openAICall{at: time.Now(), auth: r.Header.Get("Authorization"), raw: string(raw), body: body})
	n := len(f.calls)
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		openAIError(w, http.StatusNotFound, "invalid_request_error", "", "unknown path "+r.URL.Path)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+testOpenAIKey {
		openAIError(w, http.StatusUnauthorized, "invalid_request_error", "", "Incorrect API key provided.")
		return
	}
	if body["model"] != testOpenAIModel {
		openAIError(w, http.StatusNotFound, "invalid_request_error", "model", "model not found")
		return
	}
	f.respond(n, w, r, body)
}

func (f *fakeOpenAI) callList() []openAICall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]openAICall(nil), f.calls...)
}

// openAIContent answers a chat completion whose message is content.
func openAIContent(w http.ResponseWriter, content string) {
	openAIJSON(w, http.StatusOK, map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1764115200, "model": testOpenAIModel,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": 1500, "completion_tokens": 320, "total_tokens": 1820},
	})
}

func openAIError(w http.ResponseWriter, code int, typ, param, msg string) {
	e := map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}
	if param != "" {
		e["param"] = param
	}
	openAIJSON(w, code, map[string]any{"error": e})
}

func openAIJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func openAIAnswerGood(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
	openAIContent(w, geminiGoodReply)
}

func newTestOpenAI(t *testing.T, url string, timeout time.Duration, vision bool) *OpenAI {
	t.Helper()
	o, err := NewOpenAI(OpenAIConfig{BaseURL: url + "/v1", APIKey: testOpenAIKey, Model: testOpenAIModel, Vision: vision, Timeout: timeout},
		&geminiFakeGrounder{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("NewOpenAI: %v", err)
	}
	return o
}

// TestOpenAIFaults: the operator's model answers, or on any fault the
// built-in engine does (fallback on) or the analysis fails with an error
// naming the provider (fallback off); each failure is counted under the
// openai engine and the API key never appears in an error.
func TestOpenAIFaults(t *testing.T) {
	tests := []struct {
		name       string
		timeout    time.Duration
		fallbackOn bool
		respond    func(n int, w http.ResponseWriter, r *http.Request, body map[string]any)
		wantModel  bool   // the model's result, else the fallback's (or an error with fallback off)
		wantReason string // counted reason when the model failed
		wantCalls  int
	}{
		{name: "good answer", timeout: 2 * time.Second, fallbackOn: true, respond: openAIAnswerGood, wantModel: true, wantCalls: 1},
		{
			name: "reasoning and a code fence around the JSON", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				openAIContent(w, "<think>The lines are round, so...</think>\n```json\n"+geminiGoodReply+"\n```")
			},
			wantModel: true, wantCalls: 1,
		},
		{
			name: "malformed JSON once, then a good answer", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(n int, w http.ResponseWriter, r *http.Request, body map[string]any) {
				if n == 1 {
					openAIContent(w, `{"summary": "cut off`)
					return
				}
				openAIAnswerGood(n, w, r, body)
			},
			wantModel: true, wantCalls: 2,
		},
		{
			name: "malformed JSON throughout", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				openAIContent(w, `{"summary": "cut off`)
			},
			wantReason: ReasonInvalidReply, wantCalls: 2,
		},
		{
			name: "garbage content", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				openAIContent(w, "Sorry, as a language model I cannot look at prints. \x00\xff")
			},
			wantReason: ReasonInvalidReply, wantCalls: 2,
		},
		{
			name: "JSON of the wrong shape", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				openAIContent(w, strings.Replace(geminiGoodReply, `"medium"`, `"urgent"`, 1))
			},
			wantReason: ReasonInvalidReply, wantCalls: 2,
		},
		{
			name: "a body that is not a chat completion", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `<html>502 Bad Gateway</html>`)
			},
			wantReason: ReasonInvalidReply, wantCalls: 2,
		},
		{
			name: "no choice", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				openAIJSON(w, 200, map[string]any{"id": "x", "object": "chat.completion", "choices": []any{}})
			},
			wantReason: ReasonInvalidReply, wantCalls: 1,
		},
		{
			name: "a huge answer", timeout: 5 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				openAIContent(w, strings.Repeat("a", openAIMaxBody+1))
			},
			wantReason: ReasonInvalidReply, wantCalls: 1,
		},
		{
			name: "refusal", timeout: 2 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				openAIJSON(w, 200, map[string]any{"id": "x", "object": "chat.completion", "choices": []any{map[string]any{
					"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": nil, "refusal": "I can't help with that."}}}})
			},
			wantReason: ReasonBlocked, wantCalls: 1,
		},
		{
			name: "429 then success", timeout: 3 * time.Second, fallbackOn: true,
			respond: func(n int, w http.ResponseWriter, r *http.Request, body map[string]any) {
				if n == 1 {
					w.Header().Set("Retry-After-Ms", "50")
					openAIError(w, 429, "rate_limit_error", "", "Rate limit reached for requests")
					return
				}
				openAIAnswerGood(n, w, r, body)
			},
			wantModel: true, wantCalls: 2,
		},
		{
			name: "429 throughout", timeout: 3 * time.Second, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				w.Header().Set("Retry-After-Ms", "20")
				openAIError(w, 429, "rate_limit_error", "", "Rate limit reached for requests")
			},
			wantReason: ReasonRateLimited, wantCalls: 1 + openAIRetries,
		},
		{
			name: "429 throughout, fallback off", timeout: 3 * time.Second, fallbackOn: false,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				w.Header().Set("Retry-After-Ms", "20")
				openAIError(w, 429, "rate_limit_error", "", "Rate limit reached for requests")
			},
			wantReason: ReasonRateLimited, wantCalls: 1 + openAIRetries,
		},
		{
			name: "hang past the timeout", timeout: 300 * time.Millisecond, fallbackOn: true,
			respond: func(_ int, w http.ResponseWriter, r *http.Request, _ map[string]any) {
				<-r.Context().Done()
			},
			wantReason: ReasonTimeout, wantCalls: 1,
		},
		{
			name: "hang, fallback off", timeout: 300 * time.Millisecond, fallbackOn: false,
			respond: func(_ int, w http.ResponseWriter, r *http.Request, _ map[string]any) {
				<-r.Context().Done()
			},
			wantReason: ReasonTimeout, wantCalls: 1,
		},
		{
			name: "401 echoing the key, fallback off", timeout: 2 * time.Second, fallbackOn: false,
			respond: func(_ int, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				openAIError(w, 401, "invalid_request_error", "", "Incorrect API key provided: "+testOpenAIKey)
			},
			wantReason: ReasonClientError, wantCalls: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeOpenAI(t, tc.respond)
			engine := &fakeFallbackEngine{}
			an := WithFallback(newTestOpenAI(t, fake.srv.URL, tc.timeout, false), engine, tc.fallbackOn, slog.New(slog.DiscardHandler))
			before, beforeGemini := FailureCounts(EngineOpenAI), FallbackCounts()

			start := time.Now()
			res, err := an.Analyze(context.Background(), geminiTestRequest())
			elapsed := time.Since(start)

			if limit := tc.timeout + time.Second; elapsed > limit {
				t.Errorf("took %v, want at most the timeout plus a second (%v)", elapsed, limit)
			}
			if n := len(fake.callList()); n != tc.wantCalls {
				t.Errorf("the server got %d calls, want %d", n, tc.wantCalls)
			}
			if got := FailureCounts(EngineOpenAI)[tc.wantReason] - before[tc.wantReason]; !tc.wantModel && got != 1 {
				t.Errorf("FailureCounts(openai)[%q] grew by %d, want 1 (counts %v)", tc.wantReason, got, FailureCounts(EngineOpenAI))
			}
			if got := FallbackCounts()[tc.wantReason] - beforeGemini[tc.wantReason]; got != 0 {
				t.Errorf("counted as a Gemini failure")
			}
			switch {
			case tc.wantModel:
				if err != nil {
					t.Fatalf("Analyze: %v", err)
				}
				if !strings.Contains(res.Summary, "nozzle sits too high") || len(res.Steps) != 3 {
					t.Errorf("got %+v, want the model's result", res)
				}
				if res.Engine != EngineOpenAI || res.Model != testOpenAIModel || res.FallbackFrom != "" {
					t.Errorf("answered by %q %q %q, want openai %s", res.Engine, res.Model, res.FallbackFrom, testOpenAIModel)
				}
				if engine.calls.Load() != 0 {
					t.Error("fallback called although the model answered")
				}
			case tc.fallbackOn:
				if err != nil {
					t.Fatalf("Analyze: %v", err)
				}
				if res.Summary != fakeEngineSummary || res.Engine != EngineFallback || res.FallbackFrom != EngineOpenAI || res.Model != testOpenAIModel {
					t.Errorf("got %q by %q from %q (%q), want the fallback's after openai", res.Summary, res.Engine, res.FallbackFrom, res.Model)
				}
			default:
				var pe *ProviderError
				if !errors.As(err, &pe) || pe.Engine != EngineOpenAI || pe.Reason != tc.wantReason {
					t.Fatalf("err = %#v, want a ProviderError of openai, %s", err, tc.wantReason)
				}
				checkProviderFailure(t, err, "OpenAI-compatible AI provider", testOpenAIKey, engine)
			}
			checkValidResult(t, res)
		})
	}
}

// openAIUserText is the text parts of the user message of a request.
func openAIUserText(t *testing.T, body map[string]any) (text string, images []string) {
	t.Helper()
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 2 {
		t.Fatalf("got %d messages, want a system and a user one: %v", len(msgs), body)
	}
	user := msgs[1].(map[string]any)
	if user["role"] != "user" || msgs[0].(map[string]any)["role"] != "system" {
		t.Fatalf("roles: %v", msgs)
	}
	switch c := user["content"].(type) {
	case string:
		return c, nil
	case []any:
		var texts []string
		for _, p := range c {
			p := p.(map[string]any)
			switch p["type"] {
			case "text":
				texts = append(texts, p["text"].(string))
			case "image_url":
				images = append(images, p["image_url"].(map[string]any)["url"].(string))
			}
		}
		return strings.Join(texts, "\n"), images
	}
	t.Fatalf("user content %T", user["content"])
	return "", nil
}

// TestOpenAIRequest: the operator's model gets the same grounding as
// Gemini (the facts, the engine's ranked candidates, the attachments'
// decisive lines), a strict JSON schema, and the photos only when it sees
// images.
func TestOpenAIRequest(t *testing.T) {
	req := geminiTestRequest()
	req.Attachments = []Attachment{{Name: "klippy.log", Text: "Starting Klippy...\nTransition to shutdown state: MCU 'mcu' shutdown: ADC out of range\n"}}
	for _, vision := range []bool{false, true} {
		fake := newFakeOpenAI(t, openAIAnswerGood)
		if _, err := newTestOpenAI(t, fake.srv.URL, 2*time.Second, vision).Analyze(context.Background(), req); err != nil {
			t.Fatalf("vision %v: %v", vision, err)
		}
		calls := fake.callList()
		if len(calls) != 1 {
			t.Fatalf("vision %v: %d calls", vision, len(calls))
		}
		body := calls[0].body
		text, images := openAIUserText(t, body)
		for _, want := range []string{
			"First Layer Problems", req.Description, "Material: PETG", "Nozzle temperature: 235 °C", "Printer: Prusa MK4",
			"Raise retraction to 1.2 mm", "Nozzle too far from the bed", "Z offset too high", "Retraction length: 0.8 mm",
			`Attachment 1: "klippy.log"`, "ADC out of range", "Facts read from the attached files",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("vision %v: request text lacks %q:\n%s", vision, want, text)
			}
		}
		sys, _ := json.Marshal(body["messages"].([]any)[0])
		if !strings.Contains(string(sys), "3D-printing technician") {
			t.Errorf("system message: %s", sys)
		}
		rf, _ := body["response_format"].(map[string]any)
		schema, _ := json.Marshal(rf["json_schema"])
		if rf["type"] != "json_schema" || !strings.Contains(string(schema), `"strict":true`) || !strings.Contains(string(schema), `"enum":["high","medium","low"]`) {
			t.Errorf("response_format %v", rf)
		}
		if temp, _ := body["temperature"].(float64); temp <= 0 || temp > 0.5 {
			t.Errorf("temperature = %v, want a low one", body["temperature"])
		}
		if !vision {
			if len(images) != 0 || strings.Contains(calls[0].raw, "image_url") || strings.Contains(calls[0].raw, base64.StdEncoding.EncodeToString(req.Photos[0].Data)) {
				t.Errorf("photos sent to a model that does not see images: %s", calls[0].raw)
			}
			if !strings.Contains(text, "2 photo(s), which you are not shown") {
				t.Errorf("the model is not told of the photos it is not shown:\n%s", text)
			}
			continue
		}
		if len(images) != len(req.Photos) {
			t.Fatalf("sent %d images, want %d", len(images), len(req.Photos))
		}
		for i, p := range req.Photos {
			if want := "data:" + p.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(p.Data); images[i] != want {
				t.Errorf("image %d = %q, want %q", i, images[i], want)
			}
		}
		if !strings.Contains(text, "2 photo(s) of the failed print follow") {
			t.Errorf("vision prompt: %s", text)
		}
	}
}

// TestOpenAIJSONModeForServersWithoutSchemas: a server that refuses a
// strict json_schema with a 400 (as many local servers do) is asked again
// in JSON mode with the schema in the prompt; later analyses use JSON
// mode at once.
func TestOpenAIJSONModeForServersWithoutSchemas(t *testing.T) {
	fake := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request, body map[string]any) {
		if rf, _ := body["response_format"].(map[string]any); rf["type"] != "json_object" {
			openAIError(w, 400, "invalid_request_error", "response_format", "response_format json_schema is not supported")
			return
		}
		openAIAnswerGood(n, w, r, body)
	})
	o := newTestOpenAI(t, fake.srv.URL, 2*time.Second, false)
	for i := range 2 {
		res, err := o.Analyze(context.Background(), geminiTestRequest())
		if err != nil || res.Engine != EngineOpenAI {
			t.Fatalf("analysis %d: %v %+v", i, err, res)
		}
	}
	calls := fake.callList()
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 2 for the first analysis and 1 for the second", len(calls))
	}
	sys, _ := json.Marshal(calls[2].body["messages"].([]any)[0])
	if !bytes.Contains(sys, []byte("JSON schema")) || !bytes.Contains(sys, []byte("additionalTips")) {
		t.Errorf("JSON mode without the schema in the prompt: %s", sys)
	}
}

// TestNewOpenAINeeds: a base URL and a model are needed; the key is not.
func TestNewOpenAINeeds(t *testing.T) {
	for _, cfg := range []OpenAIConfig{{Model: "m"}, {BaseURL: "http://127.0.0.1:11434/v1"}} {
		if _, err := NewOpenAI(cfg, nil, nil); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2"}, nil, nil); err != nil {
		t.Error(err)
	}
}

// TestOpenAIIgnoresSDKEnvironment: the SDK's own OPENAI_* variables never
// reach the operator's endpoint: a server without a key gets none.
func TestOpenAIIgnoresSDKEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment")
	t.Setenv("OPENAI_BASE_URL", "http://192.0.2.1/v1")
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("Authorization"))
		openAIContent(w, geminiGoodReply)
	}))
	t.Cleanup(srv.Close)
	o, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL + "/v1", Model: testOpenAIModel, Timeout: 2 * time.Second}, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Analyze(context.Background(), Request{Category: "stringing", Description: "hairs"}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "" {
		t.Fatalf("Authorization headers %q, want one request without any", got)
	}
}
