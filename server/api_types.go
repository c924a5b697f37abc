package server

import (
	"time"

	"github.com/layerfix/layerfix/ai"
)

// The request bodies of the routes that have no resource type of their own.

type profileUpdate struct {
	DisplayName *string `json:"displayName"`
}

type deleteAccountRequest struct {
	Password string `json:"password"` // local mode
}

type tierRequest struct {
	Tier string `json:"tier"`
}

type setupIntentRequest struct {
	SetupIntentID string `json:"setupIntentId"`
}

type newTierRequest struct {
	NewTier string `json:"newTier"`
}

// The answers of the routes that have no resource type of their own. The
// OpenAPI document is built from them (openapi_gen.go), so a handler
// answers with one of these, never a map.

type messageResponse struct {
	Message string `json:"message"`
}

type emailChangeResponse struct {
	Email   string `json:"email"`
	Pending bool   `json:"pending"`
	Message string `json:"message"`
}

type deleteAccountResponse struct {
	Deleted              bool   `json:"deleted"`
	SubscriptionCanceled bool   `json:"subscriptionCanceled"`
	IdentityDeleted      bool   `json:"identityDeleted"`
	Message              string `json:"message"`
}

type passwordResetResponse struct {
	EmailEnabled bool `json:"emailEnabled"`
}

type transferResponse struct {
	Transferred int `json:"transferred"`
}

type shareCreated struct {
	ShareID string `json:"shareId"`
}

type printerDeleted struct {
	ID      int64 `json:"id"`
	Deleted bool  `json:"deleted"`
}

type printersStats struct {
	Printers []printerStats `json:"printers"`
}

type uploadResponse struct {
	Images []uploadedImage `json:"images"`
}

type publicUsage struct {
	CurrentUsage int    `json:"currentUsage"`
	ResetsAt     string `json:"resetsAt"` // when this month's free analyses return
}

type issueSummary struct {
	Total      int64       `json:"total"`
	Open       int64       `json:"open"`
	Pending    int64       `json:"pending"`
	InProgress int64       `json:"inProgress"`
	Resolved   int64       `json:"resolved"`
	Recent     []issueJSON `json:"recent"`
}

type webhookAck struct {
	Received bool   `json:"received"`
	Outcome  string `json:"outcome"`
}

// The subscription calls answer several shapes; omitempty marks the keys
// that only some of them carry.

type createSubscriptionResponse struct {
	ClientSecret *string `json:"clientSecret"`
	Subscribed   bool    `json:"subscribed,omitempty"`
	Tier         string  `json:"tier,omitempty"`
	Message      string  `json:"message,omitempty"`
}

type subscriptionChange struct {
	Message           string  `json:"message"`
	Status            string  `json:"status"`
	Tier              string  `json:"tier"`
	RequiresAction    *bool   `json:"requiresAction,omitempty"`
	ClientSecret      string  `json:"clientSecret,omitempty"`
	CancelAtPeriodEnd *bool   `json:"cancelAtPeriodEnd,omitempty"`
	CurrentPeriodEnd  *string `json:"currentPeriodEnd,omitempty"`
}

// issueListSchema is GET /api/issues's answer: the whole log, or one page.
var issueListSchema = rawSchema{"oneOf": []any{
	rawSchema{"type": "array", "items": rawSchema{"$ref": "#/components/schemas/Issue"}},
	rawSchema{"$ref": "#/components/schemas/IssuePage"},
}}

var issueListParams = []apiParam{
	{Name: "limit", In: "query", Schema: 0, Description: "1-200, default 50"},
	{Name: "cursor", In: "query", Schema: "", Description: "nextCursor of the previous page"},
	{Name: "status", In: "query", Schema: rawSchema{"enum": []string{"all", "open", "pending", "in-progress", "resolved"}}},
	{Name: "printer", In: "query", Schema: "", Description: "printer name; 'Unknown Printer' for issues without one"},
	{Name: "category", In: "query", Schema: rawSchema{"enum": ai.Categories}, Description: "the shown category: the maker's choice, or the diagnosed one for 'other'"},
	{Name: "from", In: "query", Schema: time.Time{}},
	{Name: "to", In: "query", Schema: time.Time{}},
	{Name: "q", In: "query", Schema: "", Description: "text in the description or resolution notes"},
}

var photoParams = []apiParam{
	{Name: "sig", In: "query", Schema: "", Description: "signature of a photo URL"},
	{Name: "exp", In: "query", Schema: "", Description: "expiry of a photo URL"},
}
