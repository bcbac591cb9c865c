package files

import "time"

// Info is a file as devhub shows it outside the store: the API's canonical
// paths (api/openapi.yaml's File — the list, the detail, the upload answer)
// and the CLI's --json. One type, so the three cannot drift apart; the
// names are the spec's for the file detail, the one spec-named view on a
// canonical path. The spec's own list path, /api/api/files, keeps the
// spec's list-item names (pkg/server). File's JSON tags are the store's
// encoding and stay as they are.
type Info struct {
	ID           uint64    `json:"id"`
	OriginalName string    `json:"originalName"`
	Size         int64     `json:"size"`
	Mimetype     string    `json:"mimetype"`
	Type         string    `json:"type"`
	UploadedAt   time.Time `json:"uploadedAt"`
	// Visibility is public or private (visibility.go).
	Visibility string `json:"visibility"`
	// SHA256 is left out of the lists (they are read often and the hash is
	// 64 bytes a file); the detail and the upload answer carry it.
	SHA256 string `json:"sha256,omitempty"`
	// ThumbnailURL is where an image's thumbnail is, once it has one. The
	// HTTP layer fills it in (thumbnails are not this package's); the CLI
	// leaves it out.
	ThumbnailURL string `json:"thumbnailUrl,omitempty"`
	// Mine is true on the answers to a signed-in account for the files it
	// uploaded (it may rename and delete them); the HTTP layer sets it.
	Mine bool `json:"mine,omitempty"`
}

// Info is f as Info; withHash adds its SHA-256.
func (f File) Info(withHash bool) Info {
	in := Info{ID: f.ID, OriginalName: f.OriginalName, Size: f.Size, Mimetype: f.MimeType, Type: f.Type, UploadedAt: f.UploadedAt, Visibility: visibilityOf(f)}
	if withHash {
		in.SHA256 = f.SHA256
	}
	return in
}

// Infos is fs as Info.
func Infos(fs []File, withHash bool) []Info {
	out := make([]Info, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.Info(withHash))
	}
	return out
}
