package ai

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	oashared "github.com/openai/openai-go/v3/shared"
)

// DefaultOpenAITimeout bounds one analysis by an OpenAI-compatible server:
// a local model on a small machine may take a while.
const DefaultOpenAITimeout = 120 * time.Second

const (
	openAIProvider    = "OpenAI-compatible"
	openAIRetries     = 2       // the SDK's repeats of a 429, 5xx or dropped connection
	openAIMaxAttempts = 4       // requests the analysis itself makes: JSON mode, temperature, a bad reply
	openAIMaxBody     = 4 << 20 // bytes of one answer
	openAIMaxBackoff  = 8 * time.Second
)

// OpenAIConfig configures an analyzer that asks an OpenAI-compatible chat
// completions endpoint: Ollama, llama.cpp's server, LM Studio, vLLM or a
// hosted API.
type OpenAIConfig struct {
	BaseURL string // up to and including /v1, e.g. http://127.0.0.1:11434/v1
	APIKey  string // optional: local servers often need none
	Model   string
	// Vision sends the photos (as data URLs); without it the model is only
	// told how many there are.
	Vision bool
	// Timeout bounds a whole analysis, retries included; default
	// DefaultOpenAITimeout.
	Timeout    time.Duration
	HTTPClient *http.Client // optional; its transport is kept
}

// OpenAI analyzes requests with a model behind an OpenAI-compatible chat
// completions API, grounded like Gemini in the built-in engine's
// candidates and checked like Gemini's replies.
type OpenAI struct {
	chat     openai.ChatCompletionService
	model    string
	vision   bool
	timeout  time.Duration
	apiKey   string
	grounder Grounder
	log      *slog.Logger
	// What the server turned out not to take, learned from its 400s and
	// kept once a request without it succeeded.
	noSchema, noTemperature atomic.Bool
}

// NewOpenAI returns an analyzer for the endpoint of cfg. g may be nil (no
// grounding); log may be nil (slog.Default).
func NewOpenAI(cfg OpenAIConfig, g Grounder, log *slog.Logger) (*OpenAI, error) {
	if cfg.BaseURL == "" || cfg.Model == "" {
		return nil, errors.New("set up the OpenAI-compatible model: a base URL and a model are needed")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultOpenAITimeout
	}
	if log == nil {
		log = slog.Default()
	}
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		hc = &c
	}
	base := hc.Transport
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		t.TLSHandshakeTimeout = 10 * time.Second
		t.ResponseHeaderTimeout = cfg.Timeout
		base = t
	}
	hc.Transport = cappedBodyTransport{base: base, max: openAIMaxBody}
	hc.Timeout = cfg.Timeout + time.Second // the analysis' own deadline comes first

	// Only these options: the SDK's environment defaults (OPENAI_API_KEY,
	// OPENAI_ORG_ID...) must not reach the operator's endpoint.
	opts := []option.RequestOption{
		option.WithBaseURL(strings.TrimRight(cfg.BaseURL, "/") + "/"),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(openAIRetries),
		option.WithMaxRetryDelay(min(openAIMaxBackoff, cfg.Timeout/3)),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &OpenAI{
		chat:     openai.NewChatCompletionService(opts...),
		model:    cfg.Model,
		vision:   cfg.Vision,
		timeout:  cfg.Timeout,
		apiKey:   cfg.APIKey,
		grounder: g,
		log:      log,
	}, nil
}

// Answerer says the operator's model answers (Remote).
func (o *OpenAI) Answerer() (engine, model, provider string) {
	return EngineOpenAI, o.model, openAIProvider
}

// openAIMode is what one request asks of the server.
type openAIMode struct {
	jsonObject    bool // json_object instead of a strict json_schema
	noTemperature bool
}

// Analyze asks the model for a diagnosis. The SDK repeats 429s (after the
// delay the server asks for, when it fits the time budget), 5xx answers
// and dropped connections; Analyze itself asks again once after an invalid
// reply, and adapts to a server that refuses a strict JSON schema or a
// temperature with a 400. Every error is a *ProviderError wrapping
// ErrUnavailable.
func (o *OpenAI) Analyze(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()

	user := o.userMessage(req)
	mode := openAIMode{jsonObject: o.noSchema.Load(), noTemperature: o.noTemperature.Load()}
	invalidRetried := false
	for attempt := 1; ; attempt++ {
		resp, err := o.chat.New(ctx, o.params(user, mode))
		var res *Result
		if err == nil {
			res, err = parseOpenAIReply(resp)
		}
		if err == nil {
			o.learn(mode)
			o.logUsage(resp, attempt, mode, start)
			res.stamp(EngineOpenAI, o.model)
			return res, nil
		}
		pe := o.classify(ctx, err)
		if attempt >= openAIMaxAttempts {
			return nil, pe
		}
		var apiErr *openai.Error
		switch {
		case errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadRequest && o.adapt(&mode, apiErr):
			o.log.Warn("OpenAI-compatible server refused the request, asking differently",
				"error", pe.Err.Error(), "json_object", mode.jsonObject, "temperature", !mode.noTemperature)
		case pe.Reason == ReasonInvalidReply && !invalidRetried && !errors.Is(pe.Err, errOpenAINoChoice) && !errors.Is(pe.Err, errOpenAIBodyTooLarge):
			invalidRetried = true
			o.log.Warn("OpenAI-compatible reply invalid, asking again", "error", pe.Err.Error(), "attempt", attempt)
		default:
			return nil, pe
		}
	}
}

