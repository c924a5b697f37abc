package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestAIProviderConfig: LAYERFIX_AI_PROVIDER picks who answers; each
// provider needs its settings, a half-made OpenAI-compatible setup is
// refused, every error names the variable at fault in one line, and the
// API key never reaches the start-up log.
func TestAIProviderConfig(t *testing.T) {
	load := func(env map[string]string) (*Config, error) {
		return Load(nil, func(k string) string { return env[k] })
	}
	ollama := map[string]string{"LAYERFIX_AI_PROVIDER": "openai", "LAYERFIX_OPENAI_BASE_URL": "http://127.0.0.1:11434/v1/", "LAYERFIX_OPENAI_MODEL": "qwen2.5vl:7b"}
	for _, c := range []struct {
		env  map[string]string
		want string // the provider, or the variable an error names
	}{
		{map[string]string{}, "builtin"},
		{map[string]string{"LAYERFIX_GEMINI_API_KEY": "k"}, "gemini"},
		{map[string]string{"LAYERFIX_GEMINI_API_KEY": "k", "LAYERFIX_AI_PROVIDER": "builtin"}, "builtin"},
		{map[string]string{"LAYERFIX_AI_PROVIDER": "Built-in"}, "builtin"},
		{ollama, "openai"},
		{map[string]string{"LAYERFIX_AI_PROVIDER": "claude"}, "LAYERFIX_AI_PROVIDER"},
		{map[string]string{"LAYERFIX_AI_PROVIDER": "gemini"}, "LAYERFIX_GEMINI_API_KEY"},
		{map[string]string{"LAYERFIX_AI_PROVIDER": "openai", "LAYERFIX_OPENAI_MODEL": "m"}, "LAYERFIX_OPENAI_BASE_URL"},
		{map[string]string{"LAYERFIX_AI_PROVIDER": "openai", "LAYERFIX_OPENAI_BASE_URL": "http://h/v1"}, "LAYERFIX_OPENAI_MODEL"},
		{map[string]string{"LAYERFIX_OPENAI_BASE_URL": "http://h/v1", "LAYERFIX_OPENAI_MODEL": "m"}, "LAYERFIX_AI_PROVIDER"},
		{map[string]string{"LAYERFIX_OPENAI_BASE_URL": "file:///etc/passwd"}, "LAYERFIX_OPENAI_BASE_URL"},
		{map[string]string{"LAYERFIX_OPENAI_BASE_URL": "127.0.0.1:11434"}, "LAYERFIX_OPENAI_BASE_URL"},
		{map[string]string{"LAYERFIX_OPENAI_MODEL": "two words"}, "LAYERFIX_OPENAI_MODEL"},
		{map[string]string{"LAYERFIX_OPENAI_VISION": "sometimes"}, "LAYERFIX_OPENAI_VISION"},
		{map[string]string{"LAYERFIX_OPENAI_TIMEOUT": "1h"}, "LAYERFIX_OPENAI_TIMEOUT"},
	} {
		cfg, err := load(c.env)
		if strings.HasPrefix(c.want, "LAYERFIX_") {
			if err == nil || !strings.HasPrefix(err.Error(), c.want+":") || strings.Contains(err.Error(), "\n") {
				t.Errorf("%v: err = %v, want a one-line error naming %s", c.env, err, c.want)
			}
			continue
		}
		if err != nil || cfg.AIProvider != c.want {
			t.Errorf("%v: provider %q, err %v; want %s", c.env, cfg.AIProvider, err, c.want)
		}
	}

	env := map[string]string{"LAYERFIX_OPENAI_API_KEY": "sk-SECRETSECRET", "LAYERFIX_OPENAI_VISION": "on", "LAYERFIX_OPENAI_TIMEOUT": "5m"}
	for k, v := range ollama {
		env[k] = v
	}
	cfg := testConfig(t, env)
	if cfg.OpenAIBaseURL != "http://127.0.0.1:11434/v1" || cfg.OpenAIModel != "qwen2.5vl:7b" || !cfg.OpenAIVision || cfg.OpenAITimeout != 5*time.Minute {
		t.Fatalf("config %+v", cfg)
	}
	printed := fmt.Sprint(cfg.Printable()...)
	if strings.Contains(printed, "SECRETSECRET") || !strings.Contains(printed, "http://127.0.0.1:11434/v1") || !strings.Contains(printed, "qwen2.5vl:7b") {
		t.Fatalf("start-up log: %s", printed)
	}
	if cfg := testConfig(t, nil); cfg.OpenAITimeout != 120*time.Second || cfg.OpenAIVision {
		t.Fatalf("defaults: %+v", cfg)
	}
}
