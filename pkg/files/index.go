package files

import (
	"slices"
	"sync"

	"github.com/devhub/devhub/pkg/internal/paging"
)

// Group names as the list answers them, in the page's order, and the type
// each holds.
var groupTypes = []struct{ Group, Type string }{
	{"images", TypeImage}, {"videos", TypeVideo}, {"audio", TypeAudio}, {"documents", TypeDocument}, {"other", TypeOther},
}

// GroupNames are the list's group names, in order.
func GroupNames() []string {
	out := make([]string, len(groupTypes))
	for i, g := range groupTypes {
		out[i] = g.Group
	}
	return out
}

// GroupOf is the list group of a file type ("other" for anything unknown).
func GroupOf(typ string) string {
	for _, g := range groupTypes {
		if g.Type == typ {
			return g.Group
		}
	}
	return "other"
}

// index is the file list kept in memory, in step with the store: loaded
// once at start, then told of every commit and delete. Lists and details
// are answered from it without a transaction or a JSON decode per record,
// so the anonymous list costs the same with ten thousand files as with ten
// (the blog and games lists work the same way).
type index struct {
	mu     sync.RWMutex
	byID   map[uint64]File
	groups map[string][]uint64 // ids ascending: ids grow with time, so newest last
	// version grows with every change, so an answer built from the index
	// can be cached until it moves.
	version uint64
	// usage is what each uploader stores (their quota's file-cloud meter).
	usage map[uint64]usage
	// private counts the private files; while it is 0 every viewer's list
	// is the plain one (visibility.go).
	private int
}

// usage is one uploader's bytes and files.
type usage struct{ bytes, files int64 }

func newIndex() *index {
	return &index{byID: map[uint64]File{}, groups: map[string][]uint64{}, usage: map[uint64]usage{}}
}

// put adds or replaces a file.
func (ix *index) put(f File) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.version++
	g := GroupOf(f.Type)
	if old, ok := ix.byID[f.ID]; ok {
		ix.removeLocked(old)
	}
	ix.byID[f.ID] = f
	u := ix.usage[f.UploaderID]
	ix.usage[f.UploaderID] = usage{bytes: u.bytes + f.Size, files: u.files + 1}
	if f.IsPrivate() {
		ix.private++
	}
	ids := ix.groups[g]
	if n := len(ids); n == 0 || ids[n-1] < f.ID {
		ix.groups[g] = append(ids, f.ID) // the common case: a new upload
		return
	}
	i, _ := slices.BinarySearch(ids, f.ID)
	ix.groups[g] = slices.Insert(ids, i, f.ID)
}

// remove forgets a file.
func (ix *index) remove(id uint64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if f, ok := ix.byID[id]; ok {
		ix.version++
		ix.removeLocked(f)
	}
}

func (ix *index) ver() uint64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.version
}

func (ix *index) removeLocked(f File) {
	delete(ix.byID, f.ID)
	if u := ix.usage[f.UploaderID]; u.files <= 1 {
		delete(ix.usage, f.UploaderID)
	} else {
		ix.usage[f.UploaderID] = usage{bytes: u.bytes - f.Size, files: u.files - 1}
	}
	if f.IsPrivate() {
		ix.private--
	}
	g := GroupOf(f.Type)
	ids := ix.groups[g]
	if i, ok := slices.BinarySearch(ids, f.ID); ok {
		ix.groups[g] = slices.Delete(ids, i, i+1)
	}
}

func (ix *index) get(id uint64) (File, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	f, ok := ix.byID[id]
	return f, ok
}

// page is one page of a group, newest first, and the group's total.
func (ix *index) page(group string, page, limit int) ([]File, int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ids := ix.groups[group]
	total := len(ids)
	start, end := paging.Query{Page: page, Limit: limit}.Bounds(total) // counting from the newest
	out := make([]File, 0, end-start)
	for i := start; i < end; i++ {
		out = append(out, ix.byID[ids[total-1-i]])
	}
	return out, total
}

func (ix *index) totals() map[string]int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make(map[string]int, len(groupTypes))
	for _, g := range groupTypes {
		out[g.Group] = len(ix.groups[g.Group])
	}
	return out
}

// totalsOf is totals counting only the files uploader uploaded.
func (ix *index) totalsOf(uploader uint64) map[string]int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.totalsWhereLocked(func(f File) bool { return f.UploaderID == uploader })
}

func (ix *index) totalsWhereLocked(keep func(File) bool) map[string]int {
	out := make(map[string]int, len(groupTypes))
	for _, g := range groupTypes {
		n := 0
		for _, id := range ix.groups[g.Group] {
			if keep(ix.byID[id]) {
				n++
			}
		}
		out[g.Group] = n
	}
	return out
}

func (ix *index) len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.byID)
}

// usageOf is what one uploader stores.
func (ix *index) usageOf(uploaderID uint64) usage {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.usage[uploaderID]
}

// privateVisibleTo is how many private files v may see.
func (ix *index) privateVisibleTo(v *Viewer) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.private == 0 {
		return 0
	}
	if v.Admin {
		return ix.private
	}
	n := 0
	for _, f := range ix.byID {
		if f.IsPrivate() && f.VisibleTo(v) {
			n++
		}
	}
	return n
}

// pageFor is page with only the files v may see. While no file is private
// (or v is an admin) it is page itself; otherwise the group is filtered,
// which costs a walk over it — private files are the exception.
func (ix *index) pageFor(v *Viewer, group string, page, limit int) ([]File, int) {
	ix.mu.RLock()
	if ix.private == 0 || (v != nil && v.Admin) {
		ix.mu.RUnlock()
		return ix.page(group, page, limit)
	}
	defer ix.mu.RUnlock()
	return ix.pageWhereLocked(group, page, limit, func(f File) bool { return f.VisibleTo(v) })
}

// pageOf is one page of a group's files that uploader uploaded, newest
// first, and how many there are.
func (ix *index) pageOf(uploader uint64, group string, page, limit int) ([]File, int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.pageWhereLocked(group, page, limit, func(f File) bool { return f.UploaderID == uploader })
}

func (ix *index) pageWhereLocked(group string, page, limit int, keep func(File) bool) ([]File, int) {
	ids := ix.groups[group]
	p := paging.Start[File](paging.Query{Page: page, Limit: limit})
	for i := len(ids) - 1; i >= 0; i-- {
		if f := ix.byID[ids[i]]; keep(f) {
			p.Add(f)
		}
	}
	return p.Items, p.Total
}

// totalsFor is totals counting only the files v may see.
func (ix *index) totalsFor(v *Viewer) map[string]int {
	ix.mu.RLock()
	if ix.private == 0 || (v != nil && v.Admin) {
		ix.mu.RUnlock()
		return ix.totals()
	}
	defer ix.mu.RUnlock()
	return ix.totalsWhereLocked(func(f File) bool { return f.VisibleTo(v) })
}
