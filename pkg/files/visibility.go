package files

import (
	"context"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// Visibility of a file. Public is the spec's behaviour and the default: a
// record written before visibility existed has none and is public. A
// private file is seen only by its uploader and by admins — it is absent
// from everyone else's lists and answers as if it did not exist (404), so
// its existence is not given away either. A share link still reaches it:
// that is how a private file is handed to someone on purpose.
const (
	Public  = "public"
	Private = "private"
)

// Viewer is who is looking: nil is a guest, ID is a signed-in account (0
// never is one: the CLI's owner uploads as 0 and looks as an admin).
type Viewer struct {
	ID    uint64
	Admin bool
}

// IsPrivate reports whether only the uploader and admins may see f.
func (f File) IsPrivate() bool { return f.Visibility == Private }

// VisibleTo reports whether v may see f at all (list, detail, bytes).
func (f File) VisibleTo(v *Viewer) bool {
	if !f.IsPrivate() {
		return true
	}
	return v != nil && (v.Admin || (v.ID != 0 && v.ID == f.UploaderID))
}

// MayChange reports whether v may change f's settings (visibility, share
// links): its uploader or an admin.
func (f File) MayChange(v *Viewer) bool {
	return v != nil && (v.Admin || (v.ID != 0 && v.ID == f.UploaderID))
}

// visibilityOf is f's visibility as the API shows it (never empty).
func visibilityOf(f File) string {
	if f.IsPrivate() {
		return Private
	}
	return Public
}

// GetFor is Get for v: a file v may not see is store.ErrNotFound.
func (s *Service) GetFor(v *Viewer, id uint64) (*File, error) {
	f, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	if !f.VisibleTo(v) {
		return nil, fmt.Errorf("file %d: %w", id, store.ErrNotFound)
	}
	return f, nil
}

// CheckVisibility accepts Public or Private; anything else (empty too) is
// a *store.ValidationError of the field "visibility".
func CheckVisibility(visibility string) error {
	switch visibility {
	case Public, Private:
		return nil
	}
	return store.Invalid("visibility", "invalid", "visibility must be public or private")
}

// recordedVisibility is how a record keeps visibility: "" for Public.
func recordedVisibility(visibility string) string {
	if visibility == Private {
		return Private
	}
	return ""
}

// SetVisibility makes a file public or private and returns it.
func (s *Service) SetVisibility(ctx context.Context, id uint64, visibility string) (*File, error) {
	if err := CheckVisibility(visibility); err != nil {
		return nil, err
	}
	return s.change(ctx, id, func(f *File) { f.Visibility = recordedVisibility(visibility) })
}

// change applies fn to file id's record, stores it and returns the file as
// it is now.
func (s *Service) change(ctx context.Context, id uint64, fn func(*File)) (*File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var f File
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketName))
		if err := store.GetJSON(b, store.Itob(id), &f); err != nil {
			return fmt.Errorf("file %d: %w", id, err)
		}
		fn(&f)
		return store.PutJSON(b, store.Itob(id), &f)
	})
	if err != nil {
		return nil, err
	}
	s.ix.put(f)
	return &f, nil
}

// SeesOnlyPublic reports whether v's lists are exactly the public lists (a
// guest, or an account with no private file it could see): then the one
// shared, cached answer is right for v.
func (s *Service) SeesOnlyPublic(v *Viewer) bool {
	if v == nil {
		return true
	}
	return s.ix.privateVisibleTo(v) == 0
}

// PageOf is one page of a group's files that uploader uploaded (all of
// them theirs to see), newest first, and how many there are.
func (s *Service) PageOf(uploader uint64, group string, page, limit int) ([]File, int) {
	return s.ix.pageOf(uploader, group, page, limit)
}

// TotalsOf is each group's count of the files uploader uploaded.
func (s *Service) TotalsOf(uploader uint64) map[string]int { return s.ix.totalsOf(uploader) }

// PageFor is Page as v sees it: public files plus the private ones v may
// see.
func (s *Service) PageFor(v *Viewer, group string, page, limit int) ([]File, int) {
	return s.ix.pageFor(v, group, page, limit)
}

// TotalsFor is Totals as v sees it.
func (s *Service) TotalsFor(v *Viewer) map[string]int { return s.ix.totalsFor(v) }

// Rename gives a file a new original name (the one its downloads carry)
// and returns it. The name is refused, never silently changed, when it is
// empty, longer than a stored name may be, or holds what a stored name
// never does (a path separator, control or bidirectional-override
// characters, leading or trailing dots and spaces).
func (s *Service) Rename(ctx context.Context, id uint64, name string) (*File, error) {
	switch {
	case strings.TrimSpace(name) == "":
		return nil, store.Invalid("name", "required", "name must not be empty")
	case len(name) > maxNameBytes:
		return nil, store.Invalid("name", "too_long", fmt.Sprintf("name must be at most %d bytes", maxNameBytes))
	case SanitizeName(name) != name:
		return nil, store.Invalid("name", "invalid", `name must not contain / or \, control characters, or begin or end with a dot or a space`)
	}
	return s.change(ctx, id, func(f *File) { f.OriginalName = name })
}