// adapt changes mode after a 400: without the temperature when the server
// names it, else from a strict JSON schema to plain JSON mode (many local
// servers take only json_object). It reports whether anything is left to
// try.
func (o *OpenAI) adapt(mode *openAIMode, apiErr *openai.Error) bool {
	if !mode.noTemperature && (apiErr.Param == "temperature" || strings.Contains(strings.ToLower(apiErr.Message), "temperature")) {
		mode.noTemperature = true
		return true
	}
	if !mode.jsonObject {
		mode.jsonObject = true
		return true
	}
	return false
}

// learn keeps what a successful request did without, for later analyses.
func (o *OpenAI) learn(mode openAIMode) {
	if mode.jsonObject && !o.noSchema.Swap(true) {
		o.log.Info("OpenAI-compatible server takes no strict JSON schema: using JSON mode with the same checks", "model", o.model)
	}
	if mode.noTemperature && !o.noTemperature.Swap(true) {
		o.log.Info("OpenAI-compatible model takes no temperature: using its default", "model", o.model)
	}
}

// userMessage is the maker's request with the grounding: one text, or with
// photos a list of parts (image_url data URLs). Photos go only to a model
// that sees them; another is told how many there are.
func (o *OpenAI) userMessage(req Request) openai.ChatCompletionMessageParamUnion {
	text := requestPrompt(req, o.vision, groundingFactKeys(o.grounder))
	var cands []Candidate
	if o.grounder != nil {
		cands = o.grounder.Candidates(req, geminiGroundingCount)
	}
	grounding := groundingPrompt(cands)
	if len(req.Photos) == 0 || !o.vision {
		if grounding != "" {
			text += "\n" + grounding
		}
		return openai.UserMessage(text)
	}
	parts := []openai.ChatCompletionContentPartUnionParam{openai.TextContentPart(text)}
	for _, p := range req.Photos {
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
			URL: "data:" + photoMIME(p) + ";base64," + base64.StdEncoding.EncodeToString(p.Data),
		}))
	}
	if grounding != "" {
		parts = append(parts, openai.TextContentPart(grounding))
	}
	return openai.UserMessage(parts)
}

func (o *OpenAI) params(user openai.ChatCompletionMessageParamUnion, mode openAIMode) openai.ChatCompletionNewParams {
	system := geminiSystemInstruction
	p := openai.ChatCompletionNewParams{Model: o.model}
	if mode.jsonObject {
		schema, _ := json.Marshal(openAIResultSchema())
		system += "\n\nThe reply is one JSON object of this JSON schema, nothing before or after it:\n" + string(schema)
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &oashared.ResponseFormatJSONObjectParam{}}
	} else {
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &oashared.ResponseFormatJSONSchemaParam{
			JSONSchema: oashared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   "diagnosis",
				Strict: openai.Bool(true),
				Schema: openAIResultSchema(),
			},
		}}
	}
	if !mode.noTemperature {
		p.Temperature = openai.Float(geminiTemperature)
	}
	p.Messages = []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), user}
	return p
}

// openAIResultSchema is the reply's shape as a strict JSON schema: every
// property required, no others.
func openAIResultSchema() map[string]any {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"summary": str("2 to 4 sentences: the most likely cause and what the photos show"),
			"steps": map[string]any{
				"type":     "array",
				"minItems": minGeminiSteps,
				"maxItems": MaxResultSteps,
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"title":       str("short imperative, at most 80 characters"),
						"description": str("what to do, with concrete metric values"),
						"priority": map[string]any{
							"type":        "string",
							"enum":        []string{PriorityHigh, PriorityMedium, PriorityLow},
							"description": "high: most likely; medium: worth checking; low: less common",
						},
					},
					"required":             []string{"title", "description", "priority"},
					"additionalProperties": false,
				},
			},
			"additionalTips": map[string]any{"type": "array", "maxItems": MaxResultTips, "items": str("a short tip")},
		},
		"required":             []string{"summary", "steps", "additionalTips"},
		"additionalProperties": false,
	}
}

// errOpenAINoChoice is a reply without any choice; it is not retried.
var errOpenAINoChoice = errors.New("reply has no choice")

// openAIThinking is the reasoning some local models write before the answer.
var openAIThinking = regexp.MustCompile(`(?s)^\s*<think>.*?</think>`)

