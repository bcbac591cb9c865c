package files

// Hooks are told about the file list's changes once they are committed:
// Added after an upload's records are written (the HTTP upload, `devhub
// file add`, any later way in), Deleted after a record is removed. Derived
// data that lives outside this package — thumbnails — follows the files
// this way without the upload and delete paths knowing about it. A hook
// runs on the caller's goroutine, so it must return at once (hand the work
// to a background worker); either may be nil.
type Hooks struct {
	Added   func(File)
	Deleted func(File)
}

// SetHooks installs h (replacing earlier hooks); call it before the
// service is shared.
func (s *Service) SetHooks(h Hooks) { s.hooks.Store(&h) }

func (s *Service) added(fs []File) {
	if h := s.hooks.Load(); h != nil && h.Added != nil {
		for _, f := range fs {
			h.Added(f)
		}
	}
}

func (s *Service) deleted(f File) {
	if h := s.hooks.Load(); h != nil && h.Deleted != nil {
		h.Deleted(f)
	}
}
