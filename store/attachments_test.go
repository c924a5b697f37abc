package store

import (
	"context"
	"errors"
	"testing"
)

// Attachments are saved with their issue, read back only by its owner and
// deleted with the account.
func TestIssueAttachments(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		owner, other := &User{Email: "owner@example.com"}, &User{Email: "other@example.com"}
		for _, u := range []*User{owner, other} {
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		is := &Issue{UserID: owner.ID, Category: "heating-issues", Description: "heater fault at 200 C",
			Attachments: []Attachment{{Name: "klippy.log", Kind: "klipper-log", Text: "Transition to shutdown state: ADC out of range"},
				{Name: "M503.txt", Kind: "marlin-m503", Text: "echo:  M301 P21.73 I1.54 D76.55\n"}}}
		if err := s.CreateIssue(ctx, is); err != nil {
			t.Fatal(err)
		}
		plain := &Issue{UserID: owner.ID, Category: "stringing", Description: "strings everywhere"}
		if err := s.CreateIssue(ctx, plain); err != nil {
			t.Fatal(err)
		}
		v, err := s.IssueByID(ctx, owner.ID, is.ID)
		if err != nil || v.AttachmentCount != 2 {
			t.Fatalf("issue: %+v, %v", v, err)
		}
		meta, err := s.IssueAttachments(ctx, owner.ID, is.ID, false)
		if err != nil || len(meta) != 2 || meta[0].Name != "klippy.log" || meta[1].Kind != "marlin-m503" ||
			meta[0].Bytes != len("Transition to shutdown state: ADC out of range") || meta[0].Text != "" {
			t.Fatalf("names only: %+v, %v", meta, err)
		}
		full, err := s.IssueAttachments(ctx, owner.ID, is.ID, true)
		if err != nil || len(full) != 2 || full[1].Text != "echo:  M301 P21.73 I1.54 D76.55\n" {
			t.Fatalf("with text: %+v, %v", full, err)
		}
		if a, err := s.IssueAttachment(ctx, owner.ID, is.ID, 1); err != nil || a.Name != "M503.txt" || a.Text == "" {
			t.Fatalf("attachment 1: %+v, %v", a, err)
		}
		// Someone else sees nothing of them.
		if got, err := s.IssueAttachments(ctx, other.ID, is.ID, true); err != nil || len(got) != 0 {
			t.Fatalf("other user's list: %+v, %v", got, err)
		}
		for _, n := range []int{0, 2, -1} {
			uid := other.ID
			if n != 0 {
				uid = owner.ID
			}
			if _, err := s.IssueAttachment(ctx, uid, is.ID, n); !errors.Is(err, ErrNotFound) {
				t.Fatalf("attachment %d of user %d: err = %v, want ErrNotFound", n, uid, err)
			}
		}
		if got, _ := s.IssueAttachments(ctx, owner.ID, plain.ID, true); len(got) != 0 {
			t.Fatalf("an issue without attachments has %+v", got)
		}
		// Deleting the account deletes them.
		if _, err := s.DeleteUser(ctx, owner.ID); err != nil {
			t.Fatal(err)
		}
		var left int64
		s.r.Table("issue_attachments").Count(&left)
		if left != 0 {
			t.Fatalf("%d attachments outlived their account", left)
		}
	})
}