// parseOpenAIReply turns a chat completion into a valid Result.
func parseOpenAIReply(resp *openai.ChatCompletion) (*Result, error) {
	invalid := func(err error) error {
		return &ProviderError{Provider: openAIProvider, Reason: ReasonInvalidReply, Err: err}
	}
	if resp == nil || len(resp.Choices) == 0 {
		return nil, invalid(errOpenAINoChoice)
	}
	choice := resp.Choices[0]
	if r := strings.TrimSpace(choice.Message.Refusal); r != "" || choice.FinishReason == "content_filter" {
		return nil, &ProviderError{Provider: openAIProvider, Reason: ReasonBlocked,
			Err: fmt.Errorf("reply refused (finish reason %q): %s", choice.FinishReason, geminiClip(r, 300))}
	}
	text := stripJSONFence(openAIThinking.ReplaceAllString(choice.Message.Content, ""))
	if text == "" {
		return nil, invalid(fmt.Errorf("reply has no text (finish reason %q)", choice.FinishReason))
	}
	var reply struct {
		Summary        string   `json:"summary"`
		Steps          []Step   `json:"steps"`
		AdditionalTips []string `json:"additionalTips"`
	}
	if err := json.Unmarshal([]byte(text), &reply); err != nil {
		return nil, invalid(fmt.Errorf("reply is not the JSON asked for (finish reason %q): %w", choice.FinishReason, err))
	}
	res := &Result{Summary: reply.Summary, Steps: reply.Steps, AdditionalTips: reply.AdditionalTips}
	if err := validateGeminiReply(res); err != nil {
		return nil, invalid(fmt.Errorf("reply invalid: %w", err))
	}
	return res, nil
}

// classify wraps err in a *ProviderError with its reason class; the API
// key never appears in it.
func (o *OpenAI) classify(ctx context.Context, err error) *ProviderError {
	pe := &ProviderError{Provider: openAIProvider, Reason: ReasonOther, Err: err, Engine: EngineOpenAI, Model: o.model}
	var known *ProviderError
	var apiErr *openai.Error
	switch {
	case errors.As(err, &known):
		pe.Reason, pe.Err = known.Reason, known.Err
	case errors.As(err, &apiErr):
		switch code := apiErr.StatusCode; {
		case code == http.StatusTooManyRequests:
			pe.Reason = ReasonRateLimited
		case code >= 500 || code == http.StatusRequestTimeout:
			pe.Reason = ReasonServerError
		case code >= 400:
			pe.Reason = ReasonClientError
		}
		pe.Err = fmt.Errorf("HTTP %d: %s", apiErr.StatusCode, o.hideKey(geminiClip(apiErr.Message, 300)))
	case errors.Is(err, errOpenAIBodyTooLarge):
		pe.Reason, pe.Err = ReasonInvalidReply, errOpenAIBodyTooLarge
	case errors.As(err, new(*json.SyntaxError)) || errors.As(err, new(*json.UnmarshalTypeError)):
		// A 200 whose body is not a chat completion (a proxy's error page).
		pe.Reason, pe.Err = ReasonInvalidReply, fmt.Errorf("answer is not a chat completion: %w", err)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		pe.Reason = ReasonTimeout
		pe.Err = fmt.Errorf("no answer within %s", o.timeout)
	case ctx.Err() != nil:
		pe.Err = ctx.Err()
	default:
		// A connection refused or reset after the SDK's own retries.
		pe.Reason = ReasonServerError
		pe.Err = errors.New(o.hideKey(err.Error()))
	}
	return pe
}

func (o *OpenAI) hideKey(s string) string {
	if o.apiKey == "" {
		return s
	}
	return strings.ReplaceAll(s, o.apiKey, "***")
}

func (o *OpenAI) logUsage(resp *openai.ChatCompletion, attempts int, mode openAIMode, start time.Time) {
	o.log.Info("OpenAI-compatible analysis", "model", o.model, "attempts", attempts, "json_object", mode.jsonObject,
		"elapsed", time.Since(start), "prompt_tokens", resp.Usage.PromptTokens, "output_tokens", resp.Usage.CompletionTokens)
}

// errOpenAIBodyTooLarge is an answer past openAIMaxBody.
var errOpenAIBodyTooLarge = fmt.Errorf("answer larger than %d bytes", openAIMaxBody)

// cappedBodyTransport fails the reading of a response body past max bytes,
// so a misbehaving server cannot fill the memory.
type cappedBodyTransport struct {
	base http.RoundTripper
	max  int64
}

func (t cappedBodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, left: t.max}
	return resp, nil
}

type cappedBody struct {
	io.ReadCloser
	left int64
}

// Read passes at most one byte past the cap, then fails.
func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errOpenAIBodyTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if b.left -= int64(n); b.left < 0 {
		return n, errOpenAIBodyTooLarge
	}
	return n, err
}
