package usecase

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/downloads"
	"github.com/devhub/devhub/pkg/store"
)

// Audit event types of the download catalogue.
const (
	DownloadCreated  = "download.created"
	DownloadChanged  = "download.changed"
	DownloadDeleted  = "download.deleted"
	ReleaseAdded     = "download.release.added"
	ReleaseDeleted   = "download.release.deleted"
	DownloadReorderd = "download.reordered"
)

// errAdminsOnly refuses a change of the catalogue to anyone but an admin
// or the owner.
var errAdminsOnly = store.Refuse(store.KindForbidden, "only administrators change the downloads")

// mayChangeDownloads: admins and the owner.
func mayChangeDownloads(actor Actor) error {
	if !actor.Admin {
		return errAdminsOnly
	}
	return nil
}

// ListDownloads is a page of the catalogue; hidden entries are listed for
// admins only.
func (h *Hub) ListDownloads(actor Actor, q downloads.Query) ([]downloads.Entry, int, error) {
	q.WithHidden = actor.Admin
	return h.Downloads.List(q)
}

// Download is entry slug as actor may see it: a hidden entry is not found
// for anyone but admins and the owner.
func (h *Hub) Download(actor Actor, slug string) (*downloads.Entry, error) {
	e, err := h.Downloads.Get(slug)
	if err != nil {
		return nil, err
	}
	if e.Hidden && !actor.Admin {
		return nil, fmt.Errorf("download %q: %w", slug, store.ErrNotFound)
	}
	return e, nil
}

// DownloadForChange is entry slug when actor may change it.
func (h *Hub) DownloadForChange(actor Actor, slug string) (*downloads.Entry, error) {
	if err := mayChangeDownloads(actor); err != nil {
		return nil, err
	}
	return h.Downloads.Get(slug)
}

// CreateDownload adds an entry to the catalogue.
func (h *Hub) CreateDownload(ctx context.Context, actor Actor, e downloads.Entry) (*downloads.Entry, error) {
	if err := mayChangeDownloads(actor); err != nil {
		return nil, err
	}
	out, err := h.Downloads.Create(e)
	if err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: DownloadCreated, Target: out.Slug, Details: map[string]string{"section": out.Section}})
	return out, nil
}

// DownloadChange is what changes about an entry (nil: unchanged).
type DownloadChange struct {
	Section      *string
	Name         *string
	Summary      *string
	Description  *string
	Translations *map[string]downloads.Translation
	Systems      *[]string
	Requirements *string
	Licence      *string
	Homepage     *string
	Hidden       *bool
	Order        *int
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// ChangeDownload edits an entry.
func (h *Hub) ChangeDownload(ctx context.Context, actor Actor, slug string, c DownloadChange) (*downloads.Entry, error) {
	if err := mayChangeDownloads(actor); err != nil {
		return nil, err
	}
	out, err := h.Downloads.Change(slug, func(e *downloads.Entry) { ApplyDownloadChange(e, c) })
	if err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: DownloadChanged, Target: slug})
	return out, nil
}

// ApplyDownloadChange sets on e what c changes.
func ApplyDownloadChange(e *downloads.Entry, c DownloadChange) {
	set(&e.Section, c.Section)
	set(&e.Name, c.Name)
	set(&e.Summary, c.Summary)
	set(&e.Description, c.Description)
	set(&e.Translations, c.Translations)
	set(&e.Systems, c.Systems)
	set(&e.Requirements, c.Requirements)
	set(&e.Licence, c.Licence)
	set(&e.Homepage, c.Homepage)
	set(&e.Hidden, c.Hidden)
	set(&e.Order, c.Order)
}

// DeleteDownload deletes an entry with every file, icon and screenshot.
func (h *Hub) DeleteDownload(ctx context.Context, actor Actor, slug string) error {
	if err := mayChangeDownloads(actor); err != nil {
		return err
	}
	e, err := h.Downloads.Delete(ctx, slug)
	if err != nil {
		return err
	}
	h.log().Info("download deleted", slog.String("slug", slug), slog.String("by", actor.Name()))
	h.record(ctx, actor, audit.Event{Type: DownloadDeleted, Target: slug, Details: map[string]string{"releases": strconv.Itoa(len(e.Releases))}})
	return nil
}

// CloudFile is a file already in the file cloud (uploaded resumably)
// that becomes a release's file: its bytes are copied into the catalogue,
// hashed on the way, and the file cloud's copy is deleted, so it counts to
// no one's quota.
type CloudFile struct {
	ID     uint64
	System string
	Arch   string
}

// NewRelease is a release to add: files stored already (StoreFile) and
// files to take from the file cloud.
type NewRelease struct {
	Version string
	Notes   string
	Files   []downloads.NewFile
	Cloud   []CloudFile
}

