package usecase

import (
	"context"
	"log/slog"

	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/store"
)

// FileForChange is file id when the actor may change it (or see its
// share links): its uploader, an
// admin or the owner. A file the actor may not even see is not found.
func (h *Hub) FileForChange(actor Actor, id uint64) (*files.File, error) {
	f, err := h.Files.GetFor(actor.viewer(), id)
	if err != nil {
		return nil, err
	}
	if !f.MayChange(actor.viewer()) {
		return nil, store.Refuse(store.KindForbidden, "only the file's uploader or an administrator may change it")
	}
	return f, nil
}

// FileChange is what changes about a file: its name, its visibility, or
// both (nil: unchanged).
type FileChange struct {
	Name       *string
	Visibility *string
}

// ChangeFile renames a file and/or makes it public or private, for its
// uploader, an admin or the owner.
func (h *Hub) ChangeFile(ctx context.Context, actor Actor, id uint64, in FileChange) (*files.File, error) {
	if in.Name == nil && in.Visibility == nil {
		return nil, store.Invalid("name", "required", "name or visibility is required")
	}
	f, err := h.FileForChange(actor, id)
	if err != nil {
		return nil, err
	}
	if in.Name != nil && *in.Name != f.OriginalName {
		old := f.OriginalName
		if f, err = h.Files.Rename(ctx, f.ID, *in.Name); err != nil {
			return nil, err
		}
		h.log().Info("file renamed", slog.Uint64("id", f.ID), slog.String("from", old), slog.String("to", f.OriginalName),
			slog.String("by", actor.Name()))
	}
	if in.Visibility != nil {
		if f, err = h.Files.SetVisibility(ctx, f.ID, *in.Visibility); err != nil {
			return nil, err
		}
		h.log().Info("file visibility changed", slog.Uint64("id", f.ID), slog.String("visibility", *in.Visibility),
			slog.String("by", actor.Name()))
	}
	return f, nil
}

// DeleteFile deletes a file (record and bytes) for its uploader, an admin
// or the owner.
func (h *Hub) DeleteFile(ctx context.Context, actor Actor, id uint64) (*files.File, error) {
	f, err := h.FileForChange(actor, id)
	if err != nil {
		return nil, err
	}
	if f, err = h.Files.Delete(ctx, f.ID); err != nil {
		return nil, err
	}
	h.log().Info("file deleted", slog.Uint64("id", f.ID), slog.String("name", f.OriginalName), slog.String("by", actor.Name()))
	return f, nil
}
