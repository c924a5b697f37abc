package store

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// User is a signed-in maker.
type User struct {
	ID                   int64      `gorm:"primaryKey" json:"id"`
	FirebaseUID          *string    `gorm:"column:firebase_uid" json:"firebaseUid"`
	Email                string     `json:"email"`
	DisplayName          string     `json:"displayName"`
	StripeCustomerID     *string    `json:"-"`
	StripeSubscriptionID *string    `json:"-"`
	SubscriptionStatus   string     `gorm:"default:inactive" json:"subscriptionStatus"`
	SubscriptionTier     string     `gorm:"default:free" json:"subscriptionTier"`
	MonthlyUsage         int        `gorm:"default:0" json:"monthlyUsage"`
	LastUsageReset       *time.Time `json:"lastUsageReset"`
	CreatedAt            time.Time  `json:"createdAt"`
	PasswordHash         *string    `json:"-"`
	EmailVerified        bool       `json:"emailVerified"`
	Disabled             bool       `json:"-"`
	UsageTransferPeriod  *string    `json:"-"`
}

// Session is a local-mode sign-in; only the token's SHA-256 is stored.
type Session struct {
	ID        int64 `gorm:"primaryKey"`
	UserID    int64
	TokenHash string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// AuthToken is a one-time token (password reset, email verification).
type AuthToken struct {
	ID        int64 `gorm:"primaryKey"`
	UserID    int64
	Kind      string
	TokenHash string
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
	NewEmail  *string // the address an email-change token confirms
}

// Printer is a maker's registered printer.
type Printer struct {
	ID               int64     `gorm:"primaryKey" json:"id"`
	UserID           int64     `json:"userId"`
	Name             string    `json:"name"`
	Brand            string    `json:"brand"`
	NozzleSize       float64   `gorm:"default:0.4" json:"nozzleSize"`
	FilamentDiameter float64   `gorm:"default:1.75" json:"filamentDiameter"`
	BuildVolume      *string   `json:"buildVolume"`
	CreatedAt        time.Time `json:"createdAt"`
	// The printer's host; the API shows it without the key.
	HostKind string `json:"-"` // "", "moonraker", "octoprint" or "prusalink"
	HostURL  string `json:"-"`
	HostKey  string `json:"-"` // the API key sealed by the server; "" when none
}

// Issue is a saved troubleshooting request and its analysis.
type Issue struct {
	ID        int64  `gorm:"primaryKey" json:"id"`
	UserID    int64  `json:"userId"`
	PrinterID *int64 `json:"printerId"`
	Category  string `json:"category"` // the maker's choice
	// DiagnosedCategory is the category the analysis found; nil when it
	// found none or the issue predates it. ShownCategory picks between them.
	DiagnosedCategory      *string    `gorm:"column:diagnosed_category" json:"diagnosedCategory"`
	Description            string     `json:"description"`
	Material               *string    `json:"material"`
	NozzleTemp             *float64   `json:"nozzleTemp"`
	BedTemp                *float64   `json:"bedTemp"`
	LayerHeight            *float64   `json:"layerHeight"`
	PrintSpeed             *float64   `json:"printSpeed"`
	Infill                 *float64   `json:"infill"`
	PhotoURLs              StringList `gorm:"column:photo_urls" json:"photoUrls"`
	AIChecklist            JSON       `gorm:"column:ai_checklist" json:"aiChecklist"`
	SlicerSettings         JSON       `gorm:"column:slicer_settings" json:"slicerSettings"` // read from the sliced file; null when none
	Status                 string     `gorm:"default:pending" json:"status"`
	ResolvedAt             *time.Time `json:"resolvedAt"`
	WorkingRecommendations StringList `json:"workingRecommendations"`
	CheckedSteps           StringList `gorm:"column:checked_steps" json:"checkedSteps"` // titles of the ticked steps
	ResolutionNotes        *string    `json:"resolutionNotes"`
	CreatedAt              time.Time  `json:"createdAt"`
	AttachmentCount        int        `gorm:"column:attachment_count" json:"attachmentCount"`
	// Attachments are saved with a new issue (CreateIssue); reads load them
	// with IssueAttachments.
	Attachments []Attachment `gorm:"-" json:"-"`
}

// Attachment is a text file from the printer (a log, a config, a settings
// dump) attached to an issue, secrets already stripped.
type Attachment struct {
	IssueID  int64  `gorm:"primaryKey" json:"-"`
	Position int    `gorm:"primaryKey" json:"-"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`  // what the file was recognised as; "" when unknown
	Bytes    int    `json:"bytes"` // the text's length in bytes
	Text     string `json:"text,omitempty"`
}

// TableName names the attachments' table.
func (Attachment) TableName() string { return "issue_attachments" }

// SharedResult is a troubleshooting result published under a random link.
type SharedResult struct {
	ID                  int64     `gorm:"primaryKey" json:"-"`
	ShareID             string    `json:"shareId"`
	Title               string    `json:"title"`
	TroubleshootingData JSON      `json:"troubleshootingData"`
	CreatedAt           time.Time `json:"createdAt"`
}

// AnonymousUsage counts anonymous analyses per client IP per calendar month.
type AnonymousUsage struct {
	ID         int64 `gorm:"primaryKey"`
	IPAddress  string
	UsageCount int
	Month      int
	Year       int
	LastUsed   time.Time
}

// TableName keeps the spec's table name.
func (AnonymousUsage) TableName() string { return "anonymous_usage" }

// StringList is a list of strings stored as a JSON array on every database.
type StringList []string

// Value implements driver.Valuer.
func (l StringList) Value() (driver.Value, error) {
	if l == nil {
		l = StringList{}
	}
	b, err := json.Marshal([]string(l))
	return string(b), err
}

// Scan implements sql.Scanner.
func (l *StringList) Scan(src any) error {
	b, err := bytesOf(src)
	if err != nil || len(b) == 0 {
		*l = StringList{}
		return err
	}
	return json.Unmarshal(b, (*[]string)(l))
}

// JSON is a raw JSON document column (json/jsonb).
type JSON json.RawMessage

// Value implements driver.Valuer.
func (j JSON) Value() (driver.Value, error) {
	if len(j) == 0 {
		return nil, nil
	}
	if !json.Valid(j) {
		return nil, errors.New("invalid JSON value")
	}
	return string(j), nil
}

// Scan implements sql.Scanner.
func (j *JSON) Scan(src any) error {
	b, err := bytesOf(src)
	if err != nil {
		return err
	}
	*j = append((*j)[:0], b...)
	return nil
}

// MarshalJSON writes the document as is (null when empty).
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j) == 0 {
		return []byte("null"), nil
	}
	return j, nil
}

// UnmarshalJSON keeps a copy of the raw document.
func (j *JSON) UnmarshalJSON(b []byte) error {
	*j = append((*j)[:0], b...)
	return nil
}

func bytesOf(src any) ([]byte, error) {
	switch v := src.(type) {
	case nil:
		return nil, nil
	case []byte:
		return v, nil
	case string:
		return []byte(v), nil
	default:
		return nil, fmt.Errorf("unsupported column type %T", src)
	}
}