// AddRelease adds a release to entry slug. Whatever happens, the bytes of
// a release that is not recorded are deleted.
func (h *Hub) AddRelease(ctx context.Context, actor Actor, slug string, in NewRelease) (out *downloads.Entry, err error) {
	stored := make([]*downloads.Stored, 0, len(in.Files)+len(in.Cloud))
	for _, f := range in.Files {
		stored = append(stored, f.Stored)
	}
	defer func() {
		if err != nil {
			h.Downloads.Discard(ctx, stored)
		}
	}()
	if _, err := h.DownloadForChange(actor, slug); err != nil {
		return nil, err
	}
	files := in.Files
	for _, cf := range in.Cloud {
		f, err := h.FileForChange(actor, cf.ID)
		if err != nil {
			return nil, err
		}
		_, r, err := h.Files.Open(f.ID)
		if err != nil {
			return nil, err
		}
		st, err := h.Downloads.StoreFile(ctx, f.OriginalName, r, f.Size)
		r.Close()
		if err != nil {
			return nil, err
		}
		stored = append(stored, st)
		files = append(files, downloads.NewFile{Stored: st, System: cf.System, Arch: cf.Arch})
	}
	out, err = h.Downloads.AddRelease(slug, in.Version, in.Notes, files)
	if err != nil {
		return nil, err
	}
	for _, cf := range in.Cloud {
		if _, err := h.Files.Delete(context.WithoutCancel(ctx), cf.ID); err != nil {
			h.log().Warn("file cloud copy of a release file not deleted", slog.Uint64("id", cf.ID), slog.Any("err", err))
		}
	}
	h.log().Info("release added", slog.String("slug", slug), slog.String("version", in.Version), slog.Int("files", len(files)),
		slog.String("by", actor.Name()))
	h.record(ctx, actor, audit.Event{Type: ReleaseAdded, Target: slug, Details: map[string]string{"version": in.Version}})
	return out, nil
}

// DeleteRelease deletes one release of entry slug and its files.
func (h *Hub) DeleteRelease(ctx context.Context, actor Actor, slug, version string) (*downloads.Entry, error) {
	if err := mayChangeDownloads(actor); err != nil {
		return nil, err
	}
	out, err := h.Downloads.DeleteRelease(ctx, slug, version)
	if err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: ReleaseDeleted, Target: slug, Details: map[string]string{"version": version}})
	return out, nil
}

// AddDownloadImage makes a stored image entry slug's icon or one more
// screenshot; a refused one's bytes are deleted.
func (h *Hub) AddDownloadImage(ctx context.Context, actor Actor, slug, kind string, st *downloads.Stored) (*downloads.Entry, error) {
	if err := mayChangeDownloads(actor); err != nil {
		h.Downloads.Discard(ctx, []*downloads.Stored{st})
		return nil, err
	}
	out, err := h.Downloads.AddMedia(ctx, slug, kind, st)
	if err != nil {
		h.Downloads.Discard(ctx, []*downloads.Stored{st})
		return nil, err
	}
	return out, nil
}

// DeleteDownloadImage removes entry slug's icon or a screenshot.
func (h *Hub) DeleteDownloadImage(ctx context.Context, actor Actor, slug, id string) (*downloads.Entry, error) {
	if err := mayChangeDownloads(actor); err != nil {
		return nil, err
	}
	return h.Downloads.DeleteMedia(ctx, slug, id)
}

// ReorderDownloads orders a section's entries.
func (h *Hub) ReorderDownloads(ctx context.Context, actor Actor, section string, slugs []string) error {
	if err := mayChangeDownloads(actor); err != nil {
		return err
	}
	if err := h.Downloads.Reorder(section, slugs); err != nil {
		return err
	}
	h.record(ctx, actor, audit.Event{Type: DownloadReorderd, Target: section})
	return nil
}

// DownloadFile is file id of entry slug with its entry, as actor may see
// it (a hidden entry's files are not found for anyone but admins).
func (h *Hub) DownloadFile(actor Actor, slug, id string) (*downloads.Entry, *downloads.File, error) {
	e, err := h.Download(actor, slug)
	if err != nil {
		return nil, nil, err
	}
	_, f := e.FindFile(id)
	if f == nil {
		return nil, nil, fmt.Errorf("file %q: %w", id, store.ErrNotFound)
	}
	return e, f, nil
}

// CountDownload counts a download of file id by actor, once per visitor
// (the account, else the address) and file per day.
func (h *Hub) CountDownload(actor Actor, slug, id string) {
	visitor := "ip:" + actor.IP
	if actor.UserID != 0 {
		visitor = "user:" + strconv.FormatUint(actor.UserID, 10)
	}
	if _, err := h.Downloads.CountDownload(slug, id, visitor); err != nil {
		h.log().Warn("download not counted", slog.String("slug", slug), slog.String("file", id), slog.Any("err", err))
	}
}
